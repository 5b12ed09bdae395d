//! Services a request names ("play a song on Spotify"), from a table kept as data (`services.txt`), and
//! which of them a catalog mentions anywhere (a server's name, title or description; a tool's name, title,
//! description or parameters). A request that names a service the catalog never mentions cannot be served
//! by a look-alike of another service: the decision answers `not_found` and says which service is missing.
//! Pure code, no I/O.

use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

use toolscout_indexer::split_name;

/// The table, compiled in.
const TABLE: &str = include_str!("services.txt");

/// A service's position in the table.
pub(crate) type Service = usize;

/// The services of the table and the word sequences that name them.
#[derive(Debug)]
pub(crate) struct Services {
    names: Vec<String>,
    /// Name (words joined by one space) → service.
    aliases: HashMap<String, Service>,
    /// First words of every name: a text position is looked up only when its word starts one.
    first_words: HashSet<String>,
    /// Most words in a name.
    longest: usize,
    /// Makers' names: words that open the names of two or more services ("Google Calendar", "Google
    /// Drive"; "Microsoft Teams", "Microsoft To Do").
    makers: HashSet<String>,
}

/// The table (parsed once; a malformed table fails the unit test that parses it).
pub(crate) fn services() -> &'static Services {
    static TABLE_PARSED: OnceLock<Services> = OnceLock::new();
    TABLE_PARSED.get_or_init(|| Services::parse(TABLE).expect("services.txt is checked by a test"))
}

/// A text's words as names are matched: apostrophes dropped, lowercase; `camel`: also split at capitals
/// as tool names are ("YouTube" → "you tube"), else at non-alphanumerics only ("youtube").
fn words_of(text: &str, camel: bool) -> Vec<String> {
    let apostrophe = |c: char| c == '\'' || c == '’';
    if camel {
        let text: String = text.chars().filter(|&c| !apostrophe(c)).collect();
        return split_name(&text).split_whitespace().map(str::to_string).collect();
    }
    text.split(|c: char| !(c.is_alphanumeric() || apostrophe(c)))
        .map(|w| w.chars().filter(|&c| !apostrophe(c)).flat_map(char::to_lowercase).collect::<String>())
        .filter(|w| !w.is_empty())
        .collect()
}

impl Services {
    /// Parses the table: `Name | other names`, `#` comments.
    fn parse(text: &str) -> Result<Services, String> {
        let mut s = Services {
            names: Vec::new(),
            aliases: HashMap::new(),
            first_words: HashSet::new(),
            longest: 0,
            makers: HashSet::new(),
        };
        let mut opened: HashMap<String, usize> = HashMap::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let id = s.names.len();
            let mut fields = line.split('|').map(str::trim);
            let name = fields.next().unwrap_or_default();
            s.names.push(name.to_string());
            if let [first, _, ..] = words_of(name, false).as_slice() {
                *opened.entry(first.clone()).or_default() += 1;
            }
            for alias in std::iter::once(name).chain(fields) {
                if alias.is_empty() {
                    return Err(format!("line {}: an empty name", n + 1));
                }
                // Both "YouTube" spellings: split at its capitals ("you tube"), and as typed ("youtube").
                for camel in [true, false] {
                    let words = words_of(alias, camel);
                    if words.is_empty() {
                        return Err(format!("line {}: {alias:?} has no words", n + 1));
                    }
                    let key = words.join(" ");
                    match s.aliases.insert(key.clone(), id) {
                        Some(other) if other != id => {
                            return Err(format!("line {}: {key:?} also names {}", n + 1, s.names[other]));
                        }
                        _ => {}
                    }
                    s.longest = s.longest.max(words.len());
                    s.first_words.insert(words[0].clone());
                }
            }
        }
        s.makers = opened.into_iter().filter(|&(_, n)| n >= 2).map(|(w, _)| w).collect();
        Ok(s)
    }

    /// Whether `word` (lowercase) is a maker's name: it opens the names of two or more services ("google",
    /// "microsoft"), so a server named with it is named by a brand, though the word alone is left out of the
    /// table.
    pub(crate) fn is_maker(&self, word: &str) -> bool {
        self.makers.contains(word)
    }

    /// How many services the table has.
    pub(crate) fn len(&self) -> usize {
        self.names.len()
    }

    /// A service's name as the table writes it.
    pub(crate) fn name(&self, service: Service) -> &str {
        &self.names[service]
    }

    /// Whether one word, as typed (`GitHub`, `youtube`), is a name of a service of the table.
    pub(crate) fn names_service(&self, word: &str) -> bool {
        [false, true].iter().any(|&camel| self.aliases.contains_key(&words_of(word, camel).join(" ")))
    }

    /// Calls `found` for every service `text` names (longest name first at each word; a service may be
    /// reported more than once).
    fn scan(&self, text: &str, camel: bool, found: &mut impl FnMut(Service, usize, usize)) {
        let words = words_of(text, camel);
        let mut i = 0;
        'words: while i < words.len() {
            if self.first_words.contains(&words[i]) {
                for len in (1..=self.longest.min(words.len() - i)).rev() {
                    if let Some(&service) = self.aliases.get(&words[i..i + len].join(" ")) {
                        found(service, i, len);
                        i += len;
                        continue 'words;
                    }
                }
            }
            i += 1;
        }
    }

    /// The services `text` names, in order of first mention, each once.
    pub(crate) fn named_in(&self, text: &str) -> Vec<Service> {
        let mut out = Vec::new();
        for camel in [false, true] {
            self.scan(text, camel, &mut |s, _, _| {
                if !out.contains(&s) {
                    out.push(s);
                }
            });
        }
        out
    }

    /// The services a request names as the place to act ("on Spotify", "to my instagram story", "from
    /// Domino's", "a Google Calendar meeting", "tweet …"), not as a topic ("the score for Microsoft Teams",
    /// "a memo about Costco"): after a preposition of place, a possessive or an article, or as the
    /// request's first word. Web addresses are skipped ("go to bestbuy.com" is a page to browse).
    pub(crate) fn acted_on_in(&self, request: &str) -> Vec<Service> {
        let kept: Vec<&str> = request
            .split_whitespace()
            .filter(|t| !(t.contains('/') || t.contains('@') || looks_like_domain(t)))
            .collect();
        let text = kept.join(" ");
        let plain = words_of(&text, false);
        let mut out = Vec::new();
        self.scan(&text, false, &mut |s, at, len| {
            // "spin up a redis container", "upgrade the stripe sdk": what runs or is installed, not where.
            if runs_after(&plain, at + len - 1) {
                return;
            }
            let before = |k: usize| at.checked_sub(k).map(|i| plain[i].as_str());
            // "on" after something written, to be made ("a … memo"), opens its topic: "a one-page memo on
            // Costco"; not "post the memo on Slack".
            let topic_at = |k: usize| {
                before(k) == Some("on")
                    && before(k + 1).is_some_and(|w| WRITTEN.contains(&w))
                    && (k + 2..k + 6)
                        .map_while(before)
                        .find(|w| ["a", "an", "the", "this", "that", "my", "our", "your"].contains(w))
                        .is_some_and(|w| w == "a" || w == "an")
            };
            let venue = |w: Option<&str>| w.is_some_and(|w| VENUE.contains(&w));
            let first = at == 0 && !kept.first().is_some_and(|t| t.ends_with(',') || t.ends_with(':'));
            // "show recent bitrise builds", "list my open jira tickets": which of the service's things,
            // right after the verb or a place word.
            let which = before(1).is_some_and(|w| WHICH.contains(&w)) && (at == 2 || venue(before(2)));
            if (first
                || which
                || (venue(before(1)) && !topic_at(1))
                || (venue(before(2))
                    && !topic_at(2)
                    && ["my", "our", "your", "the"].contains(&before(1).unwrap_or(""))))
                && !out.contains(&s)
            {
                out.push(s);
            }
        });
        out
    }
}

/// Things made of a service's software, which a service's name before them qualifies ("a redis
/// container", "the stripe sdk", "the postgres module"): the service is what they run or hold, not the
/// place a request acts. ("package" and "image" are left out: "track my FedEx package", "an Instagram
/// image" name the place.)
const ARTIFACTS: [&str; 12] = [
    "container",
    "containers",
    "library",
    "libraries",
    "module",
    "modules",
    "plugin",
    "plugins",
    "sdk",
    "sdks",
    "dependency",
    "dependencies",
];

/// What runs software in a cluster ("the grafana pod", "the prometheus chart"): a service named before one
/// is what runs there too, unless it is the cluster's own (`OWN_ARTIFACTS`: "the kubernetes pods", "a
/// helm chart").
const CLUSTER_ARTIFACTS: [&str; 4] = ["pod", "pods", "chart", "charts"];
const OWN_ARTIFACTS: [&str; 4] = ["kubernetes", "k8s", "kubectl", "helm"];

/// Does `next`, after the word `name` that ends a service's name, make the service what runs or is
/// installed somewhere rather than the place a request acts (`ARTIFACTS`, `CLUSTER_ARTIFACTS`)?
fn runs_in(name: &str, next: &str) -> bool {
    ARTIFACTS.contains(&next) || (CLUSTER_ARTIFACTS.contains(&next) && !OWN_ARTIFACTS.contains(&name))
}

/// Whether the service named by `words[end]` (the last word of its name) is what runs or is installed
/// somewhere (`runs_in`), with up to two words of a name between and no place word (`VENUE`): "a redis
/// container", "my redis-cache docker container"; not "in redis, list the keys of the image cache".
pub(crate) fn runs_after(words: &[String], end: usize) -> bool {
    words.get(end).is_some_and(|name| {
        words[end + 1..].iter().take(3).take_while(|w| !VENUE.contains(&w.as_str())).any(|next| runs_in(name, next))
    })
}

/// Words before a service's name that say which of its things a request means ("recent bitrise builds",
/// "my open jira tickets"): the things are the service's.
const WHICH: [&str; 9] = ["recent", "latest", "last", "newest", "current", "open", "active", "pending", "unread"];

/// Words after which a service is the place a request acts.
/// An article counts too: "schedule a Google Calendar meeting", "get me an uber" name the service of the
/// thing acted on.
const VENUE: [&str; 17] = [
    "on", "in", "to", "from", "into", "onto", "via", "using", "through", "at", "with", "my", "our", "your", "a", "an",
    "the",
];

/// What is written about something: "on" after one of these, when it is yet to be made ("a … memo"),
/// opens its topic, not a place ("a one-page investment memo on Costco"; not "post the memo on Slack").
const WRITTEN: [&str; 22] = [
    "memo",
    "memos",
    "report",
    "reports",
    "article",
    "articles",
    "essay",
    "paper",
    "papers",
    "summary",
    "research",
    "analysis",
    "review",
    "briefing",
    "brief",
    "overview",
    "presentation",
    "study",
    "explainer",
    "writeup",
    "guide",
    "tutorial",
];

/// `bestbuy.com`, `chat.openai.com`: a dot between letters.
fn looks_like_domain(token: &str) -> bool {
    let t = token.trim_end_matches(|c: char| !c.is_alphanumeric());
    t.split('.').count() >= 2 && t.split('.').all(|p| !p.is_empty() && p.chars().any(char::is_alphabetic))
}

/// Which services of the table a catalog mentions.
#[derive(Debug, Clone, Default)]
pub(crate) struct Mentioned(Vec<bool>);

impl Mentioned {
    /// Notes every service a catalog's prose names (descriptions, titles, names already split into words);
    /// every name of the table is listed in its as-typed form too, so one pass without splitting at
    /// capitals finds "YouTube" as well as "youtube" (the split pass, on every description of a 100K
    /// catalog, cost seconds at load).
    pub(crate) fn scan(&mut self, text: &str) {
        self.scan_with(text, &[false]);
    }

    /// Notes every service an identifier names (`DoorDashOrder`, `spotify_play`): split at capitals too.
    pub(crate) fn scan_name(&mut self, name: &str) {
        self.scan_with(name, &[false, true]);
    }

    fn scan_with(&mut self, text: &str, forms: &[bool]) {
        let table = services();
        if self.0.len() < table.len() {
            self.0.resize(table.len(), false);
        }
        for &camel in forms {
            table.scan(text, camel, &mut |s, _, _| self.0[s] = true);
        }
    }

    /// Does the catalog mention `service`?
    pub(crate) fn contains(&self, service: Service) -> bool {
        self.0.get(service).copied().unwrap_or(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(text: &str) -> Vec<&'static str> {
        let t = services();
        t.named_in(text).into_iter().map(|s| t.name(s)).collect()
    }

    #[test]
    fn the_table_parses() {
        let t = Services::parse(TABLE).expect("services.txt parses");
        assert!(t.len() > 300, "{}", t.len());
        assert!(Services::parse("A | b\nB | b").is_err(), "one name for two services is refused");
    }

    #[test]
    fn requests_name_services_however_they_are_written() {
        assert_eq!(names("play a song on Spotify"), ["Spotify"]);
        assert_eq!(names("schedule a Google Calendar meeting"), ["Google Calendar"]);
        assert_eq!(names("upload it to my youtube channel"), ["YouTube"]);
        assert_eq!(names("upload it to my YouTube channel"), ["YouTube"]);
        assert_eq!(names("order a pizza from Domino's"), ["Domino's"]);
        assert_eq!(names("book a room on booking.com"), ["Booking.com"]);
        assert_eq!(names("post it on LinkedIn and tweet it"), ["LinkedIn", "Twitter"]);
        // A service's package for another: both are named, so a catalog that has Helm serves the request.
        let mut both = names("install the prometheus helm chart in ns monitoring");
        both.sort_unstable();
        assert_eq!(both, ["Helm", "Prometheus"]);
        // Everyday words are not services.
        assert!(names("zoom in on the map and draw a box around the square").is_empty());
        assert!(names("send a message to the team on monday").is_empty());
    }

    #[test]
    fn a_request_acts_on_a_service_it_names_as_a_place_not_as_a_topic() {
        let acted = |text: &str| -> Vec<&'static str> {
            let t = services();
            t.acted_on_in(text).into_iter().map(|s| t.name(s)).collect()
        };
        assert_eq!(acted("play a song on Spotify"), ["Spotify"]);
        assert_eq!(acted("order a large pizza from Domino's"), ["Domino's"]);
        assert_eq!(acted("post this photo to my instagram story"), ["Instagram"]);
        assert_eq!(acted("track my FedEx package 7712"), ["FedEx"]);
        assert_eq!(acted("tweet 'we are live' from the company account"), ["Twitter"]);
        // A topic, a web address, an address of the request: not a place to act.
        assert_eq!(acted("schedule a Google Calendar meeting"), ["Google Calendar"]);
        assert!(acted("show me the score trend for Microsoft Teams").is_empty());
        assert!(acted("write me a one-page investment memo on Costco as a Word doc").is_empty());
        assert!(acted("draft an article on Spotify pricing tiers").is_empty());
        assert_eq!(acted("post the memo on Slack"), ["Slack"], "a memo posted on Slack: the place");
        assert!(acted("forward local port 8080 to the grafana pod").is_empty(), "Grafana runs in the pod");
        assert_eq!(acted("put grafana on the cluster as a helm chart"), ["Helm"], "a chart is Helm's own");
        assert!(acted("go to bestbuy.com and search for TVs").is_empty());
        assert!(acted("read https://learn.microsoft.com/en-us/azure/aks and summarise it").is_empty());
        assert!(acted("ChatGPT, is this link a phishing attempt?").is_empty());
        assert!(acted("spin up a redis container").is_empty(), "what the container runs");
        assert!(acted("my redis-cache docker container keeps restarting").is_empty(), "its name between");
        assert_eq!(acted("post the image on slack"), ["Slack"]);
        assert_eq!(acted("in redis, list the keys of the image cache"), ["Redis"], "a place word ends the name");
        assert_eq!(acted("show recent bitrise builds"), ["Bitrise"], "which of its things");
        assert_eq!(acted("list my open jira tickets"), ["Jira"]);
        assert!(acted("show the latest news about Spotify").is_empty(), "a topic");
        assert!(acted("upgrade the stripe sdk in my project").is_empty());
    }

    #[test]
    fn a_catalog_mentions_a_service_in_any_of_its_texts() {
        let mut m = Mentioned::default();
        m.scan("search_youtube_videos: Search videos");
        m.scan_name("DoorDashOrder");
        m.scan("Order from DoorDash or Uber Eats");
        let t = services();
        let id = |name: &str| (0..t.len()).find(|&s| t.name(s) == name).expect("listed");
        assert!(m.contains(id("YouTube")) && m.contains(id("DoorDash")) && m.contains(id("Uber")));
        assert!(!m.contains(id("Spotify")));
    }
}

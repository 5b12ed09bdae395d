//! Everyday questions written as the plain request a tool describes: "is it going to rain in Berlin
//! today" is also searched as "get the weather forecast (rain) in Berlin today", "what's bitcoin worth" as
//! "get the current price of bitcoin", and a few everyday phrasings about a file path the same way
//! ("rename notes.txt to old-notes.txt" as "move or rename a file"). A question names neither the action
//! nor the thing a tool's description names, so the model and BM25 both score the right tool low. The
//! rules are data (`questions.txt`: regular expressions and what they become). Pure code.

use regex::{Regex, RegexBuilder};
use std::sync::OnceLock;

const QUESTIONS: &str = include_str!("questions.txt");

/// One rule: what a question looks like, and what it is written as.
struct Rule {
    pattern: Regex,
    plain: String,
    /// Written `=>>`: the request is read as the plain form alone (`read_as`), not searched as typed too.
    replaces: bool,
}

/// The rules of `text` (as `questions.txt` is written), in order. Panics on a malformed rule: the table
/// is compiled into the binary and a test reads every rule.
fn parse(text: &str) -> Vec<Rule> {
    let mut macros: Vec<(String, String)> = Vec::new();
    let mut rules = Vec::new();
    // `{name}` of an earlier `@name` line, in a pattern or in a later `@` line.
    let expand = |text: &str, macros: &[(String, String)]| {
        macros.iter().fold(text.trim().to_string(), |p, (name, body)| p.replace(name, body))
    };
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        if let Some(def) = line.strip_prefix('@') {
            let (name, body) = def.split_once('=').expect("a macro line is `@name = alternatives`");
            let body = format!("(?:{})", expand(body, &macros));
            macros.push((format!("{{{}}}", name.trim()), body));
            continue;
        }
        let (pattern, plain, replaces) = match line.split_once(" =>> ") {
            Some((pattern, plain)) => (pattern, plain, true),
            None => {
                let (pattern, plain) = line.split_once(" => ").expect("a rule line is `PATTERN => PLAIN`");
                (pattern, plain, false)
            }
        };
        let pattern = expand(pattern, &macros);
        let pattern = case_insensitive(&pattern).unwrap_or_else(|e| panic!("questions.txt: {pattern}: {e}"));
        rules.push(Rule { pattern, plain: plain.trim().to_string(), replaces });
    }
    rules
}

/// `pattern` compiled to match whatever the letters' case, as every pattern here is.
fn case_insensitive(pattern: &str) -> Result<Regex, regex::Error> {
    RegexBuilder::new(pattern).case_insensitive(true).build()
}

fn rules() -> &'static [Rule] {
    static RULES: OnceLock<Vec<Rule>> = OnceLock::new();
    RULES.get_or_init(|| parse(QUESTIONS))
}

/// `query` with the first everyday question of `questions.txt` it asks written plainly, the rest as
/// written; `None` when it asks none.
pub(crate) fn plainly_asked(query: &str) -> Option<String> {
    rewritten(query, false)
}

/// The request read as a plain one when a rule written `=>>` matches it (a how-to question sent to a
/// service's documentation: "how do I write a python transformation in keboola, check their docs" is
/// `search their docs for "how to write a python transformation in keboola"`): the request as typed asks
/// nothing of the service, so it is not searched or judged as typed.
pub(crate) fn read_as(query: &str) -> Option<String> {
    rewritten(query, true)
}

fn rewritten(query: &str, replacing: bool) -> Option<String> {
    rules().iter().filter(|r| r.replaces == replacing).find_map(|r| {
        let c = r.pattern.captures(query).filter(asks_about_a_thing)?;
        let whole = c.get(0)?;
        let mut plain = query[..whole.start()].to_string();
        c.expand(&r.plain, &mut plain);
        plain.push_str(&query[whole.end()..]);
        Some(plain.split_whitespace().collect::<Vec<_>>().join(" "))
    })
}

/// Things a tool compares: a question about what differs between two of them asks for a diff ("what's
/// different between these two texts"), not for knowledge.
const COMPARED_BY_TOOLS: &[&str] = &[
    "text",
    "file",
    "version",
    "document",
    "doc",
    "string",
    "list",
    "draft",
    "config",
    "revision",
    "commit",
    "branch",
    "sheet",
    "spreadsheet",
    "image",
    "photo",
    "screenshot",
    "pdf",
    "dataset",
    "table",
    "schema",
    "folder",
    "directory",
    "record",
    "row",
    "snapshot",
    "build",
    "release",
    "output",
    "result",
];

/// Whether `query` asks what the difference between two things is, as a question of general knowledge the
/// agent answers itself ("what's the difference between a crocodile and an alligator", "how is a virus
/// different from a bacterium"), not about texts, files or versions a tool compares (`COMPARED_BY_TOOLS`).
pub(crate) fn asks_what_differs_in_general(query: &str) -> bool {
    static PATTERN: OnceLock<Regex> = OnceLock::new();
    let pattern = PATTERN.get_or_init(|| {
        case_insensitive(
            r"^\s*(?:(?:so|and|but|ok|okay|hey),?\s+)?(?:(?:what(?:'s|’s| is| are| was| were)|whats)\s+(?:the\s+)?(?:main\s+|key\s+|biggest\s+|real\s+|actual\s+)?differences?\s+between\s+(?P<a>.+)|how (?:is|are|does|do) (?P<b>.+?) (?:differ|different) from (?P<c>.+))$",
        )
        .expect("the pattern compiles")
    });
    // A second request after it ("how are bonds and stocks different and what ratio should I hold") asks
    // for more than the question.
    static MORE: OnceLock<Regex> = OnceLock::new();
    let more = MORE.get_or_init(|| {
        case_insensitive(
            r"[.?!;]\s+\S|\b(?:and|but|so|then|also)\s+(?:what|how|which|why|where|when|who|should|can|could|would|will|do|does|is|are|please|recommend|suggest|tell|show|give|find|help)\b",
        )
        .expect("the pattern compiles")
    });
    let Some(c) = pattern.captures(query).filter(|_| !more.is_match(query)) else { return false };
    let things: String =
        ["a", "b", "c"].iter().filter_map(|g| c.name(g)).map(|m| m.as_str()).collect::<Vec<_>>().join(" ");
    !toolscout_indexer::terms(&things)
        .iter()
        .any(|t| COMPARED_BY_TOOLS.iter().any(|w| toolscout_indexer::terms(w).first().is_some_and(|k| k == t)))
}

/// Words that stand for something said before: "what is *it* worth" asks about no thing of its own.
const PRONOUNS: &[&str] = &["it", "this", "that", "they", "them", "these", "those", "he", "she", "you", "i", "we"];

/// Words that make what follows someone's own: "what is *my* car worth" asks for no price a tool quotes.
const POSSESSIVES: &[&str] = &["my", "our", "your", "his", "her", "their"];

/// Whether a rule's match asks about a thing: its group `x`, when it has one, is not a pronoun and not
/// someone's own thing.
fn asks_about_a_thing(c: &regex::Captures<'_>) -> bool {
    c.name("x").is_none_or(|x| {
        let x = x.as_str().trim().to_lowercase();
        let first = x.split_whitespace().next().unwrap_or("");
        !PRONOUNS.contains(&x.as_str()) && !POSSESSIVES.contains(&first)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(query: &str, expected: Option<&str>) {
        assert_eq!(plainly_asked(query).as_deref(), expected, "{query}");
    }

    #[test]
    fn every_rule_compiles_and_is_tested() {
        // Each rule of the table is matched by at least one request of these tests.
        let asked = [
            "give the customer their money back",
            "how many yen is 50 pounds",
            "how much is one bitcoin in usd",
            "what is 20 usd in eur?",
            "$20 in euros please",
            "€5 to dollars",
            "£12 in yen",
            "send 0.1 ETH to vitalik.eth",
            "send $20 to Ann for the tickets",
            "what's bitcoin worth right now",
            "is it going to rain in Berlin today",
            "should I bring an umbrella to work in London tomorrow",
            "what's it like outside in Chicago",
            "how cold is it in Helsinki",
            "how far is it from Paris to Lyon by car",
            "how do I get to the airport from Shibuya",
            "how long does it take to drive from Lyon to Geneva?",
            "what's the fastest route to Dover",
            "what is the best way from Heathrow to King's Cross",
            "how much is a share of Microsoft",
            "is there a pharmacy near Alexanderplatz",
            "where can I get sushi near Times Square",
            "are there any trains from Beijing to Shanghai tomorrow",
            "how high up is our cabin outside Aspen?",
            "how many feet above sea level is Denver",
            "Which towns does it stop at on the way?",
            "who owns the IP 8.8.4.4?",
            "who owns stripe.com",
            "who owns AS15169",
            "when is the next LCK match",
            "which versions of com.google.guava:guava are published",
            "which modules can I enable on my Redis Cloud databases",
            "what's 17.5% of 2,340",
            "what's on my calendar tomorrow",
            "am I free at 3pm on Friday",
            "what tasks are due today in todoist",
            "what's overdue",
            "what's assigned to me in Linear",
            "how far did I run this week",
            "which workouts did I do in May",
            "what was said in #general today",
            "catch me up on what happened in #eng-alerts",
            "catch me up on #random",
            "who committed to main yesterday",
            "any open PRs on toolscout/toolscout?",
            "what pods are running in the staging namespace",
            "bump the web deployment to 5 replicas",
            "what are the opening hours of the Louvre",
            "what's the altitude of Mount Rainier",
            "look up the latest rust release notes online",
            "remember that Sam prefers tea over coffee",
            "what do you remember about Sam",
            "how big is ~/Downloads/video.mp4",
            "what does contract.pdf say about termination",
            "what does serendipity mean",
            "how do I say thank you in Japanese",
            "what files have I changed",
            "which files did I modify",
            "what changed in the last commit",
            "what's the commit history of this repo",
            "what's different between these two texts",
            "what's inside the Shared/Marketing folder in alfresco",
            "when was report.pdf last modified",
            "google the release date of Rust 2.0",
            "did anyone reply to my email about the contract",
            "is my replicate job done yet",
            "did the last CI run on main pass",
            "stop the running github actions build",
            "rename notes.txt to old-notes.txt",
            "show monthly active users over the year as a stacked area chart",
            "remove the password protection from contract.docx",
            "take the password off budget.xlsx",
            "strip the password from payroll.pdf",
            "whose move is it in our chess game",
            "have any Tesla executives sold shares recently",
            "what is Apple's gross margin and current ratio",
            "what's the P/E ratio of Nvidia",
            "open knowledge base article KB0010023 in servicenow",
            "what did I save earlier about the Berlin trip in my qdrant memory",
            "flip a coin for me",
            "roll two dice",
            "find a place to stay in Lisbon for 4 nights in June",
            "open the README in my project folder",
            "who was Ada Lovelace",
            "what's 15% tip on 84 dollars",
            "what's on the front page of hacker news",
            "does lodash 4.17.15 have any security problems",
            "push my Friday standup on the apple calendar to 10am",
            "pull the main text out of these three article URLs with tavily",
            "take the \"overtime\" item out of the solver model",
            "is the payments service healthy according to consul",
            "replace foo with bar in config.yaml",
            "what time is it in Tokyo right now",
            "what's the local time in Denver",
            "can you check what changed in my repo since the last commit",
            "what did I commit yesterday",
            "stage all my changes",
            "drop an instance of the Button component into my figma frame",
            "what's today's leetcode problem",
            "pick one of pizza, sushi or tacos for dinner",
            "find the email from my landlord about the lease",
            "what did we spend on AWS last month by service",
            "how do I write a python transformation in keboola, check their docs",
            "ask the keboola docs how to set up a snowflake writer",
            "when do I have a free hour next Tuesday afternoon",
            "move the outdated draft to the trash in alfresco",
            "shoot an email to jane@acme.com about the review",
            "push my latest Webflow edits live",
            "tick off \"renew passport\" in my TickTick list",
            "why can't john@corp.com sign in through Okta",
            "which Anki cards do I have to review today?",
            "what does Wayfound recommend we change in the system prompt?",
            "what does a postgres connection string need to look like?",
            "how high above sea level is the trailhead at 40.0150, -105.2705",
            "is the registration of kittenfluff.io about to run out",
            "when does kittenfluff.io expire",
            "can you find out who the registrant is for quietbrook.io",
            "slap a :tada: on Priya's release announcement in #launches",
            "grab a picture of how https://staging.myshop.dev looks right now",
            "can you lock their Okta account for now without deleting it",
            "temporarily lock jdoe@acme.com out of Okta",
            "stick message 4521 to the top of the chat",
            "put the nightly_sales_etl DAG in Airflow on hold",
            "bill Harbor Cafe in Xero for 12 hours of consulting",
            "how sensor.living_room_temperature changed over the last 24 hours",
            "put this product blurb into Brazilian Portuguese",
            "please put the password \"Acme#2025\" on it",
            "it must be password-locked first",
            "who's holding the pager for the payments-primary schedule right now?",
            "the e2e job flaked on run 9182736455, can you give it another go?",
            "boot @crypto_shill_42 out of the Hiking Buddies telegram group",
            "is NSE open for trading right now?",
            "bounce all the dynos on checkout-api-prod",
            "How many Norwegian kroner does one euro get you today?",
            "my container payments-worker keeps crashing, what has it been spitting out?",
            "my redis-cache container keeps restarting; pull up its latest output",
            "Put the Heroku app checkout-api into maintenance mode.",
            "take the storefront out of maintenance mode",
            "the 'Old data' tab is obsolete, the workbook shouldn't contain it anymore",
            "can you pull it back out of the trash and put it where it was?",
            "I want my reply \"Great write-up, thanks!\" to show up under Hacker News story 39012345.",
            "what street address is at 40.7484, -73.9857?",
            "What's on the Hacker News front page right now?",
            "We've planned a picnic in Lisbon this Saturday and I'm nervous it's going to rain on us.",
            "I honestly can't tell whose move it is.",
            "I do not have time to read the whole article. Just give me the short version.",
            "Eight of us are going to Austin in June and we still have nowhere to stay together.",
        ];
        let rules = rules();
        for (i, rule) in rules.iter().enumerate() {
            let first = asked.iter().find(|q| {
                rules.iter().position(|r| r.pattern.captures(q).is_some_and(|c| asks_about_a_thing(&c))) == Some(i)
            });
            assert!(first.is_some(), "rule {} ({}) is matched first by no test request", i + 1, rule.pattern);
        }
    }

    #[test]
    fn questions_are_written_as_plain_requests() {
        check(
            "what street address is at 40.7484, -73.9857?",
            Some("reverse geocode the coordinates 40.7484, -73.9857 to a street address?"),
        );
        check("what's at 48.8584 2.2945", Some("reverse geocode the coordinates 48.8584 2.2945 to a street address"));
        check("what is the address of the Louvre", None);
        check("I need a short PDF brief on the EU AI Act. Save it as /root/pdf/brief.pdf.", None);
        check(
            "I do not have time to read the whole article. Just give me the short version.",
            Some("I do not have time to read the whole article. Just summarize it: give me a summary."),
        );
        check(
            "We've planned a picnic in Lisbon this Saturday and I'm nervous it's going to rain on us.",
            Some("We've planned a picnic in Lisbon this Saturday and I'm get the weather forecast (rain) on us."),
        );
        check("it's going to rain tomorrow, so cancel the picnic", None);
        check(
            "I honestly can't tell whose move it is.",
            Some("I honestly can't tell get whose turn it is (the current turn)."),
        );
        check(
            "we still have nowhere to stay in Austin",
            Some("we still have search for accommodation listings (a place to stay) in Austin"),
        );
        check(
            "Is it possible to work out how much 0.5 BTC is worth in euros right now?",
            Some("Is it possible to work out convert currency: 0.5 BTC to euros at the exchange rate right now?"),
        );
        check(
            "What's on the Hacker News front page right now?",
            Some("get the top stories on the front page of Hacker News right now?"),
        );
        check(
            "which stations does G7 actually stop at between Beijing and Shanghai",
            Some(
                "get the stations (stops) on the train's route: which stations does it stop at between Beijing and Shanghai",
            ),
        );
        check("how many yen is 50 pounds", Some("convert currency: 50 pounds to yen at the exchange rate"));
        check(
            "How many Norwegian kroner was one euro worth on 2024-11-15?",
            Some("convert currency: one euro to Norwegian kroner at the exchange rate worth on 2024-11-15?"),
        );
        check(
            "move the draft with node id 4e2b to the trash",
            Some("delete the draft with node id 4e2b (move it to the trash)"),
        );
        check("Shoot an email to jane.doe@acme.com", Some("send email to jane.doe@acme.com"));
        check("Push my latest Webflow edits live on the site.", Some("publish my latest Webflow edits on the site."));
        check("Which Anki cards do I have to review today?", Some("list the Anki cards due (to review) today?"));

        check("Convert 100 USD to EUR", Some("convert currency: 100 USD to EUR at the exchange rate"));
        check(
            "how many dollars do I get for 300 swiss francs",
            Some("convert currency: 300 swiss francs to dollars at the exchange rate"),
        );
        check("how much is 250 GBP in JPY?", Some("convert currency: 250 GBP to JPY at the exchange rate?"));
        check("$20 in euros please", Some("convert currency: 20 dollars to euros at the exchange rate please"));
        check("send 0.1 ETH to vitalik.eth", Some("transfer 0.1 ETH to vitalik.eth"));
        check("wire 500 euros to my landlord", Some("transfer 500 euros to my landlord"));
        check("send $20 to Ann for the tickets", Some("transfer $20 to Ann for the tickets"));
        check("what's bitcoin worth right now", Some("get the current price of bitcoin right now"));
        check("What is Apple trading at?", Some("get the current price of Apple?"));
        check("is it going to rain in Berlin today", Some("get the weather forecast (rain) in Berlin today"));
        check("Will it snow tomorrow in Denver?", Some("get the weather forecast (snow) tomorrow in Denver?"));
        check("how far is it from Paris to Lyon by car", Some("get the travel distance from Paris to Lyon by car"));
        check("how do I get to the airport from Shibuya", Some("get directions to the airport from Shibuya"));
        check("who owns stripe.com", Some("look up the whois record of the domain stripe.com"));
        check(
            "Who owns the website name sunnysidebakery.com?",
            Some("look up the whois record of the domain sunnysidebakery.com?"),
        );
        check(
            "How high up is our cabin outside Aspen?",
            Some("get the elevation (altitude above sea level): how high is our cabin outside Aspen?"),
        );
        check(
            "what stations does the G7 stop at tomorrow",
            Some("get the stations (stops) on the train's route: which stations does it stop at tomorrow"),
        );
        check("who owns the IP 8.8.4.4?", Some("look up the whois record of the IP address 8.8.4.4?"));
        check("who owns AS 15169?", Some("look up the whois record of the autonomous system (AS number) AS15169?"));
        check("who registered openai.com", Some("look up the whois record of the domain openai.com"));
        check("when is the next LCK match?", Some("get the schedule of the upcoming LCK match"));
        check("when does the next train to Lyon leave", Some("get the schedule of the upcoming train to Lyon"));
        check(
            "which versions of com.google.guava:guava are published",
            Some("list the published versions of com.google.guava:guava"),
        );
        check("what versions of react are available", Some("list the published versions of react"));
        check(
            "which modules can I enable on my Redis Cloud databases",
            Some("list the available modules (to enable) on my Redis Cloud databases"),
        );
        check("what's 17.5% of 2,340?", Some("calculate the math expression 17.5% of 2,340"));
        check("what is 365 times 24", Some("calculate the math expression 365 times 24"));
        check(
            "what are the differences between the two versions of the contract",
            Some("compare the two versions: show the differences (diff) of the contract"),
        );
        check("what's on my calendar tomorrow", Some("list the events on my calendar tomorrow"));
        check("what tasks are due today in todoist", Some("list the tasks due today in todoist"));
        check("what's assigned to me in Linear?", Some("list the issues assigned to me in Linear?"));
        check("how far did I run this week?", Some("get my recent activities (run) this week?"));
        check("kill the stuck deploy job", Some("cancel the stuck deploy job"));
        check("is my replicate job done yet?", Some("get the status of my replicate job?"));
        check("did the last CI run on main pass", Some("get the status of the last CI run on main"));
        check("is the export of the sales table finished", Some("get the status of the export of the sales table"));
        check("catch me up on what happened in #eng-alerts", Some("get the message history in #eng-alerts"));
        check("any open PRs on toolscout/toolscout?", Some("list the open PRs on toolscout/toolscout?"));
        check("bump the web deployment to 5 replicas", Some("scale web deployment to 5 replicas"));
        check("what are the opening hours of the Louvre", Some("get the place details (opening hours) of the Louvre"));
        check("how big is ~/Downloads/video.mp4?", Some("get the file info (size) of ~/Downloads/video.mp4?"));
        check("what was said in #general today", Some("get the message history in #general today"));
        check("what does serendipity mean", Some("look up the definition of serendipity"));
        check("what changed in the last commit?", Some("show the changes made in the last commit (show the commit)?"));
        check("what's the commit history of this repo", Some("show the commit log (history) of this repo"));
        check(
            "what's inside the Shared/Marketing folder in alfresco",
            Some("list the contents of the Shared/Marketing folder in alfresco"),
        );
        check("what's in my Downloads directory?", Some("list the contents of my Downloads directory?"));
        check("how do I say thank you in Japanese", Some("translate thank you to Japanese"));
        check("rename ~/notes/todo.md to done.md please", Some("move or rename a file please"));
        check("google the release date of Rust 2.0", Some("search the web for the release date of Rust 2.0"));
        check(
            "when was report.pdf last modified?",
            Some("get the file info (modified and created times) of report.pdf?"),
        );
    }

    #[test]
    fn charts_passwords_turns_insiders_ratios_and_records_are_written_plainly() {
        check(
            "show monthly active users over the year as a stacked area chart",
            Some("generate a stacked area chart of monthly active users over the year"),
        );
        check("plot our stores on a map", Some("generate a map of our stores"));
        check(
            "remove the password protection from contract.docx",
            Some("unprotect (remove the password protection of) contract.docx"),
        );
        check("whose turn is it?", Some("get whose turn it is (the current turn)?"));
        check(
            "have any Tesla executives sold shares recently",
            Some("have any Tesla insider trades (executives selling or buying shares) recently"),
        );
        check(
            "what is Apple's gross margin and current ratio",
            Some("get the financial metrics and ratios of Apple: gross margin and current ratio"),
        );
        check("what's the P/E ratio of Nvidia", Some("get the financial metrics and ratios (P/E ratio) of Nvidia"));
        check(
            "open knowledge base article KB0010023 in servicenow",
            Some("show knowledge base article KB0010023 in servicenow"),
        );
        check("open PR 58 in octo/app", Some("show PR 58 in octo/app"));
        check("open the ticket #412", Some("show the ticket #412"));
    }

    #[test]
    fn saved_things_moved_events_things_taken_out_and_health_are_written_plainly() {
        check(
            "what did I save earlier about the Berlin trip in my qdrant memory",
            Some("search the stored notes and memories (what I saved) about the Berlin trip in my qdrant memory"),
        );
        check(
            "push my Friday standup on the apple calendar to 10am",
            Some("reschedule (update) my Friday standup on the apple calendar to 10am"),
        );
        check(
            "move the dentist appointment to next Thursday",
            Some("reschedule (update) the dentist appointment to next Thursday"),
        );
        check(
            "pull the main text out of these three article URLs",
            Some("extract the main text from these three article URLs"),
        );
        check("take the overtime item out of the solver model", Some("remove the overtime item from the solver model"));
        check(
            "is the payments service healthy according to consul",
            Some("check the health status of the payments service (healthy) according to consul"),
        );
        check("is our api down?", Some("check the health status of our api (down)?"));
    }

    #[test]
    fn chance_stays_files_people_tips_front_pages_and_security_are_written_plainly() {
        check("flip a coin for me", Some("pick a random choice (heads or tails) for me"));
        check(
            "pi_3Nx is the duplicate — give the customer their money back on that one in Stripe",
            Some("pi_3Nx is the duplicate — refund the payment (give the money back) on that one in Stripe"),
        );
        check("send them some money", None);
        check(
            "find a place to stay in Lisbon",
            Some("find accommodation listings (a place to stay: airbnb, hotel) in Lisbon"),
        );
        check("open the README in my project folder", Some("read the file README in my project folder"));
        check("open notes.md", Some("read the file notes.md"));
        check("who was Ada Lovelace?", Some("look up the biography (encyclopedia article) of Ada Lovelace"));
        check("what's 15% tip on 84 dollars", Some("calculate the math expression 15% of 84 dollars"));
        check("what's on the front page of hacker news", Some("get the top stories on the front page of hacker news"));
        check(
            "does lodash 4.17.15 have any security problems",
            Some("does lodash 4.17.15 have any security vulnerabilities"),
        );
    }

    #[test]
    fn times_commits_staging_drops_daily_things_spending_and_docs_are_written_plainly() {
        check("what time is it in Tokyo right now", Some("get the current time in Tokyo right now"));
        check("what's the local time in Denver", Some("get the current time in Denver"));
        check(
            "can you check what changed in my repo since the last commit",
            Some("can you check show the working tree status (git status) and what changed since the last commit"),
        );
        check("what did I commit yesterday", Some("show the commit log (history) of what was committed yesterday"));
        check("stage all my changes", Some("add the changed file contents to the git staging area"));
        check(
            "drop an instance of the Button component into my figma frame",
            Some("add an instance of the Button component into my figma frame"),
        );
        check("what's today's leetcode problem", Some("what's the daily leetcode problem (today's problem)"));
        check(
            "what did we spend on AWS last month by service",
            Some("get the costs (spending) on AWS last month by service"),
        );
        check("how much have I spent on openai this month", Some("get the costs (spending) on openai this month"));
        check("spend 50 dollars on ads", None);
        check(
            "pick one of pizza, sushi or tacos for dinner",
            Some("pick a random choice from pizza, sushi or tacos for dinner"),
        );
        check("pick a plan for my team", None);
        check(
            "find the email from my landlord about the lease",
            Some("search the email messages from my landlord about the lease"),
        );
        check("find the email address of our landlord", None);
        let read_as_docs = |query: &str, expected: Option<&str>| {
            assert_eq!(read_as(query).as_deref(), expected, "{query}");
            assert_eq!(plainly_asked(query), None, "{query}: read as the plain form alone");
        };
        read_as_docs(
            "how do I write a python transformation in keboola, check their docs",
            Some("search their docs for \"how to write a python transformation in keboola\""),
        );
        read_as_docs(
            "ask the keboola docs how to set up a snowflake writer",
            Some(
                "search the keboola docs (answer a question from the documentation): \"how to set up a snowflake writer\"",
            ),
        );
        read_as_docs("how do I write a python transformation in keboola", None);
        read_as_docs(
            "What does Wayfound recommend we change in the prompt of our agent?",
            Some("get the recommendations (suggestions) of Wayfound: \"we change in the prompt of our agent\"?"),
        );
        read_as_docs(
            "Put the Heroku app checkout-api into maintenance mode.",
            Some("turn on maintenance mode for the Heroku app checkout-api."),
        );
        assert_eq!(
            read_as("take the storefront out of maintenance mode").as_deref(),
            Some("turn off maintenance mode for the storefront"),
            "read before the `=>` rule of taking a thing out of another"
        );
        read_as_docs("put the report in the shared folder", None);
        read_as_docs(
            "the 'Old data' tab is obsolete, the workbook shouldn't contain it anymore",
            Some("the 'Old data' tab is obsolete, the workbook and remove it from it"),
        );
        read_as_docs(
            "I want my reply \"Great write-up, thanks!\" to show up under Hacker News story 39012345.",
            Some("post my reply \"Great write-up, thanks!\" under Hacker News story 39012345."),
        );
        read_as_docs("the list should contain three items", None);
        assert_eq!(
            read_as("can you pull it back out of the trash and put it where it was?").as_deref(),
            Some("can you restore it from the trash?"),
            "read before the `=>` rule of pulling a thing out of another"
        );
        assert_eq!(read_as("what time is it in Tokyo right now"), None, "a rule written `=>` adds a pass");
        // A stage that is not git's, a table dropped, a time converted: left alone.
        check("stage a reading of the play", None);
        check("drop the users table in the staging database", None);
        check("convert 3pm New York time to Berlin time", None);
        check("if it's 3pm in tokyo what time is it in berlin", None);
    }

    #[test]
    fn a_question_of_what_differs_in_general_is_told_from_a_diff() {
        assert!(asks_what_differs_in_general("what's the difference between a crocodile and an alligator"));
        assert!(asks_what_differs_in_general(
            "What are the differences between plant-based and animal-based protein sources?"
        ));
        assert!(asks_what_differs_in_general("how is a virus different from a bacterium?"));
        assert!(!asks_what_differs_in_general("what's different between these two texts"));
        assert!(!asks_what_differs_in_general("what are the differences between the two versions of the contract"));
        assert!(!asks_what_differs_in_general("how does config_old.txt differ from config_new.txt"));
        assert!(!asks_what_differs_in_general("show me the difference between a crocodile and an alligator"));
        assert!(!asks_what_differs_in_general(
            "How are bonds and stocks different and what ratio should these two occupy in my portfolio?"
        ));
        assert!(!asks_what_differs_in_general(
            "What's the difference between a Roth IRA and a 401k? Which one should I open with my broker?"
        ));
    }

    #[test]
    fn other_requests_are_left_alone() {
        check("convert 5 pounds to kg", None);
        check("move the meeting to the 3pm slot", None);
        check("is our SonarQube server still alive?", Some("check the health status of our SonarQube server (alive)?"));
        check(
            "is our meilisearch instance at search.internal:7700 still alive?",
            Some("check the health status of our meilisearch instance (alive)?"),
        );
        check(
            "why can't maria@corp.com get into anything",
            Some("get the login failures (why sign-ins failed) of maria@corp.com anything"),
        );
        check(
            "when am I open for an hour next Tuesday?",
            Some("when check my calendar for free or busy times for an hour next Tuesday?"),
        );
        check("is the store open on sunday", None);
        check("Who's behind AS13335?", Some("look up the whois record of the autonomous system (AS number) AS13335?"));
        check(
            "Have any Nvidia executives been dumping NVDA shares lately?",
            Some("Have any Nvidia insider trades (executives selling or buying shares) lately?"),
        );
        check(
            "Bump the checkout-api deployment in the shop namespace up to 6 replicas.",
            Some("scale checkout-api deployment in the shop namespace to 6 replicas."),
        );
        check("what has been going on in the channel", None);
        check("show me the output of the last query", None);
        check("give me another example", None);
        check("who actually owns kittenfluff.io", Some("look up the whois record of the domain kittenfluff.io"));
        check(
            "when does quietbrook.io expire?",
            Some("look up the whois record (registration) of the domain quietbrook.io?"),
        );
        check(
            "have any NVDA execs been quietly unloading their shares lately?",
            Some("have any NVDA insider trades (executives selling or buying shares) lately?"),
        );
        check(
            "find me a place to crash in Lisbon",
            Some("find me accommodation listings (a place to stay: airbnb, hotel) in Lisbon"),
        );
        check("lock the conversation on issue 7", None);
        check("unlock the frozen account", None);
        check("put the files into the shared folder", None);
        check("open this password-protected pdf", None);
        check("bill me later", None);
        check("add a :tada: emoji to the README", None);
        check(
            "what should a valid cron expression look like",
            Some("show an example of a valid cron expression (its format)"),
        );
        check("what does my profile look like to others", None);
        check("why can't I see the file", None);
        check("make sure the site goes live on Friday", None);
        check("what do you think about this design", None);
        check("how many kilograms is 50 pounds", None);
        check("how do I get a refund for my order", None);
        check("is it possible to export my notes", None);
        check("who owns this repository", None);
        check("what is the weather in Paris", None);
        check("what is it worth to you", None);
        check("how much is my car worth", None);
        check("where can I find the logs in kubernetes", None);
        check("send an email to Bob", None);
        check("What is the best way to reduce CO2 emissions?", None);
        check("google calendar: add lunch with Ann on Friday", None);
        check("rename the channel to general", None);
        check("replace the battery with a new one in my car", None);
        check("when was the Eiffel Tower built", None);
        check("what's the difference between a crocodile and an alligator", None);
        check("who owns 40 percent of the shares", None);
        check("what invoices are overdue in xero", None);
        check("what did I run in the terminal yesterday", None);
        check("stop the running container web-1", None);
        check("any ideas for dinner?", None);
        check("send 3 photos to Ann", None);
        check("is dinner ready yet", None);
        check("did you pass the salt", None);
        check("what changed in the commit message guidelines", None);
        check("what's in a name", None);
        check("What tools can I use to write clear product documentation?", None);
        check("what's 20 usd in eur", Some("convert currency: 20 usd to eur at the exchange rate"));
        check("what is 3 of the 5 steps about", None);
        check("remember to buy milk tomorrow", None);
        check("which users are blocked in the workspace", None);
        check("set the timer to 5 minutes", None);
        check("find me a job online", None);
        check("rewrite this so it hedges: It's going to rain tomorrow.", None);
        check("open a new PR for the fix", None);
        check("open port 8080 on the firewall", None);
        check("show me the chart", None);
        check("remove the password from the shared vault", None);
        check("what's the margin on this product", None);
        check("push the feature branch to main", None);
        check("is hikaru online on chess.com", None);
        check("what did I save you from", None);
        check("open https://example.com in the browser", None);
        check("who was assigned the ticket yesterday", None);
    }
}

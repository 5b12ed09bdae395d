//! Compound nouns whose parts name other things (`compounds.txt`): which of them a text uses, as a bit set.
//! The guard reads them: a tool whose name uses a part of a compound a request asks about, and never the
//! whole, serves another thing ("what's my heart rate" → `exchange_rate`). Pure code, no I/O.

use std::sync::OnceLock;

use toolscout_indexer::terms;

const TABLE: &str = include_str!("compounds.txt");

/// One compound: the stems of its modifier and head, and of both written as one word.
pub(crate) struct Compound {
    pub modifier: String,
    pub head: String,
    joined: String,
}

/// The built-in table (at most 64 compounds: a text's set is a `u64`).
pub(crate) fn compounds() -> &'static [Compound] {
    static LIST: OnceLock<Vec<Compound>> = OnceLock::new();
    LIST.get_or_init(|| {
        let list: Vec<Compound> = TABLE
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(|line| {
                let (modifier, head) = line.split_once(' ').expect("compounds.txt: `modifier head`");
                let stem = |w: &str| terms(w).into_iter().next().expect("compounds.txt: a word the analyzer keeps");
                Compound { modifier: stem(modifier), head: stem(head), joined: stem(&format!("{modifier}{head}")) }
            })
            .collect();
        assert!(list.len() <= 64, "compounds.txt: at most 64 compounds");
        list
    })
}

/// The compounds `text` uses: bit `k` for the `k`-th of `compounds()`.
pub(crate) fn in_text(text: &str) -> u64 {
    // Most texts hold no modifier at all: they are not analyzed (a profile reads every tool's text).
    let lower = text.to_lowercase();
    if !compounds().iter().any(|c| lower.contains(&c.modifier)) {
        return 0;
    }
    let words = terms(text);
    let mut set = 0u64;
    for (k, c) in compounds().iter().enumerate() {
        let adjacent = words.windows(2).any(|w| w[0] == c.modifier && w[1] == c.head);
        if adjacent || words.contains(&c.joined) {
            set |= 1 << k;
        }
    }
    set
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(text: &str) -> Vec<String> {
        let set = in_text(text);
        compounds()
            .iter()
            .enumerate()
            .filter(|(k, _)| set & (1 << k) != 0)
            .map(|(_, c)| format!("{} {}", c.modifier, c.head))
            .collect()
    }

    #[test]
    fn the_table_loads_and_compounds_are_found_in_any_form() {
        assert!(compounds().len() >= 10);
        assert_eq!(named("what's my credit score"), named("check my credit scores"));
        assert_eq!(named("what's my heart rate"), named("get_heartrate"));
        assert_eq!(named("Heart-Rate zones of an athlete").len(), 1);
        assert_eq!(named("file my 2024 tax return").len(), 1);
    }

    #[test]
    fn parts_alone_are_no_compound() {
        assert_eq!(in_text("list-credit-notes"), 0);
        assert_eq!(in_text("get-advanced-box-score"), 0);
        assert_eq!(in_text("exchange_rate: Retrieves exchange rates"), 0);
        assert_eq!(in_text("the rate of my heart"), 0);
    }
}

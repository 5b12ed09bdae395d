//! Terms: the lowercased, English-stemmed words of a text, exactly as the BM25 index analyses them, so
//! lexical features computed outside tantivy agree with it. Pure code, no I/O.

use std::cell::RefCell;

use tantivy::tokenizer::{Language, LowerCaser, RemoveLongFilter, SimpleTokenizer, Stemmer, TextAnalyzer};

/// The analyzer BM25 fields use (`en_stem`): simple tokenizer, long tokens dropped, lowercase, stemmed.
pub(crate) fn analyzer() -> TextAnalyzer {
    TextAnalyzer::builder(SimpleTokenizer::default())
        .filter(RemoveLongFilter::limit(40))
        .filter(LowerCaser)
        .filter(Stemmer::new(Language::English))
        .build()
}

/// The terms of `text`, in order, repeats kept.
pub fn terms(text: &str) -> Vec<String> {
    thread_local! {
        static ANALYZER: RefCell<TextAnalyzer> = RefCell::new(analyzer());
    }
    ANALYZER.with(|a| {
        let mut a = a.borrow_mut();
        let mut stream = a.token_stream(text);
        let mut out = Vec::new();
        while stream.advance() {
            out.push(stream.token().text.clone());
        }
        out
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stems_and_lowercases_like_the_index() {
        assert_eq!(terms("Sending Emails to Users"), ["send", "email", "to", "user"]);
        assert_eq!(terms(""), Vec::<String>::new());
    }
}

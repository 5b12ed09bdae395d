//! BM25 over server or tool documents with tantivy (k1 = 1.2, b = 0.75).
//!
//! Each document has a `name` field (identifier words and title, boosted) and a `body` field, both with
//! tantivy's English stemming analyzer. Queries are not parsed as query syntax: the user's text is run
//! through the same analyzer and its terms are OR-ed, so `foo: "(` or `AND` are just words.

use std::collections::HashSet;
use std::path::Path;

use tantivy::collector::TopDocs;
use tantivy::columnar::Column;
use tantivy::query::{BooleanQuery, BoostQuery, Occur, Query, TermQuery};
use tantivy::schema::{FAST, Field, INDEXED, IndexRecordOption, STORED, Schema, TextFieldIndexing, TextOptions};
use tantivy::{Index, IndexReader, ReloadPolicy, Term, doc};

use crate::Result;

/// Boost of the `name` field against `body`.
const NAME_BOOST: f32 = 2.0;
/// Most distinct query terms used (a pasted essay should not cost a thousand term lookups).
const MAX_TERMS: usize = 64;

/// One BM25 result.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bm25Hit {
    /// The document id given at build time.
    pub id: u32,
    /// Raw BM25 score (unbounded, query-dependent).
    pub score: f32,
}

/// An open BM25 index.
pub struct Bm25 {
    index: Index,
    reader: IndexReader,
    name: Field,
    body: Field,
    ids: Vec<Column<u64>>,
}

impl std::fmt::Debug for Bm25 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Bm25").field("docs", &self.reader.searcher().num_docs()).finish()
    }
}

fn schema() -> (Schema, Field, Field, Field) {
    let mut builder = Schema::builder();
    let id = builder.add_u64_field("id", INDEXED | STORED | FAST);
    let text = TextOptions::default().set_indexing_options(
        TextFieldIndexing::default()
            .set_tokenizer("en_stem")
            .set_index_option(IndexRecordOption::WithFreqsAndPositions),
    );
    let name = builder.add_text_field("name", text.clone());
    let body = builder.add_text_field("body", text);
    (builder.build(), id, name, body)
}

impl Bm25 {
    /// Writes a new index into the empty folder `dir` from `(id, name, body)` documents.
    pub fn build<'a>(dir: &Path, docs: impl IntoIterator<Item = (u32, &'a str, &'a str)>) -> Result<()> {
        let (schema, id, name, body) = schema();
        let index = Index::create_in_dir(dir, schema)?;
        let mut writer = index.writer_with_num_threads::<tantivy::TantivyDocument>(1, 50_000_000)?;
        for (doc_id, doc_name, doc_body) in docs {
            writer.add_document(doc!(id => u64::from(doc_id), name => doc_name, body => doc_body))?;
        }
        writer.commit()?;
        writer.wait_merging_threads()?;
        Ok(())
    }

    /// Opens an index written by [`Bm25::build`].
    pub fn open(dir: &Path) -> Result<Bm25> {
        let index = Index::open_in_dir(dir)?;
        let (_, _, name, body) = schema();
        let reader = index.reader_builder().reload_policy(ReloadPolicy::Manual).try_into()?;
        let searcher = reader.searcher();
        let ids =
            searcher.segment_readers().iter().map(|s| s.fast_fields().u64("id")).collect::<tantivy::Result<_>>()?;
        Ok(Bm25 { index, reader, name, body, ids })
    }

    /// The query's distinct analyzed terms (lowercased, stemmed), in order.
    pub fn terms(&self, query: &str) -> Result<Vec<String>> {
        let mut analyzer = self.index.tokenizer_for_field(self.body)?;
        let mut stream = analyzer.token_stream(query);
        let mut seen = HashSet::new();
        let mut terms = Vec::new();
        while stream.advance() {
            let t = stream.token().text.clone();
            if seen.insert(t.clone()) {
                terms.push(t);
            }
            if terms.len() >= MAX_TERMS {
                break;
            }
        }
        Ok(terms)
    }

    /// The `k` best documents for `query`.
    pub fn search(&self, query: &str, k: usize) -> Result<Vec<Bm25Hit>> {
        let terms = self.terms(query)?;
        if terms.is_empty() || k == 0 {
            return Ok(Vec::new());
        }
        let mut clauses: Vec<(Occur, Box<dyn Query>)> = Vec::new();
        for t in &terms {
            let on = |f: Field| TermQuery::new(Term::from_field_text(f, t), IndexRecordOption::WithFreqs);
            clauses.push((Occur::Should, Box::new(BoostQuery::new(Box::new(on(self.name)), NAME_BOOST))));
            clauses.push((Occur::Should, Box::new(on(self.body))));
        }
        let query = BooleanQuery::new(clauses);
        let searcher = self.reader.searcher();
        let top = searcher.search(&query, &TopDocs::with_limit(k).order_by_score())?;
        Ok(top
            .into_iter()
            .filter_map(|(score, addr)| {
                let id = self.ids.get(addr.segment_ord as usize)?.first(addr.doc_id)?;
                Some(Bm25Hit { id: id as u32, score })
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_by_terms_with_stemming_and_ignores_query_syntax() {
        let dir = tempfile::tempdir().expect("tempdir");
        let docs = [
            (7, "send email", "Send an email message to a recipient"),
            (8, "create issue", "Open a new issue in a repository"),
            (9, "get weather", "Current weather forecast for a city"),
        ];
        Bm25::build(dir.path(), docs.iter().map(|(i, n, b)| (*i, *n, *b))).expect("build");
        let bm25 = Bm25::open(dir.path()).expect("open");
        let hits = bm25.search("sending emails", 3).expect("search");
        assert_eq!(hits[0].id, 7);
        assert_eq!(hits.len(), 1);
        let hits = bm25.search("body:weather AND (", 3).expect("syntax is just words");
        assert_eq!(hits[0].id, 9);
        assert!(bm25.search("", 3).expect("empty").is_empty());
        assert!(bm25.search("zzzz", 3).expect("no match").is_empty());
    }
}

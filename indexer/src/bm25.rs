//! BM25 over server or tool documents with tantivy (k1 = 1.2, b = 0.75), field-weighted.
//!
//! Each document has four text fields (`name`, `description`, `params`, `context`: see `text.rs`), each
//! with tantivy's English stemming analyzer and its own boost, so a query word in a tool's name counts
//! more than the same word in a parameter description. Queries are not parsed as query syntax: the
//! user's text is run through the same analyzer and its terms are OR-ed, so `foo: "(` or `AND` are just
//! words. Words every catalog is full of (`mcp`, `server`, `api`, `tool`) are dropped from a query that
//! has other words.

use std::collections::HashSet;
use std::path::Path;

use tantivy::collector::TopDocs;
use tantivy::columnar::Column;
use tantivy::query::{BooleanQuery, BoostQuery, Occur, Query, TermQuery};
use tantivy::schema::{FAST, Field, INDEXED, IndexRecordOption, STORED, Schema, TextFieldIndexing, TextOptions};
use tantivy::{Index, IndexReader, ReloadPolicy, Term, doc};

use crate::Result;

/// The fields, and each one's boost against `description`.
const FIELDS: [(&str, f32); 4] = [("name", 2.5), ("description", 1.0), ("params", 0.5), ("context", 0.6)];
/// Query words that say nothing about a capability in a catalog of MCP tools (stemmed).
const NOISE: [&str; 6] = ["mcp", "server", "api", "tool", "servic", "function"];
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
    fields: [Field; 4],
    ids: Vec<Column<u64>>,
}

impl std::fmt::Debug for Bm25 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Bm25").field("docs", &self.reader.searcher().num_docs()).finish()
    }
}

fn schema() -> (Schema, Field, [Field; 4]) {
    let mut builder = Schema::builder();
    let id = builder.add_u64_field("id", INDEXED | STORED | FAST);
    let text = TextOptions::default().set_indexing_options(
        TextFieldIndexing::default()
            .set_tokenizer("en_stem")
            .set_index_option(IndexRecordOption::WithFreqsAndPositions),
    );
    let fields = FIELDS.map(|(name, _)| builder.add_text_field(name, text.clone()));
    (builder.build(), id, fields)
}

impl Bm25 {
    /// Writes a new index into the empty folder `dir` from `(id, [name, description, params, context])`
    /// documents.
    pub fn build<'a>(dir: &Path, docs: impl IntoIterator<Item = (u32, [&'a str; 4])>) -> Result<()> {
        let (schema, id, fields) = schema();
        let index = Index::create_in_dir(dir, schema)?;
        let mut writer = index.writer_with_num_threads::<tantivy::TantivyDocument>(1, 50_000_000)?;
        for (doc_id, texts) in docs {
            let mut document = doc!(id => u64::from(doc_id));
            for (field, text) in fields.iter().zip(texts) {
                document.add_text(*field, text);
            }
            writer.add_document(document)?;
        }
        writer.commit()?;
        writer.wait_merging_threads()?;
        Ok(())
    }

    /// Opens an index written by [`Bm25::build`].
    pub fn open(dir: &Path) -> Result<Bm25> {
        let index = Index::open_in_dir(dir)?;
        let (_, _, fields) = schema();
        let reader = index.reader_builder().reload_policy(ReloadPolicy::Manual).try_into()?;
        let searcher = reader.searcher();
        let ids =
            searcher.segment_readers().iter().map(|s| s.fast_fields().u64("id")).collect::<tantivy::Result<_>>()?;
        Ok(Bm25 { index, reader, fields, ids })
    }

    /// The query's distinct analyzed terms (lowercased, stemmed), in order.
    pub fn terms(&self, query: &str) -> Result<Vec<String>> {
        let mut analyzer = self.index.tokenizer_for_field(self.fields[1])?;
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
        let mut terms = self.terms(query)?;
        if terms.iter().any(|t| !NOISE.contains(&t.as_str())) {
            terms.retain(|t| !NOISE.contains(&t.as_str()));
        }
        if terms.is_empty() || k == 0 {
            return Ok(Vec::new());
        }
        let mut clauses: Vec<(Occur, Box<dyn Query>)> = Vec::new();
        for t in &terms {
            for (field, (_, boost)) in self.fields.iter().zip(FIELDS) {
                let q = TermQuery::new(Term::from_field_text(*field, t), IndexRecordOption::WithFreqs);
                clauses.push((Occur::Should, Box::new(BoostQuery::new(Box::new(q), boost))));
            }
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
            (7, ["send email", "Send an email message to a recipient", "to: address", "mail server"]),
            (8, ["create issue", "Open a new issue in a repository", "title", "github"]),
            (9, ["get weather", "Current weather forecast for a city", "city", "weather api"]),
        ];
        Bm25::build(dir.path(), docs).expect("build");
        let bm25 = Bm25::open(dir.path()).expect("open");
        let hits = bm25.search("sending emails", 3).expect("search");
        assert_eq!(hits[0].id, 7);
        assert_eq!(hits.len(), 1);
        let hits = bm25.search("body:weather AND (", 3).expect("syntax is just words");
        assert_eq!(hits[0].id, 9);
        assert!(bm25.search("", 3).expect("empty").is_empty());
        assert!(bm25.search("zzzz", 3).expect("no match").is_empty());
        // A name match outranks the same word further down; noise words are ignored beside real ones.
        let hits = bm25.search("issue mcp server", 3).expect("search");
        assert_eq!(hits.iter().map(|h| h.id).collect::<Vec<_>>(), [8]);
    }
}

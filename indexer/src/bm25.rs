//! BM25 over server or tool documents with tantivy (k1 = 1.2, b = 0.75), field-weighted.
//!
//! Each document has four text fields (`name`, `description`, `params`, `context`: see `text.rs`), each
//! with tantivy's English stemming analyzer and its own boost, so a query word in a tool's name counts
//! more than the same word in a parameter description. Queries are not parsed as query syntax: the
//! user's text is run through the same analyzer and its terms are OR-ed, so `foo: "(` or `AND` are just
//! words. Words every catalog is full of (`mcp`, `server`, `api`, `tool`) are dropped from a query that
//! has other words. English function words (Lucene's stop list, as tantivy ships it: `the`, `to`, `and`,
//! …) still score, but only documents that match one of the query's other words: a document is never
//! found by its function words alone, so their posting lists — each runs through most of the catalog —
//! are only sought into at the documents the other words found (at 100K tools they made a long request's
//! BM25 pass 10–35 ms; BENCHMARKS.md "Function words score, but find nothing"). Every document that
//! matches another word keeps the score it had.

use std::collections::HashSet;
use std::path::Path;

use tantivy::collector::TopDocs;
use tantivy::columnar::Column;
use tantivy::query::{BooleanQuery, BoostQuery, Occur, Query, TermQuery};
use tantivy::schema::{FAST, Field, INDEXED, IndexRecordOption, STORED, Schema, TextFieldIndexing, TextOptions};
use tantivy::tokenizer::{
    Language, LowerCaser, RemoveLongFilter, SimpleTokenizer, Stemmer, StopWordFilter, TextAnalyzer,
};
use tantivy::{Index, IndexReader, ReloadPolicy, Term, doc};

use crate::Result;

/// The fields, and each one's boost against `description`.
const FIELDS: [(&str, f32); 4] = [("name", 2.5), ("description", 1.0), ("params", 0.5), ("context", 0.6)];
/// Query words that say nothing about a capability in a catalog of MCP tools (stemmed).
const NOISE: [&str; 6] = ["mcp", "server", "api", "tool", "servic", "function"];
/// Largest share of deleted documents [`Bm25::update`] leaves in an index (past it, build again).
pub(crate) const MOST_DELETED: f64 = 0.05;
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

/// Document `doc_id` with its four texts.
fn document(id: Field, fields: &[Field; 4], doc_id: u32, texts: [&str; 4]) -> tantivy::TantivyDocument {
    let mut document = doc!(id => u64::from(doc_id));
    for (field, text) in fields.iter().zip(texts) {
        document.add_text(*field, text);
    }
    document
}

/// The documents' analyzer (tantivy's `en_stem`: simple tokenizer, long tokens removed, lowercased,
/// English stemmer) with English function words removed before stemming.
fn query_analyzer() -> TextAnalyzer {
    TextAnalyzer::builder(SimpleTokenizer::default())
        .filter(RemoveLongFilter::limit(40))
        .filter(LowerCaser)
        .filter(StopWordFilter::new(Language::English).expect("tantivy ships an English stop list"))
        .filter(Stemmer::new(Language::English))
        .build()
}

impl Bm25 {
    /// Writes a new index into the empty folder `dir` from `(id, [name, description, params, context])`
    /// documents.
    pub fn build<'a>(dir: &Path, docs: impl IntoIterator<Item = (u32, [&'a str; 4])>) -> Result<()> {
        let (schema, id, fields) = schema();
        let index = Index::create_in_dir(dir, schema)?;
        let mut writer = index.writer_with_num_threads::<tantivy::TantivyDocument>(1, 50_000_000)?;
        for (doc_id, texts) in docs {
            writer.add_document(document(id, &fields, doc_id, texts))?;
        }
        writer.commit()?;
        writer.wait_merging_threads()?;
        Ok(())
    }

    /// Writes into the empty folder `dir` the index in `from` with the documents `changed` written again
    /// (each one's old version deleted by its id, the new one added), for an update that leaves every
    /// other document as it was. `from`'s files are linked, not copied (tantivy never writes into a file
    /// it has committed; lock files are not linked), so only the changed documents cost anything. Returns
    /// `false`, writing nothing, when deleted documents would then pass [`MOST_DELETED`] of the index:
    /// BM25's statistics count a deleted document until its segment is merged, so the caller builds the
    /// index again instead (which also compacts it).
    pub fn update(from: &Path, dir: &Path, changed: &[(u32, [&str; 4])]) -> Result<bool> {
        let old = Bm25::open(from)?;
        let searcher = old.reader.searcher();
        let deleted: u64 = searcher.segment_readers().iter().map(|r| u64::from(r.num_deleted_docs())).sum();
        let docs = searcher.num_docs().max(1);
        if (deleted + changed.len() as u64) as f64 > MOST_DELETED * docs as f64 {
            return Ok(false);
        }
        drop((searcher, old));
        for entry in std::fs::read_dir(from).map_err(|e| crate::Error::io("reading", from, e))? {
            let entry = entry.map_err(|e| crate::Error::io("reading", from, e))?;
            let name = entry.file_name();
            if name.to_string_lossy().ends_with(".lock") || !entry.path().is_file() {
                continue;
            }
            crate::atomic::link_or_copy(&entry.path(), &dir.join(&name))?;
        }
        let (_, id, fields) = schema();
        let index = Index::open_in_dir(dir)?;
        let mut writer = index.writer_with_num_threads::<tantivy::TantivyDocument>(1, 15_000_000)?;
        for &(doc_id, texts) in changed {
            writer.delete_term(Term::from_field_u64(id, u64::from(doc_id)));
            writer.add_document(document(id, &fields, doc_id, texts))?;
        }
        writer.commit()?;
        writer.wait_merging_threads()?;
        Ok(true)
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

    /// The query's distinct analyzed terms (lowercased, stemmed, as the documents were), in order; with
    /// `keep_stop_words` false, English function words are left out.
    pub fn terms(&self, query: &str, keep_stop_words: bool) -> Result<Vec<String>> {
        let mut analyzer =
            if keep_stop_words { self.index.tokenizer_for_field(self.fields[1])? } else { query_analyzer() };
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

    /// One optional clause per term and field, boosted by the field's weight.
    fn clauses(&self, terms: &[String]) -> Vec<(Occur, Box<dyn Query>)> {
        let mut clauses: Vec<(Occur, Box<dyn Query>)> = Vec::new();
        for t in terms {
            for (field, (_, boost)) in self.fields.iter().zip(FIELDS) {
                let q = TermQuery::new(Term::from_field_text(*field, t), IndexRecordOption::WithFreqs);
                clauses.push((Occur::Should, Box::new(BoostQuery::new(Box::new(q), boost))));
            }
        }
        clauses
    }

    /// The `k` best documents for `query`.
    pub fn search(&self, query: &str, k: usize) -> Result<Vec<Bm25Hit>> {
        let mut terms = self.terms(query, true)?;
        if terms.iter().any(|t| !NOISE.contains(&t.as_str())) {
            terms.retain(|t| !NOISE.contains(&t.as_str()));
        }
        if terms.is_empty() || k == 0 {
            return Ok(Vec::new());
        }
        let content: HashSet<String> = self.terms(query, false)?.into_iter().collect();
        let (words, function): (Vec<String>, Vec<String>) = terms.into_iter().partition(|t| content.contains(t));
        let query = if words.is_empty() || function.is_empty() {
            BooleanQuery::new(self.clauses(if words.is_empty() { &function } else { &words }))
        } else {
            // The same sum of the same term scores, for every document one of `words` matches.
            let mut clauses = vec![(Occur::Must, Box::new(BooleanQuery::new(self.clauses(&words))) as Box<dyn Query>)];
            clauses.extend(self.clauses(&function));
            BooleanQuery::new(clauses)
        };
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

    /// Every file of `dir` (name, bytes), sorted.
    fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
        let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
            .expect("read dir")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.is_file())
            .map(|p| (p.file_name().expect("name").to_string_lossy().into_owned(), std::fs::read(&p).expect("read")))
            .collect();
        out.sort();
        out
    }

    #[test]
    fn an_update_writes_only_the_changed_documents_and_leaves_the_old_index_as_it_was() {
        let docs: Vec<(u32, [&str; 4])> = (0..40)
            .map(|i| (i, ["list items", "List the items of a folder", "path", "files"]))
            .chain([(40, ["get weather", "Current weather forecast for a city", "city", "weather api"])])
            .collect();
        let old = tempfile::tempdir().expect("tempdir");
        Bm25::build(old.path(), docs.iter().copied()).expect("build");
        let before = files(old.path());

        // Document 40 now recites limericks; document 3 is unchanged but rewritten (same text).
        let changed = [(40, ["recite limerick", "Recite a limerick about Mars", "topic", "poems"]), docs[3]];
        let new = tempfile::tempdir().expect("tempdir");
        assert!(Bm25::update(old.path(), new.path(), &changed).expect("update"));
        assert_eq!(files(old.path()), before, "the old index's files are untouched");

        let bm25 = Bm25::open(new.path()).expect("open");
        assert_eq!(bm25.search("limerick", 3).expect("search").iter().map(|h| h.id).collect::<Vec<_>>(), [40]);
        assert!(bm25.search("weather forecast", 3).expect("search").is_empty(), "the old text is gone");
        let items = bm25.search("list items", 50).expect("search");
        assert_eq!(items.len(), 40, "each unchanged document once, the rewritten one too");
        let old_bm25 = Bm25::open(old.path()).expect("open");
        assert_eq!(old_bm25.search("weather", 3).expect("search")[0].id, 40, "the old index still answers");

        // Past the share of deleted documents, nothing is written and the caller builds again.
        let many: Vec<(u32, [&str; 4])> = docs[..3].to_vec();
        let third = tempfile::tempdir().expect("tempdir");
        assert!(!Bm25::update(new.path(), third.path(), &many).expect("refused"), "2 + 3 of 41 deleted");
        assert!(files(third.path()).is_empty());
    }

    #[test]
    fn function_words_score_only_documents_another_word_found() {
        let dir = tempfile::tempdir().expect("tempdir");
        let docs = [
            (7, ["send email", "Send an email message to a recipient", "to: address", "mail server"]),
            (8, ["create issue", "Open a new issue in a repository", "title", "github"]),
        ];
        Bm25::build(dir.path(), docs).expect("build");
        let bm25 = Bm25::open(dir.path()).expect("open");
        assert_eq!(bm25.terms("open an issue in the repo", false).expect("terms"), ["open", "issu", "repo"]);
        assert_eq!(bm25.search("a", 3).expect("search").len(), 2, "`a` alone finds both");
        assert_eq!(bm25.terms("open an issue", true).expect("terms"), ["open", "an", "issu"]);
        // `an` and `to` are in document 7's text, but it matches no other word of the query.
        let hits = bm25.search("an issue to open", 3).expect("search");
        assert_eq!(hits.iter().map(|h| h.id).collect::<Vec<_>>(), [8]);
        // A document another word found keeps its function words' share of the score.
        let with = bm25.search("open a new issue", 3).expect("search")[0].score;
        let without = bm25.search("open new issue", 3).expect("search")[0].score;
        assert!(with > without, "{with} > {without}: `a` is in document 8's description");
        // Nothing but function words: they are searched after all.
        let hits = bm25.search("to", 3).expect("search");
        assert_eq!(hits.iter().map(|h| h.id).collect::<Vec<_>>(), [7]);
    }
}

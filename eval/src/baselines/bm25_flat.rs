//! `bm25-flat`: one BM25 document per tool, in memory (tantivy's BM25 is k1 = 1.2, b = 0.75).

use std::collections::HashSet;

use tantivy::collector::TopDocs;
use tantivy::query::{BooleanQuery, Occur, Query, TermQuery};
use tantivy::schema::{FAST, Field, IndexRecordOption, STORED, Schema, TEXT};
use tantivy::{Index, IndexReader, Term, doc};
use toolscout_indexer::Snapshot;

use super::description;
use crate::Result;
use crate::queries::Pair;
use crate::rankers::{Answer, RankedTool, Ranker};

pub(crate) struct Bm25Flat {
    index: Index,
    reader: IndexReader,
    text: Field,
    names: Vec<(String, String)>,
}

impl Bm25Flat {
    pub(crate) fn new(snapshot: &Snapshot) -> Result<Self> {
        let mut builder = Schema::builder();
        let id = builder.add_u64_field("id", STORED | FAST);
        let text = builder.add_text_field("text", TEXT);
        let index = Index::create_in_ram(builder.build());
        let mut writer = index.writer_with_num_threads::<tantivy::TantivyDocument>(1, 50_000_000)?;
        let mut names = Vec::new();
        for (i, t) in snapshot.tools.iter().enumerate() {
            let server = &snapshot.servers[t.server as usize].name;
            let tool: serde_json::Value = serde_json::from_str(snapshot.tool_json(i)).unwrap_or_default();
            let props: Vec<&str> = tool
                .pointer("/inputSchema/properties")
                .and_then(|p| p.as_object())
                .map(|p| p.keys().map(String::as_str).collect())
                .unwrap_or_default();
            let body = format!(
                "{server} {} {} {} {}",
                t.name,
                t.name.replace('_', " "),
                description(snapshot.tool_json(i)),
                props.join(" ")
            );
            writer.add_document(doc!(id => i as u64, text => body))?;
            names.push((server.clone(), t.name.clone()));
        }
        writer.commit()?;
        let reader = index.reader()?;
        Ok(Bm25Flat { index, reader, text, names })
    }
}

impl Ranker for Bm25Flat {
    fn name(&self) -> String {
        "bm25-flat".into()
    }

    fn answer(&self, query: &str, exclude: &[Pair], k: usize) -> Result<Answer> {
        let mut analyzer = self.index.tokenizer_for_field(self.text)?;
        let mut stream = analyzer.token_stream(query);
        let mut seen = HashSet::new();
        let mut clauses: Vec<(Occur, Box<dyn Query>)> = Vec::new();
        while stream.advance() {
            let t = stream.token().text.clone();
            if seen.insert(t.clone()) {
                let term = Term::from_field_text(self.text, &t);
                clauses.push((Occur::Should, Box::new(TermQuery::new(term, IndexRecordOption::WithFreqs))));
            }
        }
        if clauses.is_empty() {
            return Ok(Answer::default());
        }
        let searcher = self.reader.searcher();
        let top =
            searcher.search(&BooleanQuery::new(clauses), &TopDocs::with_limit(k + exclude.len()).order_by_score())?;
        let mut tools = Vec::new();
        for (score, addr) in top {
            let d: tantivy::TantivyDocument = searcher.doc(addr)?;
            let id = d.get_first(searcher.schema().get_field("id")?);
            let Some(id) = id.and_then(|v| tantivy::schema::Value::as_u64(&v)) else { continue };
            let (server, tool) = self.names[id as usize].clone();
            if exclude.iter().any(|p| p.server == server && p.tool == tool) {
                continue;
            }
            tools.push(RankedTool { server, tool, score, confidence: score, named: false, alternates: Vec::new() });
        }
        tools.truncate(k);
        Ok(Answer::undecided(tools))
    }
}

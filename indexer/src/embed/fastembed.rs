//! The real model: fastembed over local ONNX models (by default an ensemble of all-MiniLM-L6-v2 int8 and
//! Universal Sentence Encoder multilingual v3; any single model folder works too).
//!
//! No model hub: the model folder and the ONNX Runtime library come from PyPI packages installed by
//! `scripts/setup-models.sh`. The runtime is loaded explicitly so a missing library is an error, not the
//! panic ort would raise at the first session. ORT's spinning worker threads collapse under CPU contention
//! on small shared machines, so spinning is switched off by default.
//!
//! One ONNX session runs one inference at a time, so the embedder holds a small pool of sessions
//! (`sessions`, each with `threads` intra-op threads): concurrent requests embed side by side instead of
//! queueing on one lock, and a request's several intents embed in parallel, each unpadded. The defaults
//! are measured (`cargo bench -p toolscout-indexer --bench embed`, BENCHMARKS.md).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, TryLockError};

use fastembed::{InitOptionsUserDefined, OutputKey, Pooling, TextEmbedding, TokenizerFiles, UserDefinedEmbeddingModel};

use super::{Embedder, Part};
use crate::canonical::sha256_hex;
use crate::{Error, Result};

/// Where the model and runtime are, and how to run them.
#[derive(Debug, Clone)]
pub struct EmbedderConfig {
    /// Folder with `model.onnx`, `tokenizer.json`, `config.json`, `special_tokens_map.json`,
    /// `tokenizer_config.json`.
    pub model_dir: PathBuf,
    /// The ONNX Runtime shared library (`libonnxruntime.so`, ≥ 1.24).
    pub ort_dylib: PathBuf,
    /// ONNX Runtime intra-op threads per session.
    pub threads: usize,
    /// ONNX sessions (each a copy of the model in memory); at most this many texts embed at once.
    pub sessions: usize,
    /// Let ORT's worker threads spin while waiting for work (faster alone, collapses under contention).
    pub spinning: bool,
    /// Most texts per inference batch (16–32 is fastest here for short texts); long texts are batched
    /// fewer at a time (at most 8K characters of padded text per batch).
    pub batch: usize,
    /// Tokens per text (MiniLM was trained at 256).
    pub max_length: usize,
}

/// Characters of text per inference batch, at most (a text counts up to the ~1,000 characters that fill
/// `max_length` tokens): a batch is padded to its longest text, and ONNX Runtime keeps the memory of the
/// largest batch it ran for the life of the session — 32 texts of 256 tokens took 1.27 GB, 8 took 290 MB,
/// at the same speed (BENCHMARKS.md, "Build memory"). Texts are sorted by length first, so short texts
/// still go 32 at a time.
const BATCH_CHARS: usize = 8 * 1024;

/// Characters a text may exceed one and a half times its batch's shortest by and still join it (short
/// texts differ by whole words; an ONNX call costs more than padding a few tokens).
const PAD_SLACK: usize = 32;

/// What one text counts towards [`BATCH_CHARS`] (longer texts are cut to the model's length anyway).
const TEXT_CHARS_CAP: usize = 1024;

/// Where `scripts/setup-models.sh` puts the default model, inside its install folder (`.deps`): the
/// ensemble of all-MiniLM-L6-v2 int8 and USE multilingual v3 (a folder holding [`ENSEMBLE_FILE`]).
pub const INSTALLED_MODEL: &str = "models/minilm-usem3";
/// Where it puts the ONNX Runtime library, inside the same folder.
pub const INSTALLED_ORT: &str = "libonnxruntime.so";

impl EmbedderConfig {
    /// Defaults for the model and runtime as `scripts/setup-models.sh` installs them under `deps`.
    pub fn installed(deps: &std::path::Path) -> Self {
        Self::new(deps.join(INSTALLED_MODEL), deps.join(INSTALLED_ORT))
    }

    /// Defaults for a model folder and runtime library.
    pub fn new(model_dir: impl Into<PathBuf>, ort_dylib: impl Into<PathBuf>) -> Self {
        EmbedderConfig {
            model_dir: model_dir.into(),
            ort_dylib: ort_dylib.into(),
            threads: 2,
            sessions: 1,
            spinning: false,
            batch: 32,
            max_length: 256,
        }
    }
}

/// A loaded embedding model. Thread-safe: each call takes a free session of the pool (or waits for one).
///
/// A model folder may also name an **ensemble** (a `members.txt` listing model folders, relative to it):
/// each member embeds the text, and the vector is the members' L2-normalized vectors concatenated, each
/// scaled by 1/√n, so the cosine of two ensemble vectors is the mean of the members' cosines.
pub struct FastEmbedder {
    members: Vec<Member>,
    model_id: String,
    dim: usize,
}

/// One ONNX model and its session pool.
struct Member {
    sessions: Vec<Mutex<TextEmbedding>>,
    /// Where the next call starts looking for a free session.
    next: AtomicUsize,
    batch: usize,
}

impl std::fmt::Debug for FastEmbedder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Embedder").field("model_id", &self.model_id).field("dim", &self.dim).finish()
    }
}

/// The file that makes a model folder an ensemble: one member folder per line (`#` comments), optionally
/// followed by `sessions=N`, the most sessions that member needs (see [`EnsembleMember::max_sessions`]).
pub(crate) const ENSEMBLE_FILE: &str = "members.txt";

/// One line of an ensemble's [`ENSEMBLE_FILE`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct EnsembleMember {
    /// The member's model folder (resolved against the ensemble folder).
    pub dir: PathBuf,
    /// The most sessions this member gets, whatever the pool size (`sessions=N` on its line): a member
    /// whose inference is a fraction of the others' rarely has two callers at once, while each session
    /// is a full copy of its model and tokenizer (USE-m3: 0.6 ms a query against MiniLM's 5 ms, and
    /// ~216 MB a session with its tokenizer; BENCHMARKS.md "One session for the light member").
    pub max_sessions: Option<usize>,
}

/// The members an ensemble folder lists, or `None` for a plain model folder.
pub(crate) fn ensemble_members(dir: &Path) -> Result<Option<Vec<EnsembleMember>>> {
    let file = dir.join(ENSEMBLE_FILE);
    if !file.is_file() {
        return Ok(None);
    }
    let text = std::fs::read_to_string(&file).map_err(|e| Error::Embed(format!("reading {}: {e}", file.display())))?;
    let mut members = Vec::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let (folder, max_sessions) = match line.rsplit_once(char::is_whitespace) {
            Some((folder, option)) if option.starts_with("sessions=") => {
                let n = option["sessions=".len()..].parse::<usize>().ok().filter(|&n| n > 0).ok_or_else(|| {
                    Error::Embed(format!("{}: {option:?} is not sessions=N with N ≥ 1", file.display()))
                })?;
                (folder.trim_end(), Some(n))
            }
            _ => (line, None),
        };
        members.push(EnsembleMember { dir: dir.join(folder), max_sessions });
    }
    if members.is_empty() {
        return Err(Error::Embed(format!("{} lists no model folder", file.display())));
    }
    Ok(Some(members))
}

impl FastEmbedder {
    /// Loads the runtime library and the model (every member of an ensemble).
    pub fn load(config: &EmbedderConfig) -> Result<FastEmbedder> {
        if !config.ort_dylib.is_file() {
            return Err(Error::Embed(format!(
                "ONNX Runtime library not found at {} (set ORT_DYLIB_PATH or --ort-dylib to libonnxruntime.so, or run scripts/setup-models.sh)",
                config.ort_dylib.display()
            )));
        }
        load_runtime(&config.ort_dylib)?;
        let dirs = ensemble_members(&config.model_dir)?
            .unwrap_or_else(|| vec![EnsembleMember { dir: config.model_dir.clone(), max_sessions: None }]);
        let mut members = Vec::new();
        let mut ids = Vec::new();
        for spec in &dirs {
            let sessions = config.sessions.max(1).min(spec.max_sessions.unwrap_or(usize::MAX));
            let (member, id) = Member::load(&spec.dir, config, sessions)?;
            members.push(member);
            ids.push(id);
        }
        let model_id = joined_id(ids);
        let mut embedder = FastEmbedder { members, model_id, dim: 0 };
        let probe = embedder.embed_sorted(&["dimension probe"])?;
        embedder.dim = probe.first().map(Vec::len).unwrap_or(0);
        Ok(embedder)
    }

    /// The id [`FastEmbedder::load`] would give the model in `model_dir`, read from its files without
    /// loading it (each member's ONNX file is hashed).
    pub fn model_id_of(model_dir: &Path) -> Result<String> {
        let dirs = ensemble_members(model_dir)?
            .map_or_else(|| vec![model_dir.to_path_buf()], |m| m.into_iter().map(|m| m.dir).collect());
        let ids = dirs
            .iter()
            .map(|dir| {
                let p = dir.join("model.onnx");
                let onnx = std::fs::read(&p)
                    .map_err(|e| Error::Embed(format!("reading {} (run scripts/setup-models.sh): {e}", p.display())))?;
                Ok(member_id(dir, &onnx))
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(joined_id(ids))
    }

    /// Embeds `texts` (sorted by length) with every member, in batches, and joins the members' vectors.
    fn embed_sorted(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>> {
        if let [only] = self.members.as_slice() {
            return only.embed_batched(texts);
        }
        let scale = 1.0 / (self.members.len() as f32).sqrt();
        let mut out: Vec<Vec<f32>> = vec![Vec::new(); texts.len()];
        for member in &self.members {
            for (joined, mut v) in out.iter_mut().zip(member.embed_batched(texts)?) {
                let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
                let k = if norm > 0.0 { scale / norm } else { 0.0 };
                v.iter_mut().for_each(|x| *x *= k);
                joined.extend(v);
            }
        }
        Ok(out)
    }

    /// Sessions in the pool (of the member with the most: requests embed side by side up to this many).
    pub fn sessions(&self) -> usize {
        self.members.iter().map(|m| m.sessions.len()).max().unwrap_or(1)
    }

    /// Sessions of each member, in the ensemble's order.
    pub fn member_sessions(&self) -> Vec<usize> {
        self.members.iter().map(|m| m.sessions.len()).collect()
    }
}

impl Member {
    /// Loads one model folder with `count` sessions; returns it with its id.
    fn load(dir: &Path, config: &EmbedderConfig, count: usize) -> Result<(Member, String)> {
        let read = |f: &str| -> Result<Vec<u8>> {
            let p = dir.join(f);
            std::fs::read(&p)
                .map_err(|e| Error::Embed(format!("reading {} (run scripts/setup-models.sh): {e}", p.display())))
        };
        let onnx = read("model.onnx")?;
        let model_id = member_id(dir, &onnx);
        let files = TokenizerFiles {
            tokenizer_file: read("tokenizer.json")?,
            config_file: read("config.json")?,
            special_tokens_map_file: read("special_tokens_map.json")?,
            tokenizer_config_file: read("tokenizer_config.json")?,
        };
        let spinning = if config.spinning { "1" } else { "0" };
        let mut sessions = Vec::new();
        for _ in 0..count {
            let model = UserDefinedEmbeddingModel::new(onnx.clone(), files.clone()).with_pooling(Pooling::Mean);
            let options = InitOptionsUserDefined::new()
                .with_max_length(config.max_length)
                .with_intra_threads(config.threads.max(1))
                .with_session_config("session.intra_op.allow_spinning", spinning);
            let model = TextEmbedding::try_new_from_user_defined(model, options)
                .map_err(|e| Error::Embed(format!("loading {}: {e}", dir.display())))?;
            sessions.push(Mutex::new(model));
        }
        Ok((Member { sessions, next: AtomicUsize::new(0), batch: config.batch.max(1) }, model_id))
    }

    /// A free session, else (all busy) the next one in turn, waited for.
    fn session(&self) -> Result<MutexGuard<'_, TextEmbedding>> {
        let n = self.sessions.len();
        let start = self.next.fetch_add(1, Ordering::Relaxed) % n;
        for i in 0..n {
            match self.sessions[(start + i) % n].try_lock() {
                Ok(guard) => return Ok(guard),
                Err(TryLockError::WouldBlock) => {}
                Err(TryLockError::Poisoned(_)) => return Err(Error::Embed("model lock poisoned".into())),
            }
        }
        self.sessions[start].lock().map_err(|_| Error::Embed("model lock poisoned".into()))
    }

    /// Embeds `texts` on one session, in one call of batches of `batch`.
    fn embed_with(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>> {
        let mut model = self.session()?;
        model.embed(texts, Some(self.batch)).map_err(|e| Error::Embed(e.to_string()))
    }

    /// The request's vector and each part's read in its context, from one inference: the mean of the
    /// token outputs over the whole request (what embedding it alone gives) and over each part's ranges.
    /// `None` when the model pools inside itself (no token outputs); a part none of whose tokens survived
    /// the model's length is `None` too.
    fn in_context(&self, request: &str, parts: &[Part<'_>]) -> Result<Option<Vec<Option<Vec<f32>>>>> {
        const PRECEDENCE: [OutputKey; 3] =
            [OutputKey::OnlyOne, OutputKey::ByName("last_hidden_state"), OutputKey::ByName("token_embeddings")];
        let mut model = self.session()?;
        // fastembed's `transform` tokenizes the request too but keeps no offsets, so it is tokenized
        // once more here for them (tens of microseconds against the inference's milliseconds); the
        // token counts must agree, or the parts are embedded on their own.
        let encoding = model.tokenizer.encode(request, true).map_err(|e| Error::Embed(e.to_string()))?;
        let output = model.transform([request], None).map_err(|e| Error::Embed(e.to_string()))?;
        let batches = output.into_raw();
        let Some(batch) = batches.first() else { return Ok(None) };
        let tensor = batch.select_output(&&PRECEDENCE[..]).map_err(|e| Error::Embed(e.to_string()))?;
        let shape = tensor.shape().to_vec();
        let [1, tokens, dim] = shape[..] else { return Ok(None) };
        let Some(values) = tensor.as_slice() else { return Ok(None) };
        if tokens != encoding.len() {
            return Ok(None);
        }
        let mean = |keep: &dyn Fn(usize) -> bool| -> Option<Vec<f32>> {
            let mut sum = vec![0.0f32; dim];
            let mut n = 0usize;
            for t in (0..tokens).filter(|&t| keep(t)) {
                sum.iter_mut().zip(&values[t * dim..(t + 1) * dim]).for_each(|(s, v)| *s += v);
                n += 1;
            }
            (n > 0).then(|| normalized(sum))
        };
        let mask = encoding.get_attention_mask();
        let offsets = encoding.get_offsets();
        let special = encoding.get_special_tokens_mask();
        let mut out = vec![mean(&|t| mask[t] == 1)];
        for part in parts {
            out.push(mean(&|t| {
                let (start, end) = offsets[t];
                special[t] == 0 && start < end && part.spans.iter().any(|r| r.start <= start && end <= r.end)
            }));
        }
        Ok(Some(out))
    }

    /// Embeds `texts` (sorted by length) in batches of similar length.
    fn embed_batched(&self, sorted: &[&str]) -> Result<Vec<Vec<f32>>> {
        let mut vectors = Vec::with_capacity(sorted.len());
        for batch in batches(sorted, self.batch) {
            vectors.extend(self.embed_with(batch)?);
        }
        Ok(vectors)
    }
}

impl Embedder for FastEmbedder {
    /// `<model folder name>@<first 16 hex of the ONNX file's SHA-256>`: indexes remember it, and a query
    /// embedder must match it.
    fn model_id(&self) -> &str {
        &self.model_id
    }

    fn dim(&self) -> usize {
        self.dim
    }

    /// Embeds documents (L2-normalized vectors), in input order.
    ///
    /// Texts are batched by length: a batch is padded to its longest text, so mixing a 10-token and a
    /// 256-token text wastes most of the work on padding.
    fn embed_documents(&self, texts: &[String]) -> Result<Vec<Vec<f32>>> {
        if texts.is_empty() {
            return Ok(Vec::new());
        }
        let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
        in_length_order(&texts, |sorted| self.embed_sorted(sorted))
    }

    /// Each member reads the parts from the request's one inference (both members of the default ensemble
    /// give token outputs); a member that pools inside itself, and a part past the model's length, are
    /// embedded on their own.
    fn embed_in_context(&self, request: &str, parts: &[Part<'_>]) -> Result<Vec<Vec<f32>>> {
        let scale = 1.0 / (self.members.len() as f32).sqrt();
        let mut out: Vec<Vec<f32>> = vec![Vec::new(); parts.len() + 1];
        for member in &self.members {
            let read = member.in_context(request, parts)?;
            let missing: Vec<usize> = match &read {
                Some(vectors) => (0..vectors.len()).filter(|&i| vectors[i].is_none()).collect(),
                None => (0..=parts.len()).collect(),
            };
            let texts: Vec<&str> = missing.iter().map(|&i| if i == 0 { request } else { parts[i - 1].text }).collect();
            let mut alone = in_length_order(&texts, |sorted| member.embed_batched(sorted))?.into_iter();
            let mut vectors = read.unwrap_or_else(|| vec![None; parts.len() + 1]);
            for &i in &missing {
                vectors[i] = alone.next().map(normalized);
            }
            for (joined, v) in out.iter_mut().zip(vectors) {
                let v = v.ok_or_else(|| Error::Embed("the model returned too few vectors".into()))?;
                joined.extend(v.into_iter().map(|x| x * scale));
            }
        }
        Ok(out)
    }

    /// The first member's whole words (MiniLM's: 22.5K English words; a `##` piece is not a word).
    fn known_words(&self) -> std::collections::HashSet<String> {
        let Some(member) = self.members.first() else { return Default::default() };
        let Ok(model) = member.session() else { return Default::default() };
        model
            .tokenizer
            .get_vocab(false)
            .into_keys()
            .filter(|w| w.chars().all(|c| c.is_alphabetic() && !c.is_uppercase()))
            .collect()
    }

    /// Embeds a request's texts (its intents): with more than one session, each text on its own session
    /// at the same time (unpadded); else in one batch.
    fn embed_queries(&self, texts: &[String]) -> Result<Vec<Vec<f32>>> {
        if texts.len() < 2 || self.sessions() < 2 {
            return self.embed_documents(texts);
        }
        std::thread::scope(|scope| {
            let handles: Vec<_> =
                texts[1..].iter().map(|t| scope.spawn(move || self.embed_sorted(&[t.as_str()]))).collect();
            let mut out = self.embed_sorted(&[texts[0].as_str()])?;
            for h in handles {
                out.extend(h.join().map_err(|_| Error::Embed("embedding thread panicked".into()))??);
            }
            Ok(out)
        })
    }
}

/// `sorted` (shortest first) cut into batches of at most `most` texts and [`BATCH_CHARS`] characters of
/// padded text (the longest text of a batch counted for each), a text joining a batch only while it is
/// at most half again as long as the batch's first (plus [`PAD_SLACK`]): a request's short intents and its
/// long whole text were one batch, every intent padded to the whole's length.
fn batches<'a, 'b>(sorted: &'b [&'a str], most: usize) -> Vec<&'b [&'a str]> {
    let chars = |t: &str| t.chars().count().min(TEXT_CHARS_CAP);
    let mut out = Vec::new();
    let mut start = 0;
    while start < sorted.len() {
        let mut end = start + 1;
        let first = chars(sorted[start]);
        while end < sorted.len()
            && end - start < most.max(1)
            && (end + 1 - start) * chars(sorted[end]) <= BATCH_CHARS
            && chars(sorted[end]) <= first + first / 2 + PAD_SLACK
        {
            end += 1;
        }
        out.push(&sorted[start..end]);
        start = end;
    }
    out
}

/// `embed` run over `texts` sorted by length (a batch is padded to its longest text), its vectors put back
/// in `texts`' order.
fn in_length_order(texts: &[&str], embed: impl FnOnce(&[&str]) -> Result<Vec<Vec<f32>>>) -> Result<Vec<Vec<f32>>> {
    let mut order: Vec<usize> = (0..texts.len()).collect();
    order.sort_by_key(|&i| texts[i].len());
    let sorted: Vec<&str> = order.iter().map(|&i| texts[i]).collect();
    let mut out = vec![Vec::new(); texts.len()];
    for (v, &i) in embed(&sorted)?.into_iter().zip(&order) {
        out[i] = v;
    }
    Ok(out)
}

/// `v` scaled to length 1 (a zero vector stays zero).
fn normalized(mut v: Vec<f32>) -> Vec<f32> {
    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if norm > 0.0 {
        v.iter_mut().for_each(|x| *x /= norm);
    }
    v
}

/// A model's id from its members' ids: a single model's own, else `ensemble(a+b+…)`.
fn joined_id(mut ids: Vec<String>) -> String {
    if ids.len() == 1 { ids.remove(0) } else { format!("ensemble({})", ids.join("+")) }
}

/// One model's id: `<folder name>@<first 16 hex of its ONNX file's SHA-256>`.
fn member_id(dir: &Path, onnx: &[u8]) -> String {
    format!("{}@{}", model_name(dir), &sha256_hex(onnx)[..16])
}

fn model_name(dir: &Path) -> String {
    dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "model".into())
}

/// Loads the ONNX Runtime library once per process.
fn load_runtime(path: &Path) -> Result<()> {
    static LOADED: std::sync::OnceLock<std::result::Result<(), String>> = std::sync::OnceLock::new();
    LOADED
        .get_or_init(|| match ort::init_from(path) {
            // The library is loaded now; fastembed builds its own environment from it.
            Ok(_builder) => Ok(()),
            Err(e) => Err(format!("loading ONNX Runtime from {}: {e}", path.display())),
        })
        .clone()
        .map_err(Error::Embed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_texts_batch_fewer_at_a_time_and_every_text_once() {
        let short = "a".repeat(50);
        let long = "b".repeat(5_000);
        let mut texts: Vec<&str> = vec![short.as_str(); 40];
        texts.extend(vec![long.as_str(); 20]);
        let got = batches(&texts, 32);
        assert_eq!(got.iter().map(|b| b.len()).sum::<usize>(), 60, "every text, once");
        assert_eq!(got[0].len(), 32, "short texts go `most` at a time");
        let long_batches: Vec<usize> = got.iter().filter(|b| b[0].len() == 5_000).map(|b| b.len()).collect();
        assert_eq!(long_batches, [8, 8, 4], "long texts {} at a time", BATCH_CHARS / TEXT_CHARS_CAP);
        assert_eq!(batches(&[long.as_str()], 32).len(), 1, "one text over the budget still goes alone");
        // A request's texts: three short intents, a respelled whole and the whole request.
        let request = ["read a file", "search the web", "send it to bob", &"x".repeat(150), &"y".repeat(160)];
        let sizes: Vec<usize> = batches(&request, 32).iter().map(|b| b.len()).collect();
        assert_eq!(sizes, [3, 2], "the short intents are not padded to the whole request's length");
        assert!(batches(&[], 32).is_empty());
    }

    #[test]
    fn an_ensemble_folder_lists_its_members_relative_to_itself() {
        let dir = std::env::temp_dir().join(format!("toolscout-ensemble-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("mkdir");
        assert!(ensemble_members(&dir).expect("reads").is_none(), "no members.txt: a plain model folder");
        std::fs::write(dir.join(ENSEMBLE_FILE), "# comment\n../a\n\n  ../b  sessions=1 \n../c d\n").expect("write");
        let member = |f: &str, max_sessions| EnsembleMember { dir: dir.join(f), max_sessions };
        assert_eq!(
            ensemble_members(&dir).expect("reads"),
            Some(vec![member("../a", None), member("../b", Some(1)), member("../c d", None)]),
            "a trailing sessions=N caps that member; any other last word is part of the folder's name"
        );
        for bad in ["sessions=0", "sessions=two", "sessions="] {
            std::fs::write(dir.join(ENSEMBLE_FILE), format!("../a {bad}\n")).expect("write");
            let err = ensemble_members(&dir).expect_err("a bad session count is an error").to_string();
            assert!(err.contains("sessions=N"), "{bad}: {err}");
        }
        std::fs::write(dir.join(ENSEMBLE_FILE), "# nothing\n").expect("write");
        let err = ensemble_members(&dir).expect_err("an empty list is an error").to_string();
        assert!(err.contains("lists no model folder"), "{err}");
        std::fs::remove_dir_all(&dir).expect("clean up");
    }
}

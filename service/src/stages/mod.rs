//! The query pipeline, one stage per file, over one value that keeps what each stage learned:
//!
//! 1. [`retrieve`]: per pass (the whole request, and each intent of a compound one): server candidates
//!    (dense + BM25), then tool candidates (all tools of the top servers, of a hinted server, and the
//!    global dense and BM25 passes).
//! 2. [`score`]: every candidate of every pass gets its signals, its [`crate::Features`], and the
//!    decision model's probability; a candidate keeps its best pass.
//! 3. [`arrange`]: the order an answer shows: the best tool for the request, then the best for each
//!    intent, then the rest; no server floods the answer (a tool over the per-server cap yields its place
//!    only to another server's tool of comparable confidence, never to filler).
//! 4. [`decide`]: `found` or `not_found`, which tools are delivered (never one the decision rejects),
//!    and, when the right service is there but not the action, a reason an agent can act on.
//!
//! Benches and baselines call these same functions. Ranking does no I/O: the only call out is the
//! embedding of the pass texts, which the engine does before [`retrieve`].

pub(crate) mod arrange;
pub(crate) mod decide;
pub(crate) mod retrieve;
pub(crate) mod score;

/// One candidate tool after scoring.
#[derive(Debug, Clone)]
pub struct Candidate {
    /// Tool index in the snapshot.
    pub tool: usize,
    /// Its server's index.
    pub server: usize,
    /// Fused score per pass (pass 0 is the whole request).
    pub fused: Vec<f32>,
    /// Decision probability per pass.
    pub probability: Vec<f32>,
    /// The pass where its probability is highest.
    pub best_pass: usize,
    /// Its features in that pass.
    pub features: crate::Features,
    /// Per pass: the guard (`guard.rs`) bars it from being delivered for that pass.
    pub guarded: Vec<bool>,
    /// In a pass where the guard does not bar it, it does what the request asks to the thing the request
    /// names (`Guard::fits`): a tool the guard bars does not overshadow it.
    pub fits: bool,
    /// The guard bars it in its best pass for a reason that does not make it a near miss of what is asked
    /// (`guard::Bar::Quiet`: it does what the request says not to do, or reads a service the request
    /// only acts on): it does not overshadow the rest (`stages::decide`).
    pub barred_quietly: bool,
    /// The request rules it out in its best pass, and the guard bars it in every pass (`guard::Bar::RuledOut`:
    /// "not the summary" → `summarize_article_section`): it follows every tool not ruled out in the
    /// answer's order (`stages::arrange`).
    pub ruled_out: bool,
}

impl Candidate {
    /// Its probability in its best pass.
    pub fn confidence(&self) -> f32 {
        self.probability[self.best_pass]
    }

    /// Its best probability among the passes where the guard does not bar it (0 where it bars every one):
    /// what the decision delivers by. [`Candidate::confidence`] still orders the answer, so a barred near
    /// miss can be offered as `closest`.
    pub fn cleared(&self) -> f32 {
        self.probability.iter().zip(&self.guarded).filter(|(_, g)| !**g).map(|(p, _)| *p).fold(0.0, f32::max)
    }

    /// The guard bars it in every pass: it is never delivered.
    pub fn barred(&self) -> bool {
        !self.guarded.is_empty() && self.guarded.iter().all(|&g| g)
    }

    /// Its fused score in its best pass.
    pub fn score(&self) -> f32 {
        self.fused[self.best_pass]
    }
}

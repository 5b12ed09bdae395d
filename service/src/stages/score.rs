//! Stage 2: scoring. Each candidate is measured in every pass (the whole request and each intent): its
//! signals, fused score, features and the decision's probability; it keeps the pass where that
//! probability is highest. Only the best `depth` candidates of each pass by fused score go on (the
//! decision is fitted on exactly those; far below them its features leave the range it was fitted on).

use std::collections::HashSet;

use toolscout_indexer::Snapshot;

use super::Candidate;
use super::retrieve::Pass;
use crate::analysis::Analysis;
use crate::decision::Decision;
use crate::features::{Measured, features, fused};
use crate::fusion::{FusionWeights, Signals};
use crate::guard::{Bar, Guard};
use crate::profile::Profiles;

/// Everything scoring reads.
pub(crate) struct Scoring<'a> {
    pub snap: &'a Snapshot,
    pub profiles: &'a Profiles,
    pub weights: &'a FusionWeights,
    pub decision: &'a Decision,
    pub hinted: &'a HashSet<usize>,
    pub depth: usize,
    /// The per-server cap of answers (0: none): a pass's pool takes at most `POOL_PER_CAP` times that from
    /// one server, so fifty near-copies from one server cannot crowd everyone else out of the pool.
    pub per_server: usize,
    /// Apply the guard (`guard.rs`); off only to measure it.
    pub guard: bool,
}

/// How many of one server's tools a pass's pool takes, as a multiple of the answer's per-server cap: four
/// (twelve at the default cap of 3). At two, a server's right tool was cut before the decision could judge
/// it whenever six of its siblings scored higher on the fused score alone ("open an issue in gitlab …":
/// `create_issue_link`, `get_issue_link`, `update_issue_note`, … ahead of `create_issue`).
const POOL_PER_CAP: usize = 4;

/// Scores `candidates` (tool indexes) in every pass; `analyses[i]` is pass `i`'s analysis, and the guard of
/// pass `i` reads `analyses[guarded_as[i]]`.
pub(crate) fn score(
    s: &Scoring<'_>,
    passes: &[Pass],
    analyses: &[Analysis],
    guarded_as: &[usize],
    candidates: &[usize],
) -> Vec<Candidate> {
    let snap = s.snap;
    // Signals of every candidate in every pass, then the pass-wide bests the features compare with.
    let measured: Vec<Vec<Measured>> = passes
        .iter()
        .map(|pass| {
            let mut m: Vec<Measured> = candidates
                .iter()
                .map(|&t| {
                    let server = snap.tools[t].server as usize;
                    Measured {
                        signals: Signals {
                            tool_dense: snap.tool_cosine(&pass.vector, t),
                            tool_bm25: pass.tool_bm25.get(&t).copied().unwrap_or(0.0),
                            server_dense: snap.server_cosine(&pass.vector, server),
                            server_bm25: pass.server_bm25.get(&server).copied().unwrap_or(0.0),
                        },
                        best_fused: 0.0,
                        best_dense: 0.0,
                        hinted: s.hinted.contains(&server),
                        catalog_size: s.decision.catalog_size(snap.tools.len()),
                    }
                })
                .collect();
            let best_fused = m.iter().map(|x| fused(x, s.weights)).fold(f32::MIN, f32::max);
            let best_dense = m.iter().map(|x| x.signals.tool_dense).fold(f32::MIN, f32::max);
            for x in &mut m {
                x.best_fused = best_fused;
                x.best_dense = best_dense;
            }
            m
        })
        .collect();
    // Which candidates are among the best `depth` of some pass (a hinted server's tools always are).
    let mut eligible: Vec<bool> =
        candidates.iter().map(|&t| s.hinted.contains(&(snap.tools[t].server as usize))).collect();
    for pass in &measured {
        let mut order: Vec<usize> = (0..candidates.len()).collect();
        order.sort_by(|&a, &b| fused(&pass[b], s.weights).total_cmp(&fused(&pass[a], s.weights)).then(a.cmp(&b)));
        let mut taken = 0;
        let mut per_server: std::collections::HashMap<u32, usize> = std::collections::HashMap::new();
        for &ci in &order {
            if taken >= s.depth.max(1) {
                break;
            }
            let n = per_server.entry(snap.tools[candidates[ci]].server).or_default();
            if s.per_server > 0 && *n >= POOL_PER_CAP * s.per_server {
                continue;
            }
            *n += 1;
            taken += 1;
            eligible[ci] = true;
        }
    }
    // Every (candidate, pass) feature vector first, then their probabilities in one batch.
    let kept: Vec<(usize, usize)> =
        candidates.iter().enumerate().filter(|&(ci, _)| eligible[ci]).map(|(ci, &t)| (ci, t)).collect();
    let mut rows = Vec::with_capacity(kept.len() * analyses.len());
    for &(ci, t) in &kept {
        let server = snap.tools[t].server as usize;
        for (pi, analysis) in analyses.iter().enumerate() {
            rows.push(features(
                &measured[pi][ci],
                s.weights,
                analysis,
                &s.profiles.tools[t],
                &s.profiles.servers[server],
                server,
            ));
        }
    }
    let probabilities = s.decision.probabilities(&rows);
    let pairs: Vec<(usize, usize)> = kept.iter().map(|&(_, t)| (t, snap.tools[t].server as usize)).collect();
    let guards: Vec<Option<Guard<'_>>> =
        guarded_as.iter().map(|&a| s.guard.then(|| Guard::new(&analyses[a], s.profiles, &pairs))).collect();
    kept.iter()
        .enumerate()
        .map(|(k, &(ci, t))| {
            let server = snap.tools[t].server as usize;
            let at = k * analyses.len()..(k + 1) * analyses.len();
            let probability = probabilities[at.clone()].to_vec();
            let fused_scores = (0..analyses.len()).map(|pi| fused(&measured[pi][ci], s.weights)).collect();
            // The pass that judged it most likely (the first of equals).
            let best_pass =
                (0..probability.len()).fold(0, |b, pi| if probability[pi] > probability[b] { pi } else { b });
            let features = rows[at.start + best_pass];
            let judged: Vec<Bar> =
                guards.iter().map(|g| g.as_ref().map_or(Bar::Clear, |g| g.judge(t, server))).collect();
            let guarded: Vec<bool> = judged.iter().map(|&b| b != Bar::Clear).collect();
            let fits = guards
                .iter()
                .zip(&guarded)
                .any(|(g, &barred)| !barred && g.as_ref().is_some_and(|g| g.fits(t, server)));
            let barred_quietly = matches!(judged[best_pass], Bar::Quiet | Bar::RuledOut);
            let ruled_out = judged[best_pass] == Bar::RuledOut && guarded.iter().all(|&g| g);
            Candidate {
                tool: t,
                server,
                fused: fused_scores,
                probability,
                best_pass,
                features,
                guarded,
                fits,
                barred_quietly,
                ruled_out,
            }
        })
        .collect()
}

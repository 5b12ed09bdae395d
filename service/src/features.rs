//! The signals the decision reads for one (request, tool) pair: dense and BM25 scores, the fused score
//! and its gap to the best, how much of the request each field of the tool covers, whether the actions
//! agree, and whether the request names the tool's service. Pure code, no I/O.

use crate::actions::{Agreement, families};
use crate::analysis::Analysis;
use crate::fusion::{FusionWeights, Signals, fuse, saturate};
use crate::profile::{ServerProfile, ToolProfile};

/// Feature names, in the order of [`Features`]. A calibration names the features it was fitted on.
pub const FEATURES: [&str; 21] = [
    "tool_dense",
    "server_dense",
    "tool_bm25",
    "server_bm25",
    "fused",
    "fused_gap",
    "dense_gap",
    "cover_name",
    "cover_description",
    "cover_params",
    "cover_server",
    "cover_any",
    "object_cover",
    "object_miss",
    "action_same",
    "action_compatible",
    "action_conflict",
    "service_named",
    "other_service_named",
    "hinted",
    "query_weight",
];

/// One feature vector.
pub type Features = [f32; FEATURES.len()];

/// What the retrieval pass measured for a candidate, and the best of the pass to compare with.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Measured {
    /// Raw signals.
    pub signals: Signals,
    /// Best fused score among the pass's candidates.
    pub best_fused: f32,
    /// Best tool cosine among the pass's candidates.
    pub best_dense: f32,
    /// The request hinted at the tool's server.
    pub hinted: bool,
}

/// The fused score of a measurement.
pub(crate) fn fused(m: &Measured, w: &FusionWeights) -> f32 {
    fuse(&m.signals, w)
}

/// The features of one candidate of one pass.
pub(crate) fn features(
    m: &Measured,
    w: &FusionWeights,
    request: &Analysis,
    tool: &ToolProfile,
    server: &ServerProfile,
    server_index: usize,
) -> Features {
    let total = request.weight();
    let cover = |has: &dyn Fn(u32) -> bool| -> f32 {
        if total <= 0.0 {
            return 0.0;
        }
        request.content.iter().filter(|(_, id, _)| id.is_some_and(has)).map(|(_, _, w)| w).sum::<f32>() / total
    };
    let cover_name = cover(&|id| tool.name.contains(&id));
    let cover_description = cover(&|id| tool.description.contains(&id));
    let cover_params = cover(&|id| tool.params.contains(&id));
    let cover_server = cover(&|id| server.terms.contains(&id));
    let cover_any = cover(&|id| {
        tool.name.contains(&id)
            || tool.description.contains(&id)
            || tool.params.contains(&id)
            || server.terms.contains(&id)
    });
    let object_cover = if tool.object.is_empty() {
        0.0
    } else {
        tool.object.iter().filter(|t| request.known.contains(t)).count() as f32 / tool.object.len() as f32
    };
    let object_miss = f32::from(u8::from(!tool.object.is_empty() && object_cover == 0.0));
    let agreement = families().agreement(request.action.as_ref().map(|a| a.family), tool.action);
    let one = |b: bool| f32::from(u8::from(b));
    let named = request.named_servers.contains(&server_index);
    let fused = fused(m, w);
    [
        m.signals.tool_dense,
        m.signals.server_dense,
        saturate(m.signals.tool_bm25, w.bm25_k),
        saturate(m.signals.server_bm25, w.bm25_k),
        fused,
        fused - m.best_fused,
        m.signals.tool_dense - m.best_dense,
        cover_name,
        cover_description,
        cover_params,
        cover_server,
        cover_any,
        object_cover,
        object_miss,
        one(agreement == Agreement::Same),
        one(agreement == Agreement::Compatible),
        one(agreement == Agreement::Conflict),
        one(named),
        one(!named && !request.named_servers.is_empty()),
        one(m.hinted),
        (1.0 + total).ln(),
    ]
}

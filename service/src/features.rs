//! The signals the decision reads for one (request, tool) pair: dense and BM25 scores, the fused score
//! and its gap to the best, how much of the request each field of the tool covers, whether the actions
//! agree, and whether the request names the tool's service. Pure code, no I/O.

use crate::actions::{Agreement, families};
use crate::analysis::Analysis;
use crate::fusion::{FusionWeights, Signals, fuse, saturate};
use crate::profile::{ServerProfile, TermId, ToolProfile};

/// Feature names, in the order of [`Features`]. A calibration names the features it was fitted on.
pub const FEATURES: [&str; 37] = [
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
    "unknown_share",
    "named_conflict",
    "named_same",
    "same_object",
    "tool_dense_sq",
    "dense_x_cover",
    "dense_x_same",
    "dense_x_conflict",
    "cover_x_same",
    "cover_x_conflict",
    "dense_x_named",
    "named_x_object_miss",
    "entity_match",
    "entity_miss",
    "catalog_size",
    "dense_x_catalog_size",
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
    /// log10 of the number of tools in the catalog: in a small catalog the right tool has no close
    /// neighbours and scores lower than it would among thousands.
    pub catalog_size: f32,
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
    // Words of the request the catalog never uses ("puregym", "ryanair"): a request about something no
    // connected service knows.
    let unknown_share = if total <= 0.0 {
        0.0
    } else {
        request.content.iter().filter(|(_, id, _)| id.is_none()).map(|(_, _, w)| w).sum::<f32>() / total
    };
    let cover_name = cover(&|id| tool.name.contains(&id));
    let cover_description = cover(&|id| tool.description.contains(&id));
    let cover_params = cover(&|id| tool.params.contains(&id));
    let cover_server = cover(&|id| server.terms.contains(&id));
    let cover_any = cover(&|id| tool.mentions(server, &id));
    let object: &[TermId] = if tool.object_is_service { &[] } else { &tool.object };
    let object_cover = if object.is_empty() {
        0.0
    } else {
        object.iter().filter(|t| request.known.contains(t)).count() as f32 / object.len() as f32
    };
    let object_miss = f32::from(u8::from(!object.is_empty() && object_cover == 0.0));
    let table = families();
    let agreement = if request.implied_read {
        // A question or noun phrase asks to read: a reading tool fits it, anything else is undecided.
        let reads = tool.actions.iter().any(|&f| table.class(f) == crate::actions::EffectClass::Read);
        if reads { Agreement::Compatible } else { Agreement::Unknown }
    } else {
        match table.agreement_of_sets(&request.families, &tool.actions) {
            // Showing things in the plural is listing them: "show open pull requests" → `list_pull_requests`.
            Agreement::Compatible
                if request.listed.is_some_and(|h| tool.object.contains(&h))
                    && tool.actions.iter().any(|&f| table.name(f) == "list") =>
            {
                Agreement::Same
            }
            agreement => agreement,
        }
    };
    let one = |b: bool| f32::from(u8::from(b));
    let named = request.named_servers.contains(&server_index);
    let entity_match = if request.entity_kinds == 0 {
        0.0
    } else {
        (tool.entity_kinds & request.entity_kinds).count_ones() as f32 / request.entity_kinds.count_ones() as f32
    };
    let fused = fused(m, w);
    let dense = m.signals.tool_dense;
    let (same, conflict) = (one(agreement == Agreement::Same), one(agreement == Agreement::Conflict));
    let fused_gap = fused - m.best_fused;
    let dense_gap = dense - m.best_dense;
    [
        m.signals.tool_dense,
        m.signals.server_dense,
        saturate(m.signals.tool_bm25, w.bm25_k),
        saturate(m.signals.server_bm25, w.bm25_k),
        fused,
        fused_gap,
        dense_gap,
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
        unknown_share,
        one(named && agreement == Agreement::Conflict),
        one(named && agreement == Agreement::Same),
        if agreement == Agreement::Same { object_cover } else { 0.0 },
        // Interactions the logistic decision cannot form by itself.
        dense * dense,
        dense * cover_any,
        dense * same,
        dense * conflict,
        cover_any * same,
        cover_any * conflict,
        dense * one(named),
        one(named) * object_miss,
        entity_match,
        one(request.entity_kinds != 0 && tool.entity_kinds & request.entity_kinds == 0),
        m.catalog_size,
        dense * m.catalog_size,
    ]
}

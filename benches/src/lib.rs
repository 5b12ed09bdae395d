//! Evaluation of toolscout's retrieval: query files, rankers (the engine and baselines run side by side),
//! metrics, and the calibration of the not-found threshold from labelled queries.

pub mod ab;
mod baselines;
mod calibrate;
mod metrics;
mod queries;
mod rankers;
mod report;
mod scale;
mod tune;

pub use ab::{AbBench, AbConfig, AbReport, Arm, Endpoint};
pub use baselines::{BASELINES, baseline};
pub use calibrate::{Calibration, CurvePoint, calibrate};
pub use metrics::{QueryOutcome, judge};
pub use queries::{Kind, Pair, Query, read_queries};
pub use rankers::{EngineRanker, RankedTool, Ranker, Ranking};
pub use report::{Report, evaluate, show};
pub use scale::{EDITIONS, edition, scale_corpus};
pub use tune::{Trial, tune};

/// Result with a message for people.
pub type Result<T, E = String> = std::result::Result<T, E>;

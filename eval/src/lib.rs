//! Evaluation and calibration of toolscout's retrieval, for anyone's catalog: labelled query files,
//! rankers (the engine and baselines side by side on the same index), metrics, near-miss negatives,
//! and fitting the engine's found / not-found decision (`calibration.json`) on labelled queries.

mod baselines;
mod calibrate;
mod error;
mod html;
mod metrics;
mod queries;
mod rankers;
mod report;

pub use baselines::{BASELINES, baseline};
pub use calibrate::{CurvePoint, FitOptions, FitReport, FitSet, ForeignFit, Row, TOOL_CUT_BUDGET, fit};
pub use error::{Error, Result};
pub use html::{HtmlReport, html_report};
pub use metrics::{QueryOutcome, judge};
pub use queries::{Kind, Pair, Query, near_misses, read_queries};
pub use rankers::{Answer, EngineRanker, RankedTool, Ranker};
pub use report::{NoneScores, Report, evaluate, request_text, show};

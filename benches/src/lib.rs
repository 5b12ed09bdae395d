//! toolscout's benchmarks beyond the product: the A/B harness (full-schema injection vs `discover_tools`
//! against an OpenAI-compatible LLM), the 100K-tool scale corpus, and tuning of the ranking knobs on dev
//! sets. Criterion benches live in `benches/`; evaluation and calibration are product (`toolscout-eval`).

pub mod ab;
mod scale;
mod tune;

pub use ab::{AbBench, AbConfig, AbReport, Arm, Endpoint};
pub use scale::{EDITIONS, edition, scale_corpus};
pub use tune::{Trial, tune};

/// Result with a message for people.
pub type Result<T, E = String> = std::result::Result<T, E>;

//! Prometheus metrics of the REST API, kept by hand (a few atomics and fixed-bucket histograms; the
//! text exposition format is simple enough not to need a metrics crate).

use std::fmt::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// Upper bounds (seconds) of the latency histogram buckets.
const BUCKETS: [f64; 12] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0];

/// Counters and histograms of one process.
#[derive(Debug, Default)]
pub struct Metrics {
    requests: Mutex<std::collections::BTreeMap<(String, u16), u64>>,
    latency: Mutex<std::collections::BTreeMap<String, Histogram>>,
    found: AtomicU64,
    not_found: AtomicU64,
    busy: AtomicU64,
}

#[derive(Debug, Default, Clone)]
struct Histogram {
    counts: [u64; BUCKETS.len()],
    sum: f64,
    count: u64,
}

impl Metrics {
    /// Counts one answered request on `route` with `status`, taking `seconds`.
    pub fn observe(&self, route: &str, status: u16, seconds: f64) {
        *self.requests.lock().unwrap_or_else(|e| e.into_inner()).entry((route.to_string(), status)).or_default() += 1;
        let mut latency = self.latency.lock().unwrap_or_else(|e| e.into_inner());
        let h = latency.entry(route.to_string()).or_default();
        for (i, bound) in BUCKETS.iter().enumerate() {
            if seconds <= *bound {
                h.counts[i] += 1;
            }
        }
        h.sum += seconds;
        h.count += 1;
    }

    /// Counts one discovery decision.
    pub fn decision(&self, found: bool) {
        if found { &self.found } else { &self.not_found }.fetch_add(1, Ordering::Relaxed);
    }

    /// Counts one request turned away because every search slot was busy.
    pub fn busy(&self) {
        self.busy.fetch_add(1, Ordering::Relaxed);
    }

    /// The text exposition format; `snapshot_id` and `tools` describe the live index.
    pub fn render(&self, snapshot_id: &str, tools: usize) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "# HELP toolscout_requests_total HTTP requests answered, by route and status.");
        let _ = writeln!(out, "# TYPE toolscout_requests_total counter");
        for ((route, status), n) in self.requests.lock().unwrap_or_else(|e| e.into_inner()).iter() {
            let _ = writeln!(out, "toolscout_requests_total{{route=\"{route}\",status=\"{status}\"}} {n}");
        }
        let _ = writeln!(out, "# HELP toolscout_request_seconds Request latency, by route.");
        let _ = writeln!(out, "# TYPE toolscout_request_seconds histogram");
        for (route, h) in self.latency.lock().unwrap_or_else(|e| e.into_inner()).iter() {
            for (bound, n) in BUCKETS.iter().zip(h.counts) {
                let _ = writeln!(out, "toolscout_request_seconds_bucket{{route=\"{route}\",le=\"{bound}\"}} {n}");
            }
            let _ = writeln!(out, "toolscout_request_seconds_bucket{{route=\"{route}\",le=\"+Inf\"}} {}", h.count);
            let _ = writeln!(out, "toolscout_request_seconds_sum{{route=\"{route}\"}} {}", h.sum);
            let _ = writeln!(out, "toolscout_request_seconds_count{{route=\"{route}\"}} {}", h.count);
        }
        let _ = writeln!(out, "# HELP toolscout_discover_decisions_total Discovery answers, by decision.");
        let _ = writeln!(out, "# TYPE toolscout_discover_decisions_total counter");
        let _ = writeln!(
            out,
            "toolscout_discover_decisions_total{{decision=\"found\"}} {}",
            self.found.load(Ordering::Relaxed)
        );
        let _ = writeln!(
            out,
            "toolscout_discover_decisions_total{{decision=\"not_found\"}} {}",
            self.not_found.load(Ordering::Relaxed)
        );
        let _ = writeln!(out, "# HELP toolscout_busy_total Requests refused because all search slots were busy.");
        let _ = writeln!(out, "# TYPE toolscout_busy_total counter");
        let _ = writeln!(out, "toolscout_busy_total {}", self.busy.load(Ordering::Relaxed));
        let _ = writeln!(out, "# HELP toolscout_index_info The live snapshot.");
        let _ = writeln!(out, "# TYPE toolscout_index_info gauge");
        let _ = writeln!(out, "toolscout_index_info{{snapshot_id=\"{snapshot_id}\",tools=\"{tools}\"}} 1");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_counters_and_cumulative_buckets() {
        let m = Metrics::default();
        m.observe("/v1/discover", 200, 0.004);
        m.observe("/v1/discover", 200, 0.2);
        m.observe("/v1/discover", 400, 0.0001);
        m.decision(true);
        m.decision(false);
        let text = m.render("snap-1", 42);
        assert!(text.contains("toolscout_requests_total{route=\"/v1/discover\",status=\"200\"} 2"));
        assert!(text.contains("toolscout_request_seconds_bucket{route=\"/v1/discover\",le=\"0.005\"} 2"));
        assert!(text.contains("toolscout_request_seconds_bucket{route=\"/v1/discover\",le=\"+Inf\"} 3"));
        assert!(text.contains("decision=\"not_found\"} 1"));
        assert!(text.contains("snapshot_id=\"snap-1\""));
    }
}

//! A failed crawl never loses a server: its last known record (from the previous catalog) is kept, marked
//! stale, until the server answers again or the user prunes it.

use crate::catalog::{Catalog, ServerRecord, Stale};

use super::{CrawlOutcome, CrawlReport};

/// Merges this crawl's `catalog` with the `previous` catalog the crawl replaces: every server that failed
/// now but has a record in `previous` (same config name) keeps that record, marked [`Stale`] since `now`
/// (a server already stale keeps its first `since`), and its outcome in `report` says how many tools were
/// kept. With `prune`, failed servers are dropped instead. Order follows the report (config order).
pub fn keep_last_known(
    catalog: Catalog,
    report: &mut CrawlReport,
    previous: &Catalog,
    prune: bool,
    now: &str,
) -> Catalog {
    let mut fresh = catalog.servers.into_iter();
    let mut used = vec![false; previous.servers.len()];
    let mut merged = Catalog::default();
    for outcome in &mut report.servers {
        match outcome {
            CrawlOutcome::Ok { .. } => {
                if let Some(server) = fresh.next() {
                    merged.push(server);
                }
            }
            CrawlOutcome::Failed { failure, kept_stale, .. } => {
                if prune {
                    continue;
                }
                let found = previous.servers.iter().enumerate().find(|(i, s)| !used[*i] && s.name == failure.server);
                let Some((i, last)) = found else { continue };
                used[i] = true;
                let record = ServerRecord {
                    stale: Some(Stale {
                        since: last.stale.as_ref().map_or_else(|| now.to_string(), |s| s.since.clone()),
                        reason: format!("{}: {}", failure.stage, failure.reason),
                    }),
                    ..last.clone()
                };
                *kept_stale = Some(record.tools.len());
                merged.push(record);
            }
        }
    }
    merged
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::ServerSource;
    use crate::crawl::ServerFailure;

    fn server(name: &str, tools: usize) -> ServerRecord {
        ServerRecord {
            server_id: String::new(),
            name: name.into(),
            title: None,
            version: None,
            description: None,
            instructions: None,
            source: ServerSource { kind: "stdio".into(), origin: name.into() },
            crawled_at: Some("2026-11-01T00:00:00Z".into()),
            protocol_version: None,
            stale: None,
            tools: (0..tools)
                .map(|i| {
                    let tool = serde_json::json!({"name": format!("t{i}"), "inputSchema": {"type": "object"}});
                    crate::catalog::ToolRecord::new(serde_json::from_value(tool).expect("tool"), None)
                        .expect("valid tool")
                })
                .collect(),
        }
    }

    fn ok(name: &str) -> CrawlOutcome {
        CrawlOutcome::Ok { server: name.into(), tools: 1, pages: 1, stdout_noise: 0, warnings: vec![], seconds: 0.0 }
    }

    fn failed(name: &str) -> CrawlOutcome {
        let failure = ServerFailure { server: name.into(), stage: "timeout".into(), reason: "slow".into() };
        CrawlOutcome::Failed { failure, kept_stale: None, seconds: 1.0 }
    }

    fn previous() -> Catalog {
        let mut c = Catalog::default();
        for (name, n) in [("a", 2), ("b", 3), ("c", 4)] {
            c.push(server(name, n));
        }
        c
    }

    #[test]
    fn failed_servers_keep_their_last_tools_marked_stale_in_config_order() {
        let mut report = CrawlReport { servers: vec![ok("a"), failed("b"), ok("c"), failed("new")] };
        let mut now = Catalog::default();
        now.push(server("a", 1));
        now.push(server("c", 5));
        let merged = keep_last_known(now, &mut report, &previous(), false, "2026-11-30T00:00:00Z");
        let names: Vec<_> =
            merged.servers.iter().map(|s| (s.name.as_str(), s.tools.len(), s.stale.is_some())).collect();
        assert_eq!(names, [("a", 1, false), ("b", 3, true), ("c", 5, false)]);
        let b = &merged.servers[1];
        assert_eq!(b.server_id, "b", "a kept server keeps its id");
        assert_eq!(b.crawled_at.as_deref(), Some("2026-11-01T00:00:00Z"), "the last good crawl's time stays");
        let stale = b.stale.as_ref().expect("stale");
        assert_eq!((stale.since.as_str(), stale.reason.as_str()), ("2026-11-30T00:00:00Z", "timeout: slow"));
        let kept: Vec<_> = report
            .servers
            .iter()
            .filter_map(|o| if let CrawlOutcome::Failed { kept_stale, .. } = o { Some(*kept_stale) } else { None })
            .collect();
        assert_eq!(kept, [Some(3), None], "a server never crawled before has nothing to keep");
    }

    #[test]
    fn a_server_still_failing_stays_stale_since_its_first_failure() {
        let mut report = CrawlReport { servers: vec![failed("b")] };
        let once = keep_last_known(Catalog::default(), &mut report, &previous(), false, "2026-11-30T00:00:00Z");
        let mut report = CrawlReport { servers: vec![failed("b")] };
        let twice = keep_last_known(Catalog::default(), &mut report, &once, false, "2026-12-01T00:00:00Z");
        assert_eq!(twice.servers[0].stale.as_ref().map(|s| s.since.as_str()), Some("2026-11-30T00:00:00Z"));
    }

    #[test]
    fn prune_drops_failed_servers() {
        let mut report = CrawlReport { servers: vec![ok("a"), failed("b")] };
        let mut now = Catalog::default();
        now.push(server("a", 1));
        let merged = keep_last_known(now, &mut report, &previous(), true, "2026-11-30T00:00:00Z");
        assert_eq!(merged.servers.len(), 1);
    }
}

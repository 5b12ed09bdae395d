//! A small real run: llama.cpp's OpenAI-compatible server (xllamacpp) with Gemma 3 270M on this machine,
//! started and stopped by the test on 127.0.0.1, 1 thread, 1 slot. That model cannot call tools, so the
//! gold steps are replayed: this proves the plumbing against a real server and measures real prompt,
//! cache and time figures for both arms; accuracy is the scripted double's job (scripted.rs).
//! Installed by scripts/setup-llm.sh; never skipped. Takes minutes: arm A's first request prefills
//! ~19k tokens of tool schemas on one CPU thread.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use toolscout_bench::ab::{AbBench, Arm};

use super::{config, deps, embedder};

/// The server process; killed on drop.
struct LlamaServer {
    child: Child,
    base_url: String,
}

impl LlamaServer {
    fn start(log: &Path) -> LlamaServer {
        let llm = deps().join("llm");
        let python = llm.join("venv/bin/python");
        assert!(
            python.exists() && llm.join("serve.py").exists(),
            "{} missing: run scripts/setup-llm.sh",
            llm.display()
        );
        let threads = std::env::var("TOOLSCOUT_AB_THREADS").unwrap_or_else(|_| "1".into());
        let mut child = Command::new(python)
            .arg(llm.join("serve.py"))
            .args(["--port", "0", "--ctx", "32768", "--threads", &threads, "--swa-full"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(log).expect("server log"))
            .spawn()
            .expect("start the llama.cpp server");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if let Some(url) = line.strip_prefix("listening ") {
                    let _ = tx.send(url.trim().to_string());
                }
            }
        });
        let url = match rx.recv_timeout(Duration::from_secs(300)) {
            Ok(url) => url,
            Err(_) => {
                let _ = child.kill();
                panic!("llama.cpp server did not start; log in {}", log.display());
            }
        };
        assert!(url.starts_with("http://127.0.0.1:"), "{url}");
        LlamaServer { child, base_url: format!("{url}/v1") }
    }
}

impl Drop for LlamaServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn llama_cpp_gemma_replays_three_tasks_in_both_arms() {
    let started = Instant::now();
    let out = Path::new(env!("CARGO_TARGET_TMPDIR"));
    // drawio's schemas (59 KB) and kubernetes' keep arm A at 113 tools, ~19k tokens: enough for the
    // comparison (>= 100 tools), as small as that allows on one CPU thread.
    let mut config = config("http://unused", &["drawio", "kubernetes"]);
    let bench = AbBench::prepare(&config, embedder()).expect("prepare");
    let server = LlamaServer::start(&out.join("ab-llama-server.log"));
    let loaded = started.elapsed();
    config.endpoint.base_url = server.base_url.clone();
    config.endpoint.timeout = Duration::from_secs(900);
    config.only = ["slack-post", "x-ci-to-slack", "time-tokyo"].map(String::from).to_vec();
    config.replay_gold = true;
    config.max_tokens = 24;
    config.arms = vec![Arm::Full, Arm::Discover];
    let report = bench.run(&config).await.expect("run");
    drop(server);
    let md = report.markdown();
    std::fs::write(out.join("ab-llama.json"), serde_json::to_string_pretty(&report).expect("json")).expect("write");
    std::fs::write(out.join("ab-llama.md"), &md).expect("write");
    eprintln!("{md}\nsetup + server start {:.0?}, total {:.0?}", loaded, started.elapsed());

    assert!(report.tools >= 100, "{} tools", report.tools);
    let arm = |which: Arm| &report.arms.iter().find(|a| a.arm == which).expect("arm").summary;
    let (a, b) = (arm(Arm::Full), arm(Arm::Discover));
    for (s, turns) in [(a, 2 + 3 + 2), (b, 3 + 5 + 3)] {
        // Every request answered, with usage and llama.cpp's cache and timing figures.
        assert_eq!((s.tasks, s.errors, s.turns), (3, 0, turns), "{s:?}");
        assert_eq!((s.selection_accuracy, s.argument_validity), (1.0, Some(1.0)), "{s:?}");
        assert!(s.cached_tokens.is_some() && s.prompt_ms.is_some(), "{s:?}");
        // What was sent before is served from the cache: the conversation only grows at the tail.
        assert!(s.continuation_reuse.expect("reuse") >= 0.95, "{s:?}");
    }
    for t in report.arms.iter().flat_map(|a| &a.tasks).flat_map(|t| &t.turns) {
        assert!(t.usage.prompt_tokens > 0 && t.usage.cached_tokens.is_some(), "{t:?}");
    }
    assert_eq!(b.gold_delivered_share, Some(1.0));
    // Arm A's ~19k-token tools prefix is cached across tasks after its first request.
    assert!(a.first_turn_prompt_tokens > 15_000.0, "{a:?}");
    assert!(a.cached_share_after_first.expect("cache") >= 0.95, "{a:?}");
    let c = report.comparison.as_ref().expect("both arms");
    assert!(c.first_turn_prompt_ratio <= 0.05, "{c:?}");
}

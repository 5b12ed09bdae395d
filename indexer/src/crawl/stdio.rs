//! Crawling a server that runs as a child process speaking MCP over stdio.
//!
//! Between the child's stdout and rmcp sits a line filter: servers print banners, logs and even JSON that
//! is not JSON-RPC on stdout, which would end an rmcp session. The filter passes only JSON-RPC messages
//! on, counts the rest, and keeps the raw `result.tools` arrays so tools are recorded byte-for-byte as the
//! server declared them (rmcp's typed `Tool` drops fields it does not model). The child runs in its own
//! process group, which is killed (TERM, then KILL) when the crawl ends, so nothing is left behind.

use std::collections::VecDeque;
use std::process::Stdio;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWriteExt, BufReader};

use super::session::{RawPages, connect, list};
use super::{CrawlOptions, CrawledServer, ServerFailure, failure, mask_secrets};
use crate::host_config::LaunchSpec;

/// Longest stdout line passed on; longer lines are dropped (and counted as noise).
const MAX_LINE: usize = 64 << 20;
/// How much of the child's stderr is kept for the failure report.
const STDERR_TAIL: usize = 2048;

/// A running stdio server: the child (own process group), the filtered stream rmcp reads, and the
/// background tasks that filter stdout and drain stderr.
pub(crate) struct StdioChild {
    child: tokio::process::Child,
    /// The child's process group (its pid), kept so the group can be ended even after the leader is reaped.
    pgid: Option<libc::pid_t>,
    filter: tokio::task::JoinHandle<()>,
    drain: tokio::task::JoinHandle<()>,
    tail: Arc<Mutex<VecDeque<u8>>>,
    /// Raw `tools/list` pages seen on stdout.
    pub(crate) raw: Arc<RawPages>,
    /// Non-protocol stdout lines skipped.
    pub(crate) noise: Arc<Noise>,
    /// The server answered with bytes that are not UTF-8 (the filter answered the request with an error).
    non_utf8: Arc<std::sync::atomic::AtomicBool>,
    secrets: Vec<String>,
}

/// The reason given when a server answered with bytes that are not UTF-8.
const NOT_UTF8: &str = "the server's response is not valid UTF-8 (MCP messages must be UTF-8)";

/// Non-protocol lines a server printed on stdout: how many, and the first one (for the failure report).
#[derive(Debug, Default)]
pub(crate) struct Noise {
    count: AtomicUsize,
    first: Mutex<Option<String>>,
}

/// How much of the first non-protocol line the failure report quotes.
const NOISE_QUOTE: usize = 120;

impl Noise {
    fn record(&self, line: &[u8]) {
        if self.count.fetch_add(1, Ordering::Relaxed) == 0 {
            let text: String = String::from_utf8_lossy(line).chars().take(NOISE_QUOTE).collect();
            *self.first.lock().expect("noise lock") = Some(text);
        }
    }

    /// Lines counted so far.
    pub(crate) fn count(&self) -> usize {
        self.count.load(Ordering::Relaxed)
    }

    /// What a failure report adds: the count and the first line, or nothing when stdout was clean.
    fn explain(&self) -> String {
        let first = self.first.lock().expect("noise lock").clone();
        match (self.count(), first) {
            (0, _) | (_, None) => String::new(),
            (n, Some(line)) => format!(
                "; the server printed {n} non-protocol line(s) on stdout (MCP stdio allows only JSON-RPC there), first: {line:?}"
            ),
        }
    }
}

/// The two ends rmcp talks through: the filtered stdout and the child's stdin.
pub(crate) type StdioTransport = (tokio::io::DuplexStream, tokio::process::ChildStdin);

impl StdioChild {
    /// Starts the server described by a stdio `spec`.
    pub(crate) fn spawn(name: &str, spec: &LaunchSpec) -> Result<(StdioChild, StdioTransport), ServerFailure> {
        let LaunchSpec::Stdio { command, args, env, cwd } = spec else {
            return Err(failure(name, "spawn", "not a stdio server"));
        };
        let mut cmd = tokio::process::Command::new(command);
        cmd.args(args)
            .envs(env)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .process_group(0);
        if let Some(dir) = cwd {
            cmd.current_dir(dir);
        }
        let mut child = cmd.spawn().map_err(|e| failure(name, "spawn", format!("cannot start {command:?}: {e}")))?;
        let pgid = child.id().map(|pid| pid as libc::pid_t);
        let (stdin, stdout, stderr) = (child.stdin.take(), child.stdout.take(), child.stderr.take());
        let (Some(stdin), Some(stdout), Some(stderr)) = (stdin, stdout, stderr) else {
            unreachable!("all three pipes were requested")
        };
        let tail = Arc::new(Mutex::new(VecDeque::with_capacity(STDERR_TAIL)));
        let drain = tokio::spawn(drain_stderr(stderr, tail.clone()));
        let raw = Arc::new(RawPages::default());
        let noise = Arc::new(Noise::default());
        let non_utf8 = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let (rmcp_side, filter_side) = tokio::io::duplex(1 << 16);
        let filter = tokio::spawn(filter_stdout(stdout, filter_side, raw.clone(), noise.clone(), non_utf8.clone()));
        let secrets = env.values().cloned().collect();
        Ok((StdioChild { child, pgid, filter, drain, tail, raw, noise, non_utf8, secrets }, (rmcp_side, stdin)))
    }

    /// Ends the process group and returns what explains a failure: how the process exited if it had
    /// before we stopped it, and the end of its stderr (secrets masked).
    pub(crate) async fn stop(mut self) -> String {
        // A child whose stdout reached EOF is exiting or gone: give it a moment so the report can say how it
        // ended (closing stdout comes just before the exit status becomes visible).
        let exited_early = if self.filter.is_finished() {
            tokio::time::timeout(Duration::from_secs(1), self.child.wait()).await.ok().and_then(Result::ok)
        } else {
            self.child.try_wait().ok().flatten()
        };
        terminate(&mut self.child, self.pgid).await;
        self.filter.abort();
        // The child is gone; give the stderr pipe a moment to deliver its last bytes.
        let drain_abort = self.drain.abort_handle();
        if tokio::time::timeout(Duration::from_millis(500), self.drain).await.is_err() {
            drain_abort.abort();
        }
        let mut why = String::new();
        if let Some(status) = exited_early {
            why.push_str(&format!("; the process exited ({status})"));
        }
        let tail: Vec<u8> = self.tail.lock().expect("stderr tail lock").iter().copied().collect();
        let tail = String::from_utf8_lossy(&tail);
        let tail = tail.trim();
        if !tail.is_empty() {
            why.push_str(&format!("; stderr ends: {tail}"));
        }
        mask_secrets(&why, &self.secrets)
    }
}

pub(super) async fn crawl(
    name: &str,
    spec: &LaunchSpec,
    options: &CrawlOptions,
) -> Result<CrawledServer, ServerFailure> {
    let (child, transport) = StdioChild::spawn(name, spec)?;
    let (raw, noise, non_utf8) = (child.raw.clone(), child.noise.clone(), child.non_utf8.clone());
    let session = async {
        let client = connect(transport, options.protocol).await.map_err(|e| failure(name, "initialize", e))?;
        let listed = list(name, spec, &client, Some(&raw), options).await;
        let _ = client.cancel().await;
        listed
    };
    let result = match tokio::time::timeout(options.timeout, session).await {
        Ok(r) => r,
        Err(_) => Err(failure(name, "timeout", format!("no complete answer within {} s", options.timeout.as_secs()))),
    };
    let why = child.stop().await;
    match result {
        Ok(mut crawled) => {
            crawled.stdout_noise = noise.count();
            Ok(crawled)
        }
        Err(mut f) => {
            // What the filter saw decides the reason: rmcp may report the error response we put in place of
            // the unreadable one, or — when the server's exit closes the stream first — "Transport closed".
            if non_utf8.load(Ordering::Relaxed) && f.stage != "timeout" {
                f.reason = NOT_UTF8.to_string();
            }
            f.reason.push_str(&noise.explain());
            f.reason.push_str(&why);
            f.reason = mask_secrets(&f.reason, spec_secrets(spec));
            Err(f)
        }
    }
}

fn spec_secrets(spec: &LaunchSpec) -> Vec<&String> {
    match spec {
        LaunchSpec::Stdio { env, .. } => env.values().collect(),
        LaunchSpec::Http { headers, .. } => headers.values().collect(),
    }
}

/// Passes JSON-RPC lines from `stdout` to `to_rmcp`; skips everything else; captures raw tool pages.
async fn filter_stdout(
    stdout: impl AsyncRead + Unpin,
    mut to_rmcp: tokio::io::DuplexStream,
    raw: Arc<RawPages>,
    noise: Arc<Noise>,
    non_utf8: Arc<std::sync::atomic::AtomicBool>,
) {
    let mut reader = BufReader::with_capacity(1 << 16, stdout);
    let mut line = Vec::new();
    loop {
        line.clear();
        let too_long = match read_line_bounded(&mut reader, &mut line).await {
            Ok(None) => break,
            Ok(Some(too_long)) => too_long,
            Err(_) => break,
        };
        let body = line.strip_suffix(b"\n").unwrap_or(&line);
        let body = body.strip_suffix(b"\r").unwrap_or(body);
        if body.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let mut message = if too_long { None } else { serde_json::from_slice::<Value>(body).ok() };
        if message.is_none() && !too_long && std::str::from_utf8(body).is_err() {
            // A response that is JSON-RPC but not UTF-8 (MCP requires UTF-8): answer its request with an
            // error instead of letting the client wait for a response that will never parse.
            let lossy: Option<Value> = serde_json::from_str(&String::from_utf8_lossy(body)).ok();
            if let Some(id) = lossy.as_ref().filter(|m| m.get("method").is_none()).and_then(|m| m.get("id")) {
                message = Some(serde_json::json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32603,
                    "message": NOT_UTF8}}));
                non_utf8.store(true, Ordering::Relaxed);
            }
        }
        let is_rpc = message
            .as_ref()
            .is_some_and(|m| m.get("jsonrpc").is_some() && (m.get("id").is_some() || m.get("method").is_some()));
        if !is_rpc {
            noise.record(body);
            continue;
        }
        if let Some(Value::Array(tools)) = message.as_ref().and_then(|m| m.pointer("/result/tools")) {
            raw.push(tools.clone());
        }
        let replaced;
        let body = match &message {
            Some(m) if m.pointer("/error/code") == Some(&Value::from(-32603)) && std::str::from_utf8(body).is_err() => {
                replaced = m.to_string().into_bytes();
                replaced.as_slice()
            }
            _ => body,
        };
        if to_rmcp.write_all(body).await.is_err() || to_rmcp.write_all(b"\n").await.is_err() {
            break;
        }
    }
}

/// Reads one line into `line` (at most [`MAX_LINE`] bytes kept). `None` at EOF, else whether it was cut.
async fn read_line_bounded(
    reader: &mut (impl AsyncBufReadExt + Unpin),
    line: &mut Vec<u8>,
) -> std::io::Result<Option<bool>> {
    let mut too_long = false;
    let mut any = false;
    loop {
        let buf = reader.fill_buf().await?;
        if buf.is_empty() {
            return Ok(if any { Some(too_long) } else { None });
        }
        any = true;
        let (chunk, done) = match buf.iter().position(|b| *b == b'\n') {
            Some(i) => (&buf[..=i], true),
            None => (buf, false),
        };
        let n = chunk.len();
        if line.len() + n <= MAX_LINE {
            line.extend_from_slice(chunk);
        } else {
            too_long = true;
        }
        reader.consume(n);
        if done {
            return Ok(Some(too_long));
        }
    }
}

async fn drain_stderr(mut stderr: impl AsyncRead + Unpin, tail: Arc<Mutex<VecDeque<u8>>>) {
    let mut buf = [0u8; 4096];
    while let Ok(n) = stderr.read(&mut buf).await {
        if n == 0 {
            break;
        }
        let mut tail = tail.lock().expect("stderr tail lock");
        tail.extend(&buf[..n]);
        let excess = tail.len().saturating_sub(STDERR_TAIL);
        tail.drain(..excess);
    }
}

/// Ends the child's whole process group: SIGTERM, a short grace, then SIGKILL; then reaps the child.
async fn terminate(child: &mut tokio::process::Child, pgid: Option<libc::pid_t>) {
    let Some(pgid) = pgid else {
        let _ = child.wait().await;
        return;
    };
    // SAFETY: killpg has no memory-safety preconditions; the group id is our child's own group.
    unsafe { libc::killpg(pgid, libc::SIGTERM) };
    if tokio::time::timeout(Duration::from_secs(2), child.wait()).await.is_err() {
        // SAFETY: as above.
        unsafe { libc::killpg(pgid, libc::SIGKILL) };
        let _ = child.wait().await;
    } else {
        // The leader is gone; make sure no grandchild of it lingers in the group.
        // SAFETY: as above.
        unsafe { libc::killpg(pgid, libc::SIGKILL) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use tokio::io::AsyncReadExt;

    /// Feeds `stdout` through the filter; returns what rmcp would read, the noise count and raw pages.
    fn run_filter(stdout: Vec<u8>) -> (Vec<u8>, usize, usize) {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
        runtime.block_on(async move {
            let (mut rmcp_side, filter_side) = tokio::io::duplex(1 << 20);
            let raw = Arc::new(RawPages::default());
            let noise = Arc::new(Noise::default());
            let non_utf8 = Arc::new(std::sync::atomic::AtomicBool::new(false));
            filter_stdout(stdout.as_slice(), filter_side, raw.clone(), noise.clone(), non_utf8).await;
            let mut passed = Vec::new();
            rmcp_side.read_to_end(&mut passed).await.expect("read");
            let pages = raw.len();
            (passed, noise.count(), pages)
        })
    }

    #[test]
    fn only_json_rpc_lines_pass_and_tool_pages_are_captured() {
        let stdout = b"Starting server...\n{\"level\":\"info\",\"msg\":\"pino log\"}\n\xff\xfe not utf8\n\
{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tools\":[{\"name\":\"a\",\"zeta\":1}]}}\r\n\n\
{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{}}\n"
            .to_vec();
        let (passed, noise, pages) = run_filter(stdout);
        let text = String::from_utf8(passed).expect("utf8");
        assert_eq!(text.lines().count(), 2, "{text}");
        assert!(text.starts_with("{\"jsonrpc\":\"2.0\",\"id\":1"));
        assert_eq!((noise, pages), (3, 1));
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]
        /// Whatever a server writes, the filter passes only JSON-RPC objects, one per line, and never panics.
        #[test]
        fn arbitrary_stdout_never_breaks_the_filter(lines in proptest::collection::vec(prop_oneof![
            proptest::collection::vec(any::<u8>(), 0..60),
            ".{0,40}".prop_map(String::into_bytes),
            Just(b"{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}".to_vec()),
        ], 0..12)) {
            let stdout: Vec<u8> = lines.iter().flat_map(|l| l.iter().copied().chain([b'\n'])).collect();
            let (passed, _, _) = run_filter(stdout);
            for line in passed.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
                let v: serde_json::Value = serde_json::from_slice(line).expect("only JSON passes");
                prop_assert!(v.get("jsonrpc").is_some());
            }
        }
    }
}

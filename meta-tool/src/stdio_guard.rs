//! The stdio transport's front door: every line a client writes must be a JSON-RPC message; one that is
//! not JSON gets the JSON-RPC `-32700 Parse error` answer (id `null`) instead of silence, and the session
//! goes on. rmcp reads and writes through in-memory pipes; one writer task owns the real stdout, so its
//! answers and ours never interleave within a line.

use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader, DuplexStream};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

/// What a line that is not JSON is answered with.
pub(crate) const PARSE_ERROR: &str =
    r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: a line that is not JSON"}}"#;

/// Pipe size between the guard and rmcp.
const PIPE: usize = 1 << 16;

/// Puts the guard between `input`/`output` and rmcp: returns the two ends rmcp serves over (read, write)
/// and the task that owns `output` (await it after the session ends so the last answers are flushed).
pub(crate) fn guard<R, W>(input: R, output: W) -> ((DuplexStream, DuplexStream), JoinHandle<()>)
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let (rmcp_reads, mut feed) = tokio::io::duplex(PIPE);
    let (rmcp_writes, drain) = tokio::io::duplex(PIPE);
    let (lines, mut to_write) = mpsc::channel::<Vec<u8>>(64);

    let errors = lines.clone();
    tokio::spawn(async move {
        let mut input = BufReader::new(input);
        let mut line = Vec::new();
        loop {
            line.clear();
            match input.read_until(b'\n', &mut line).await {
                Ok(0) | Err(_) => break, // EOF: dropping `feed` ends rmcp's session
                Ok(_) => {}
            }
            let body = line.trim_ascii();
            if body.is_empty() {
                continue;
            }
            if serde_json::from_slice::<serde::de::IgnoredAny>(body).is_err() {
                if errors.send(PARSE_ERROR.as_bytes().to_vec()).await.is_err() {
                    break;
                }
                continue;
            }
            if feed.write_all(body).await.is_err() || feed.write_all(b"\n").await.is_err() {
                break;
            }
        }
    });

    tokio::spawn(async move {
        let mut drain = BufReader::new(drain);
        loop {
            let mut line = Vec::new();
            match drain.read_until(b'\n', &mut line).await {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            if line.ends_with(b"\n") {
                line.pop();
            }
            if lines.send(line).await.is_err() {
                break;
            }
        }
    });

    let writer = tokio::spawn(async move {
        let mut output = output;
        while let Some(mut line) = to_write.recv().await {
            line.push(b'\n');
            if output.write_all(&line).await.is_err() || output.flush().await.is_err() {
                break;
            }
        }
    });
    ((rmcp_reads, rmcp_writes), writer)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncReadExt;

    #[tokio::test]
    async fn a_line_that_is_not_json_is_answered_and_the_rest_passes() {
        let (mut client, server_in) = tokio::io::duplex(PIPE);
        let (server_out, mut client_reads) = tokio::io::duplex(PIPE);
        let ((mut rmcp_reads, mut rmcp_writes), writer) = guard(server_in, server_out);
        client
            .write_all(b"this is not json\n\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\r\n")
            .await
            .expect("write");
        drop(client);
        let mut passed = String::new();
        rmcp_reads.read_to_string(&mut passed).await.expect("read");
        assert_eq!(passed, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n", "only the JSON line reaches rmcp");
        rmcp_writes.write_all(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n").await.expect("write");
        drop(rmcp_writes);
        writer.await.expect("writer");
        let mut out = String::new();
        client_reads.read_to_string(&mut out).await.expect("read");
        let lines: Vec<serde_json::Value> = out.lines().map(|l| serde_json::from_str(l).expect("json line")).collect();
        assert_eq!(lines.len(), 2, "{out}");
        assert_eq!(lines[0]["error"]["code"], -32700);
        assert_eq!(lines[0]["id"], serde_json::Value::Null);
        assert_eq!(lines[1]["id"], 1);
    }
}

//! Crawling a server over Streamable HTTP with rmcp's reqwest client.
//!
//! rmcp decodes HTTP responses into its typed model before we can see them, so tool objects from HTTP
//! crawls are rmcp's re-serialization and are marked `derived` (fields rmcp does not model are lost).

use std::collections::HashMap;

use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;

use super::session::{connect, list};
use super::{CrawlOptions, CrawledServer, ServerFailure, failure, mask_secrets};
use crate::host_config::LaunchSpec;

/// A Streamable HTTP client transport for `spec`, with its headers (a bearer `Authorization` becomes
/// rmcp's auth header).
pub(super) fn transport(
    name: &str,
    spec: &LaunchSpec,
) -> Result<StreamableHttpClientTransport<reqwest::Client>, ServerFailure> {
    let LaunchSpec::Http { url, headers } = spec else {
        return Err(failure(name, "connect", "not an HTTP server"));
    };
    let mut config = StreamableHttpClientTransportConfig::with_uri(url.as_str());
    let mut custom = HashMap::new();
    for (k, v) in headers {
        if k.eq_ignore_ascii_case("authorization") {
            let token = v.strip_prefix("Bearer ").unwrap_or(v);
            config = config.auth_header(token.to_string());
            continue;
        }
        match (http::HeaderName::from_bytes(k.as_bytes()), http::HeaderValue::from_str(v)) {
            (Ok(hk), Ok(hv)) => {
                custom.insert(hk, hv);
            }
            _ => return Err(failure(name, "connect", format!("header {k:?} is not a valid HTTP header"))),
        }
    }
    Ok(StreamableHttpClientTransport::from_config(config.custom_headers(custom)))
}

pub(super) async fn crawl(
    name: &str,
    spec: &LaunchSpec,
    options: &CrawlOptions,
) -> Result<CrawledServer, ServerFailure> {
    let transport = transport(name, spec)?;
    let session = async {
        let client = connect(transport, options.protocol).await.map_err(|e| failure(name, "initialize", e))?;
        let listed = list(name, spec, &client, None, options).await;
        let _ = client.cancel().await;
        listed
    };
    let result = match tokio::time::timeout(options.timeout, session).await {
        Ok(r) => r,
        Err(_) => Err(failure(name, "timeout", format!("no complete answer within {} s", options.timeout.as_secs()))),
    };
    result.map_err(|mut f| {
        if let LaunchSpec::Http { headers, .. } = spec {
            f.reason = mask_secrets(&f.reason, headers.values());
        }
        f
    })
}

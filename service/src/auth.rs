//! Who may call: the bearer-token check and the `Origin` check, shared by the REST API and the
//! meta-tool's Streamable HTTP server so both decide the same way (tokens compared in constant time).

use axum::http::{HeaderMap, header};

/// Whether `headers` carry `Authorization: Bearer <token>`, compared in constant time.
pub fn bearer_matches(headers: &HeaderMap, token: &str) -> bool {
    constant_time_eq(bearer(headers).unwrap_or("").as_bytes(), token.as_bytes())
}

/// The token of an `Authorization: Bearer <token>` header.
pub fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()).and_then(|v| v.strip_prefix("Bearer "))
}

/// Byte equality whose time does not depend on where the inputs differ.
pub(crate) fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Whether a request's `Origin` may call us: no `Origin` (not a browser), a loopback origin
/// (`http://localhost:*`, `http://127.0.0.1:*`, `http://[::1]:*`), or one listed in `allowed`. A web
/// page the user happens to open elsewhere cannot drive a local toolscout (DNS rebinding, CSRF).
pub fn origin_allowed(headers: &HeaderMap, allowed: &[String]) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else { return true };
    let Ok(origin) = origin.to_str() else { return false };
    let origin = origin.trim_end_matches('/');
    if allowed.iter().any(|a| a.trim_end_matches('/').eq_ignore_ascii_case(origin)) {
        return true;
    }
    let Some(rest) = origin.strip_prefix("http://").or_else(|| origin.strip_prefix("https://")) else { return false };
    let host = if let Some(v6) = rest.strip_prefix('[') {
        v6.split(']').next().map(|h| format!("[{h}]")).unwrap_or_default()
    } else {
        rest.split(':').next().unwrap_or("").to_string()
    };
    matches!(host.to_ascii_lowercase().as_str(), "localhost" | "127.0.0.1" | "[::1]")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_only_the_exact_bearer_token() {
        let with = |v: &str| {
            let mut h = HeaderMap::new();
            h.insert(header::AUTHORIZATION, v.parse().expect("header"));
            h
        };
        assert!(bearer_matches(&with("Bearer s3cret"), "s3cret"));
        assert!(!bearer_matches(&with("Bearer s3cre"), "s3cret"));
        assert!(!bearer_matches(&with("Bearer s3creT"), "s3cret"));
        assert!(!bearer_matches(&with("s3cret"), "s3cret"));
        assert!(!bearer_matches(&HeaderMap::new(), "s3cret"));
    }

    #[test]
    fn only_loopback_or_listed_origins() {
        let with = |v: &str| {
            let mut h = HeaderMap::new();
            h.insert(header::ORIGIN, v.parse().expect("header"));
            h
        };
        let none: Vec<String> = Vec::new();
        assert!(origin_allowed(&HeaderMap::new(), &none), "no Origin: not a browser");
        for ok in ["http://localhost:3000", "http://127.0.0.1:7070", "http://[::1]:8080", "https://localhost"] {
            assert!(origin_allowed(&with(ok), &none), "{ok}");
        }
        for bad in ["https://evil.example", "http://localhost.evil.example", "null", "http://127.0.0.2:80"] {
            assert!(!origin_allowed(&with(bad), &none), "{bad}");
        }
        assert!(origin_allowed(&with("https://app.example/"), &["https://app.example".to_string()]));
    }
}

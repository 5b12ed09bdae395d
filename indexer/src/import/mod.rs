//! Importers: turn public tool catalogs into our [`Catalog`].
//!
//! Formats: our own catalog JSONL, LiveMCPBench `tools.json`, MCP-Zero `mcp_tools.jsonl`, the Docker MCP
//! registry dump `servers_with_tools.jsonl`, and the raw crawl dump `mcp-crawl.json` in `../shared/`.
//! The format is detected from the content unless given. Where a source has no MCP `Tool` object (MCP-Zero's
//! `parameter` map, Docker's `arguments` list) the object is built explicitly and the record is marked
//! `derived`; everything else is kept verbatim.

mod docker;
mod livemcpbench;
mod mcp_crawl;
mod mcp_zero;

use std::path::Path;

use serde_json::Value;

use crate::catalog::{Catalog, ToolRecord};
use crate::{Error, Result};

/// The catalog formats [`import_catalog`] understands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CatalogFormat {
    /// Our catalog JSONL (one `ServerRecord` per line), as `toolscout crawl` writes it.
    Toolscout,
    /// LiveMCPBench `tools.json`.
    LiveMcpBench,
    /// MCP-Zero `mcp_tools.jsonl`.
    McpZero,
    /// Docker MCP registry `servers_with_tools.jsonl`.
    DockerRegistry,
    /// The raw crawl dump `mcp-crawl.json` (`{"servers": [...]}` with `tools/list` results).
    McpCrawl,
}

impl std::str::FromStr for CatalogFormat {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Ok(match s {
            "toolscout" | "catalog" => CatalogFormat::Toolscout,
            "livemcpbench" => CatalogFormat::LiveMcpBench,
            "mcp-zero" => CatalogFormat::McpZero,
            "docker-registry" => CatalogFormat::DockerRegistry,
            "mcp-crawl" => CatalogFormat::McpCrawl,
            other => {
                return Err(format!(
                    "unknown catalog format {other:?} (toolscout, livemcpbench, mcp-zero, docker-registry, mcp-crawl)"
                ));
            }
        })
    }
}

/// Reads a catalog file, detecting its format unless `format` is given. Returns the catalog and warnings
/// (records that were skipped and why).
pub fn import_catalog(path: &Path, format: Option<CatalogFormat>) -> Result<(Catalog, Vec<String>)> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io("reading catalog", path, e))?;
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    import_catalog_str(&text, &name, format)
}

/// Like [`import_catalog`], over a string; `name` labels errors and record origins.
pub fn import_catalog_str(text: &str, name: &str, format: Option<CatalogFormat>) -> Result<(Catalog, Vec<String>)> {
    let format = match format {
        Some(f) => f,
        None => detect(text)
            .ok_or_else(|| Error::bad_input(name, "cannot tell the catalog format; pass it explicitly (--format)"))?,
    };
    let mut warnings = Vec::new();
    let catalog = match format {
        CatalogFormat::Toolscout => Catalog::read_jsonl_reporting(text.as_bytes(), name, &mut warnings)?,
        CatalogFormat::LiveMcpBench => livemcpbench::import(&parse_json(text, name)?, name, &mut warnings)?,
        CatalogFormat::McpCrawl => mcp_crawl::import(&parse_json(text, name)?, name, &mut warnings)?,
        CatalogFormat::McpZero => mcp_zero::import(&parse_jsonl(text, name)?, name, &mut warnings)?,
        CatalogFormat::DockerRegistry => docker::import(&parse_jsonl(text, name)?, name, &mut warnings)?,
    };
    Ok((catalog, warnings))
}

fn detect(text: &str) -> Option<CatalogFormat> {
    let trimmed = text.trim_start();
    if trimmed.starts_with('[') {
        return Some(CatalogFormat::LiveMcpBench);
    }
    if let Ok(whole) = serde_json::from_str::<Value>(trimmed)
        && whole.get("servers").is_some_and(Value::is_array)
    {
        return Some(CatalogFormat::McpCrawl);
    }
    let first: Value = serde_json::from_str(trimmed.lines().next()?).ok()?;
    if first.get("server_id").is_some() && first.get("source").is_some() {
        return Some(CatalogFormat::Toolscout);
    }
    if first.get("readme_file").is_some() || first.get("summary").is_some() {
        return Some(CatalogFormat::McpZero);
    }
    if first.get("server").is_some() && first.get("source_path").is_some() {
        return Some(CatalogFormat::DockerRegistry);
    }
    None
}

fn parse_json(text: &str, name: &str) -> Result<Value> {
    serde_json::from_str(text).map_err(|e| Error::bad_input(name, format!("not valid JSON: {e}")))
}

fn parse_jsonl(text: &str, name: &str) -> Result<Vec<Value>> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str(l).map_err(|e| Error::bad_input(format!("{name} line {}", i + 1), e.to_string()))
        })
        .collect()
}

/// Adds tools to a server record, skipping (with a warning) bad tools and repeated names.
pub(crate) fn push_tools(
    tools: impl IntoIterator<Item = Result<ToolRecord>>,
    into: &mut Vec<ToolRecord>,
    server: &str,
    warnings: &mut Vec<String>,
) {
    for tool in tools {
        match tool {
            Ok(t) if into.iter().any(|have| have.name == t.name) => {
                warnings.push(format!("server {server}: duplicate tool name {:?}, kept the first", t.name));
            }
            Ok(t) => into.push(t),
            Err(e) => warnings.push(format!("server {server}: tool rejected: {e}")),
        }
    }
}

pub(crate) fn str_field(v: &Value, key: &str) -> Option<String> {
    v.get(key).and_then(Value::as_str).map(str::trim).filter(|s| !s.is_empty()).map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]
        /// Garbage in any detected format is an error or a catalog, never a panic.
        #[test]
        fn importers_never_panic(text in "\\PC{0,300}", format in proptest::option::of(prop_oneof![
            Just(CatalogFormat::Toolscout), Just(CatalogFormat::LiveMcpBench), Just(CatalogFormat::McpZero),
            Just(CatalogFormat::DockerRegistry), Just(CatalogFormat::McpCrawl)])) {
            let _ = import_catalog_str(&text, "fuzz", format);
        }

        /// Structurally plausible but wrong documents too.
        #[test]
        fn plausible_documents_never_panic(name in proptest::option::of(".{0,10}"), tools in proptest::collection::vec(any::<i32>().prop_map(|n| serde_json::json!({"name": n, "parameter": n})), 0..4)) {
            let row = serde_json::json!({"name": name, "summary": 1, "tools": tools});
            let _ = import_catalog_str(&row.to_string(), "fuzz", None);
            let live = serde_json::json!([{"name": name, "tools": {"k": {"tools": tools}}}]);
            let _ = import_catalog_str(&live.to_string(), "fuzz", None);
        }
    }
}

//! MCP host configuration files: the `mcpServers` JSON of Claude Desktop and Cursor, the VS Code
//! `servers` variant, and server manifests (a JSON array of argv launches, as in `../shared/mcp-servers.json`). Each entry is either a stdio launch (`command`, `args`, `env`, `cwd`) or a
//! Streamable HTTP endpoint (`url`, `headers`).
//!
//! Env values and headers are passed to the server when it is crawled; they are never written into the
//! catalog or logs (the [`std::fmt::Debug`] of a [`LaunchSpec`] hides their values).

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

use crate::{Error, Result};

/// How to reach one MCP server.
#[derive(Clone, PartialEq)]
pub enum LaunchSpec {
    /// A child process speaking MCP over stdin/stdout.
    Stdio {
        /// Program to run.
        command: String,
        /// Its arguments.
        args: Vec<String>,
        /// Extra environment variables (secrets: never logged or stored).
        env: BTreeMap<String, String>,
        /// Working directory, if set.
        cwd: Option<String>,
    },
    /// A Streamable HTTP endpoint.
    Http {
        /// The endpoint URL.
        url: String,
        /// Extra request headers (secrets: never logged or stored).
        headers: BTreeMap<String, String>,
    },
}

impl std::fmt::Debug for LaunchSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LaunchSpec::Stdio { command, args, env, cwd } => f
                .debug_struct("Stdio")
                .field("command", command)
                .field("args", args)
                .field("env", &env.keys().collect::<Vec<_>>())
                .field("cwd", cwd)
                .finish(),
            LaunchSpec::Http { url, headers } => {
                f.debug_struct("Http").field("url", url).field("headers", &headers.keys().collect::<Vec<_>>()).finish()
            }
        }
    }
}

impl LaunchSpec {
    /// What identifies this server in a catalog's `source.origin`: the command line or URL, no secrets,
    /// and no path of the crawling machine (an absolute path is reduced to its last component), so a
    /// catalog reads the same wherever it was crawled.
    pub fn origin(&self) -> String {
        let portable = |word: &str| -> String {
            if word.starts_with('/') || word.starts_with("~/") {
                Path::new(word)
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_else(|| word.to_string())
            } else {
                word.to_string()
            }
        };
        match self {
            LaunchSpec::Stdio { command, args, .. } => std::iter::once(command.as_str())
                .chain(args.iter().map(String::as_str))
                .map(portable)
                .collect::<Vec<_>>()
                .join(" "),
            LaunchSpec::Http { url, .. } => url.clone(),
        }
    }

    /// `stdio` or `streamable_http`.
    pub fn kind(&self) -> &'static str {
        match self {
            LaunchSpec::Stdio { .. } => "stdio",
            LaunchSpec::Http { .. } => "streamable_http",
        }
    }
}

/// The servers of one host configuration file, in file order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HostConfig {
    /// `(name, how to reach it)`; disabled entries are left out.
    pub servers: Vec<(String, LaunchSpec)>,
}

impl HostConfig {
    /// Reads a host configuration file.
    pub fn read(path: &Path) -> Result<HostConfig> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::io("reading config", path, e))?;
        HostConfig::parse(&text).map_err(|e| match e {
            Error::BadInput { what, message } => {
                Error::BadInput { what: format!("{} ({what})", path.display()), message }
            }
            other => other,
        })
    }

    /// Replaces `$NAME` and `${NAME}` in commands, arguments, env values, working directories and URLs
    /// (for manifests written with placeholders such as `$MCP_HOME`).
    pub fn expand(&mut self, name: &str, value: &str) {
        let sub = |s: &mut String| *s = s.replace(&format!("${{{name}}}"), value).replace(&format!("${name}"), value);
        for (_, spec) in &mut self.servers {
            match spec {
                LaunchSpec::Stdio { command, args, env, cwd } => {
                    sub(command);
                    args.iter_mut().for_each(sub);
                    env.values_mut().for_each(sub);
                    if let Some(c) = cwd {
                        sub(c);
                    }
                }
                LaunchSpec::Http { url, .. } => sub(url),
            }
        }
    }

    /// Runs every stdio server inside a fresh network namespace with only a loopback (`unshare -n`), so
    /// nothing a third-party server tries leaves the machine. Needs root (or user namespaces).
    pub fn isolate(&mut self) {
        for (_, spec) in &mut self.servers {
            if let LaunchSpec::Stdio { command, args, .. } = spec
                && command != "unshare"
            {
                args.insert(0, std::mem::replace(command, "unshare".into()));
                args.insert(0, "-n".into());
            }
        }
    }

    /// Parses `{"mcpServers": {...}}`, `{"servers": {...}}`, or a manifest: a JSON array of
    /// `{"name", "command": [argv…], "env": {...}}` entries (as in `../shared/mcp-servers.json`).
    pub fn parse(text: &str) -> Result<HostConfig> {
        let doc: Value =
            serde_json::from_str(text).map_err(|e| Error::bad_input("mcpServers config", e.to_string()))?;
        if let Some(entries) = doc.as_array() {
            return parse_manifest(entries);
        }
        let servers = doc
            .get("mcpServers")
            .or_else(|| doc.get("servers"))
            .and_then(Value::as_object)
            .ok_or_else(|| Error::bad_input("mcpServers config", "no `mcpServers` (or `servers`) object"))?;
        let mut out = Vec::new();
        for (name, entry) in servers {
            let what = format!("server {name:?}");
            let obj = entry.as_object().ok_or_else(|| Error::bad_input(&what, "entry is not an object"))?;
            if obj.get("disabled").and_then(Value::as_bool) == Some(true) {
                continue;
            }
            let strings = |key: &str| -> Result<BTreeMap<String, String>> {
                let mut map = BTreeMap::new();
                for (k, v) in obj.get(key).and_then(Value::as_object).into_iter().flatten() {
                    let v = match v {
                        Value::String(s) => s.clone(),
                        Value::Number(n) => n.to_string(),
                        Value::Bool(b) => b.to_string(),
                        _ => return Err(Error::bad_input(&what, format!("`{key}.{k}` is not a string"))),
                    };
                    map.insert(k.clone(), v);
                }
                Ok(map)
            };
            let spec = if let Some(url) = obj.get("url").or_else(|| obj.get("serverUrl")) {
                let url = url.as_str().ok_or_else(|| Error::bad_input(&what, "`url` is not a string"))?;
                if !(url.starts_with("http://") || url.starts_with("https://")) {
                    return Err(Error::bad_input(&what, format!("`url` {url:?} is not an http(s) URL")));
                }
                LaunchSpec::Http { url: url.to_string(), headers: strings("headers")? }
            } else {
                let command = obj
                    .get("command")
                    .and_then(Value::as_str)
                    .filter(|c| !c.trim().is_empty())
                    .ok_or_else(|| Error::bad_input(&what, "needs a `command` (stdio) or a `url` (HTTP)"))?;
                let args = match obj.get("args") {
                    None | Some(Value::Null) => Vec::new(),
                    Some(Value::Array(items)) => items
                        .iter()
                        .map(|a| {
                            a.as_str()
                                .map(str::to_string)
                                .ok_or_else(|| Error::bad_input(&what, "`args` must be strings"))
                        })
                        .collect::<Result<_>>()?,
                    Some(_) => return Err(Error::bad_input(&what, "`args` is not an array")),
                };
                let cwd = obj.get("cwd").and_then(Value::as_str).map(str::to_string);
                LaunchSpec::Stdio { command: command.to_string(), args, env: strings("env")?, cwd }
            };
            out.push((name.clone(), spec));
        }
        Ok(HostConfig { servers: out })
    }
}

fn parse_manifest(entries: &[Value]) -> Result<HostConfig> {
    let mut servers = Vec::new();
    for (i, entry) in entries.iter().enumerate() {
        let what = format!("manifest entry {i}");
        let name = entry.get("name").and_then(Value::as_str).ok_or_else(|| Error::bad_input(&what, "no `name`"))?;
        if entry.get("command").is_none_or(Value::is_null) && entry.get("ok") == Some(&Value::Bool(false)) {
            // A manifest records packages that never got a launch command (no `bin`, failed install).
            continue;
        }
        let argv: Vec<String> = entry
            .get("command")
            .and_then(Value::as_array)
            .ok_or_else(|| Error::bad_input(&what, "`command` is not an argv array"))?
            .iter()
            .map(|a| a.as_str().map(str::to_string).ok_or_else(|| Error::bad_input(&what, "`command` must be strings")))
            .collect::<Result<_>>()?;
        let Some((command, args)) = argv.split_first() else {
            return Err(Error::bad_input(&what, "`command` is empty"));
        };
        let env = entry
            .get("env")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
            .filter_map(|(k, v)| v.as_str().map(|v| (k.clone(), v.to_string())))
            .collect();
        servers.push((
            name.to_string(),
            LaunchSpec::Stdio { command: command.clone(), args: args.to_vec(), env, cwd: None },
        ));
    }
    Ok(HostConfig { servers })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_stdio_http_and_vscode_variants() {
        let cfg = HostConfig::parse(
            r#"{"mcpServers": {
                "fs": {"command": "npx", "args": ["-y", "x"], "env": {"TOKEN": "s3cret", "N": 3}},
                "web": {"url": "http://127.0.0.1:3000/mcp", "headers": {"Authorization": "Bearer s3cret"}},
                "off": {"command": "x", "disabled": true}
            }}"#,
        )
        .expect("valid config");
        assert_eq!(cfg.servers.len(), 2);
        assert_eq!(cfg.servers[0].0, "fs");
        assert_eq!(cfg.servers[0].1.origin(), "npx -y x");
        let local = LaunchSpec::Stdio {
            command: "/home/me/.deps/bin/mcp-server-filesystem".into(),
            args: vec!["/home/me/work/fsroot".into(), "--flag".into()],
            env: Default::default(),
            cwd: None,
        };
        assert_eq!(local.origin(), "mcp-server-filesystem fsroot --flag", "no path of the crawling machine");
        assert_eq!(cfg.servers[1].1.kind(), "streamable_http");
        let debug = format!("{cfg:?}");
        assert!(!debug.contains("s3cret"), "secrets leak into Debug: {debug}");
        let vscode = HostConfig::parse(r#"{"servers": {"a": {"type": "stdio", "command": "a"}}}"#).expect("vscode");
        assert_eq!(vscode.servers.len(), 1);
    }

    #[test]
    fn manifests_with_placeholders() {
        let mut cfg = HostConfig::parse(
            r#"[{"name": "a", "command": ["$MCP_HOME/npm/a/bin", "--dir", "${MCP_HOME}/work"], "env": {"K": "$MCP_HOME/k"}, "ok": true}]"#,
        )
        .expect("manifest");
        cfg.expand("MCP_HOME", "/opt/mcp");
        cfg.isolate();
        cfg.isolate();
        let LaunchSpec::Stdio { command, args, env, .. } = &cfg.servers[0].1 else { panic!("stdio") };
        assert_eq!(command, "unshare");
        assert_eq!(args, &["-n", "/opt/mcp/npm/a/bin", "--dir", "/opt/mcp/work"]);
        assert_eq!(env["K"], "/opt/mcp/k");
        assert!(HostConfig::parse(r#"[{"name": "a", "command": []}]"#).is_err());
    }

    #[test]
    fn bad_configs_say_what_is_wrong() {
        let check = |text: &str, needle: &str| {
            let err = HostConfig::parse(text).expect_err("should fail").to_string();
            assert!(err.contains(needle), "{err:?} lacks {needle:?}");
        };
        check("{", "mcpServers config");
        check(r#"{"other": 1}"#, "no `mcpServers`");
        check(r#"{"mcpServers": {"a": {"args": []}}}"#, "needs a `command`");
        check(r#"{"mcpServers": {"a": {"command": "x", "args": "-y"}}}"#, "`args` is not an array");
        check(r#"{"mcpServers": {"a": {"url": "ftp://x"}}}"#, "not an http(s) URL");
    }
}

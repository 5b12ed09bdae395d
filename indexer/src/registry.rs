//! The official MCP Registry as a crawl source. The registry publishes `server.json` entries (reverse-DNS
//! `name`, `version`, `packages[]` to launch, `remotes[]` to connect to) but no tool lists, so each entry
//! becomes a launch spec for the ordinary crawl.
//!
//! Accepted input: one `server.json`, a list page (`{"servers": [{"server": {...}, "_meta": {...}}],
//! "metadata": {"nextCursor"}}`), or a JSON array of either. Entries whose status (in
//! `_meta["io.modelcontextprotocol.registry/official"].status`, or a top-level `status`) is not `active`
//! are skipped. Packages: `npm` runs the package's own binary from an existing install under
//! `npm_prefix` when the exact version is there (nothing fetched), else `npx -y identifier@version`;
//! `pypi` runs `uvx identifier==version`; `oci` runs `docker run -i --rm identifier:version`. Remotes
//! of type `streamable-http` become HTTP targets. A required environment variable or argument with no
//! value or default is reported, never guessed. Pure but for reading `package.json` files under the prefix.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::host_config::{HostConfig, LaunchSpec};
use crate::{Error, Result};

/// How packages are turned into commands.
#[derive(Debug, Clone, Default)]
pub struct RegistryOptions {
    /// An npm prefix (a folder with `node_modules/`) whose installed packages are used when the exact
    /// version is there.
    pub npm_prefix: Option<PathBuf>,
}

/// One registry entry, ready to crawl or not.
#[derive(Debug, Clone, PartialEq)]
pub struct RegistryServer {
    /// The registry name (`io.github.owner/server`).
    pub name: String,
    /// The entry's version.
    pub version: String,
    /// How to reach it, or why it cannot be crawled.
    pub launch: std::result::Result<LaunchSpec, String>,
    /// Registry name, version and what is launched (package or URL): kept as the catalog's provenance.
    pub provenance: String,
}

/// What a registry document held.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RegistryRead {
    /// Active entries.
    pub servers: Vec<RegistryServer>,
    /// Entries left out, with why (not active).
    pub skipped: Vec<(String, String)>,
    /// The next page's cursor, for a list page.
    pub next_cursor: Option<String>,
}

impl RegistryRead {
    /// The crawlable entries as a host config, each under the last segment of its name (`server-memory`),
    /// and the provenance of each by that name.
    pub fn host_config(&self) -> (HostConfig, BTreeMap<String, String>) {
        let mut servers = Vec::new();
        let mut provenance = BTreeMap::new();
        for s in &self.servers {
            if let Ok(spec) = &s.launch {
                let short = s.name.rsplit('/').next().unwrap_or(&s.name).to_string();
                provenance.insert(short.clone(), s.provenance.clone());
                servers.push((short, spec.clone()));
            }
        }
        (HostConfig { servers }, provenance)
    }
}

/// Parses a registry document (see the module docs).
pub fn parse_registry(text: &str, options: &RegistryOptions) -> Result<RegistryRead> {
    let doc: Value = serde_json::from_str(text).map_err(|e| Error::bad_input("registry document", e.to_string()))?;
    let mut read = RegistryRead::default();
    let items: Vec<&Value> = match &doc {
        Value::Array(items) => items.iter().collect(),
        Value::Object(o) if o.contains_key("servers") => {
            read.next_cursor = doc.pointer("/metadata/nextCursor").and_then(Value::as_str).map(str::to_string);
            o["servers"].as_array().map(|a| a.iter().collect()).unwrap_or_default()
        }
        Value::Object(_) => vec![&doc],
        _ => return Err(Error::bad_input("registry document", "not a server.json, a list page or an array")),
    };
    for item in items {
        let (server, meta) = match item.get("server") {
            Some(s) => (s, item.get("_meta")),
            None => (item, item.get("_meta")),
        };
        let name = server.get("name").and_then(Value::as_str).unwrap_or("").to_string();
        if name.is_empty() {
            return Err(Error::bad_input("registry entry", "an entry has no `name`"));
        }
        let status = meta
            .and_then(|m| m.get("io.modelcontextprotocol.registry/official"))
            .and_then(|o| o.get("status"))
            .or_else(|| server.get("status"))
            .and_then(Value::as_str)
            .unwrap_or("active");
        if status != "active" {
            read.skipped.push((name, format!("status is {status:?}, not active")));
            continue;
        }
        let version = server.get("version").and_then(Value::as_str).unwrap_or("").to_string();
        let (launch, what) = launch_of(server, options);
        let provenance = format!("{name}@{version} ({what})");
        read.servers.push(RegistryServer { name, version, launch, provenance });
    }
    Ok(read)
}

/// The first way to reach an entry: a package that can run, else a remote.
fn launch_of(server: &Value, options: &RegistryOptions) -> (std::result::Result<LaunchSpec, String>, String) {
    let mut problems = Vec::new();
    for package in server.get("packages").and_then(Value::as_array).into_iter().flatten() {
        match package_launch(package, options) {
            Ok(found) => return found,
            Err(why) => problems.push(why),
        }
    }
    for remote in server.get("remotes").and_then(Value::as_array).into_iter().flatten() {
        let kind = remote.get("type").and_then(Value::as_str).unwrap_or("");
        let Some(url) = remote.get("url").and_then(Value::as_str) else { continue };
        if kind != "streamable-http" {
            problems.push(format!("remote {url}: transport {kind:?} is not crawled (streamable-http only)"));
            continue;
        }
        if url.contains('{') {
            problems.push(format!("remote {url}: the URL has template variables without values"));
            continue;
        }
        let mut headers = BTreeMap::new();
        for h in remote.get("headers").and_then(Value::as_array).into_iter().flatten() {
            match (h.get("name").and_then(Value::as_str), input_value(h)) {
                (Some(n), Some(v)) => {
                    headers.insert(n.to_string(), v);
                }
                (Some(n), None) if h.get("isRequired").and_then(Value::as_bool) == Some(true) => {
                    problems.push(format!("remote {url}: required header {n} has no value"));
                }
                _ => {}
            }
        }
        if problems.iter().any(|p| p.starts_with(&format!("remote {url}:"))) {
            continue;
        }
        return (Ok(LaunchSpec::Http { url: url.to_string(), headers }), format!("remote {url}"));
    }
    let why = if problems.is_empty() { "no packages or remotes".to_string() } else { problems.join("; ") };
    (Err(why), "not crawlable".into())
}

/// An input's value: `value`, else `default`.
fn input_value(input: &Value) -> Option<String> {
    input.get("value").or_else(|| input.get("default")).and_then(Value::as_str).map(str::to_string)
}

fn package_launch(
    package: &Value,
    options: &RegistryOptions,
) -> std::result::Result<(std::result::Result<LaunchSpec, String>, String), String> {
    let kind = package.get("registryType").and_then(Value::as_str).unwrap_or("");
    let id = package.get("identifier").and_then(Value::as_str).ok_or("a package has no identifier")?;
    let version = package.get("version").and_then(Value::as_str).unwrap_or("latest");
    let transport = package.pointer("/transport/type").and_then(Value::as_str).unwrap_or("stdio");
    if transport != "stdio" {
        return Err(format!("{kind} {id}: transport {transport:?} needs a URL the registry does not give"));
    }
    let mut env = BTreeMap::new();
    for var in package.get("environmentVariables").and_then(Value::as_array).into_iter().flatten() {
        let Some(name) = var.get("name").and_then(Value::as_str) else { continue };
        match input_value(var) {
            Some(v) => {
                env.insert(name.to_string(), v);
            }
            None if var.get("isRequired").and_then(Value::as_bool) == Some(true) => {
                return Err(format!(
                    "{kind} {id}: required environment variable {name} has no value (set it in a host config \
                     and crawl that instead)"
                ));
            }
            None => {}
        }
    }
    let mut args = Vec::new();
    for arg in package.get("packageArguments").and_then(Value::as_array).into_iter().flatten() {
        let value = input_value(arg);
        let required = arg.get("isRequired").and_then(Value::as_bool) == Some(true);
        match (arg.get("type").and_then(Value::as_str), value) {
            (Some("named"), Some(v)) => {
                args.push(arg.get("name").and_then(Value::as_str).unwrap_or("").to_string());
                args.push(v);
            }
            (Some("positional"), Some(v)) => args.push(v),
            (_, None) if required => {
                let n = arg.get("name").or_else(|| arg.get("valueHint")).and_then(Value::as_str).unwrap_or("?");
                return Err(format!("{kind} {id}: required argument {n} has no value"));
            }
            _ => {}
        }
    }
    let (command, mut argv, what) = match kind {
        "npm" => match installed_npm_bin(options.npm_prefix.as_deref(), id, version) {
            Some(bin) => (bin.display().to_string(), Vec::new(), format!("npm {id}@{version}, installed")),
            None => {
                ("npx".to_string(), vec!["-y".to_string(), format!("{id}@{version}")], format!("npm {id}@{version}"))
            }
        },
        "pypi" => ("uvx".to_string(), vec![format!("{id}=={version}")], format!("pypi {id}=={version}")),
        "oci" => (
            "docker".to_string(),
            vec!["run".into(), "-i".into(), "--rm".into(), format!("{id}:{version}")],
            format!("oci {id}:{version}"),
        ),
        other => return Err(format!("{other} {id}: registry type {other:?} is not launched")),
    };
    argv.extend(args);
    Ok((Ok(LaunchSpec::Stdio { command, args: argv, env, cwd: None }), what))
}

/// The binary of npm package `id` at exactly `version` installed under `prefix`, if it is there.
fn installed_npm_bin(prefix: Option<&Path>, id: &str, version: &str) -> Option<PathBuf> {
    let package_dir = prefix?.join("node_modules").join(id);
    let manifest: Value = serde_json::from_slice(&std::fs::read(package_dir.join("package.json")).ok()?).ok()?;
    if manifest.get("version").and_then(Value::as_str) != Some(version) {
        return None;
    }
    let bin_name = match manifest.get("bin")? {
        Value::String(_) => id.rsplit('/').next()?.to_string(),
        Value::Object(bins) => bins.keys().next()?.clone(),
        _ => return None,
    };
    let bin = prefix?.join("node_modules/.bin").join(bin_name);
    bin.exists().then_some(bin)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read(doc: Value) -> RegistryRead {
        parse_registry(&doc.to_string(), &RegistryOptions::default()).expect("parses")
    }

    #[test]
    fn packages_remotes_status_and_missing_values() {
        let page = json!({"servers": [
            {"server": {"name": "io.github.a/memory", "version": "1.0.0", "packages": [
                {"registryType": "npm", "identifier": "@x/memory", "version": "2.0.0", "transport": {"type": "stdio"},
                 "environmentVariables": [{"name": "MEMORY_FILE_PATH", "default": "/tmp/m.jsonl"}]}]},
             "_meta": {"io.modelcontextprotocol.registry/official": {"status": "active"}}},
            {"server": {"name": "io.github.a/old", "version": "0.1.0", "packages": []},
             "_meta": {"io.modelcontextprotocol.registry/official": {"status": "deprecated"}}},
            {"server": {"name": "io.github.a/keyed", "version": "1.0.0", "packages": [
                {"registryType": "pypi", "identifier": "keyed-mcp", "version": "1.0.0", "transport": {"type": "stdio"},
                 "environmentVariables": [{"name": "API_KEY", "isRequired": true, "isSecret": true}]}]}},
            {"server": {"name": "com.example/remote", "version": "3", "remotes": [
                {"type": "streamable-http", "url": "https://mcp.example.com/mcp"}]}}
        ], "metadata": {"nextCursor": "abc"}});
        let r = read(page);
        assert_eq!(r.next_cursor.as_deref(), Some("abc"));
        assert_eq!(r.skipped, [("io.github.a/old".to_string(), "status is \"deprecated\", not active".to_string())]);
        assert_eq!(r.servers.len(), 3);
        let LaunchSpec::Stdio { command, args, env, .. } = r.servers[0].launch.clone().expect("npm") else {
            panic!("stdio")
        };
        assert_eq!((command.as_str(), args), ("npx", vec!["-y".to_string(), "@x/memory@2.0.0".to_string()]));
        assert_eq!(env.get("MEMORY_FILE_PATH").map(String::as_str), Some("/tmp/m.jsonl"));
        assert!(r.servers[0].provenance.contains("io.github.a/memory@1.0.0"), "{}", r.servers[0].provenance);
        let why = r.servers[1].launch.clone().expect_err("no key, not guessed");
        assert!(why.contains("API_KEY"), "{why}");
        assert!(matches!(r.servers[2].launch, Ok(LaunchSpec::Http { .. })));
        let (config, provenance) = r.host_config();
        let names: Vec<&str> = config.servers.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["memory", "remote"]);
        assert!(provenance["remote"].contains("com.example/remote@3"));
    }

    #[test]
    fn a_single_server_json_and_garbage() {
        let one = read(json!({"name": "io.github.a/b", "version": "1", "packages": [
            {"registryType": "oci", "identifier": "ghcr.io/a/b", "version": "1", "transport": {"type": "stdio"}}]}));
        assert_eq!(one.servers.len(), 1);
        assert!(parse_registry("[1, 2", &RegistryOptions::default()).is_err());
        assert!(parse_registry("42", &RegistryOptions::default()).is_err());
    }
}

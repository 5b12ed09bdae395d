//! `toolscout connect HOST` prints configs the hosts can load: every JSON variant is read back by our own
//! host-config reader (the one `crawl` and `--proxy` use) and the Codex one by a TOML parser; each names
//! this binary, the index and the model by absolute path, so the host can start it from anywhere.

use std::path::Path;

use serde_json::Value;
use toolscout_indexer::{HostConfig, LaunchSpec};

use crate::support::{index, run_ok, toolscout};

fn connect(host: &str) -> String {
    let out = run_ok(toolscout().args(["connect", host, "--index"]).arg(index()).args(["--name", "scout"]));
    String::from_utf8(out.stdout).expect("utf-8")
}

fn check_launch(command: &str, args: &[String], env: &[(String, String)]) {
    assert!(Path::new(command).is_absolute() && Path::new(command).exists(), "{command}");
    assert_eq!(args[0], "mcp");
    let i = args.iter().position(|a| a == "--index").expect("--index");
    assert!(Path::new(&args[i + 1]).is_absolute() && Path::new(&args[i + 1]).join("CURRENT").exists(), "{args:?}");
    for key in ["TOOLSCOUT_MODEL_DIR", "ORT_DYLIB_PATH"] {
        let (_, v) = env.iter().find(|(k, _)| k == key).unwrap_or_else(|| panic!("{key} missing: {env:?}"));
        assert!(Path::new(v).is_absolute() && Path::new(v).exists(), "{key}={v}");
    }
}

#[test]
fn every_json_host_config_reads_back_as_one_stdio_server() {
    for host in ["claude-desktop", "cursor", "vscode", "claude-code"] {
        let text = connect(host);
        let config = HostConfig::parse(&text).unwrap_or_else(|e| panic!("{host}: {e}\n{text}"));
        assert_eq!(config.servers.len(), 1, "{host}");
        let (name, spec) = &config.servers[0];
        assert_eq!(name, "scout");
        let LaunchSpec::Stdio { command, args, env, .. } = spec else { panic!("{host}: not stdio") };
        let env: Vec<(String, String)> = env.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        check_launch(command, args, &env);
        let doc: Value = serde_json::from_str(&text).expect("json");
        if host == "vscode" {
            assert_eq!(doc["servers"]["scout"]["type"], "stdio", "VS Code wants the transport type");
        } else {
            assert!(doc["mcpServers"]["scout"].is_object(), "{host}: {text}");
        }
    }
}

#[test]
fn the_codex_config_is_toml_with_an_mcp_servers_table() {
    let text = connect("codex");
    let doc: toml::Table = toml::from_str(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let server = doc["mcp_servers"]["scout"].as_table().expect("[mcp_servers.scout]");
    let command = server["command"].as_str().expect("command");
    let args: Vec<String> =
        server["args"].as_array().expect("args").iter().map(|a| a.as_str().expect("string").to_string()).collect();
    let env: Vec<(String, String)> = server["env"]
        .as_table()
        .expect("env")
        .iter()
        .map(|(k, v)| (k.clone(), v.as_str().expect("string").to_string()))
        .collect();
    check_launch(command, &args, &env);
}

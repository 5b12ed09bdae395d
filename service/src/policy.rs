//! Policies: which tools an agent may ever see and call, and the limits on its calls. A policy file is
//! TOML; each `[profiles.NAME]` table is one profile. Pure code, no I/O but [`Policy::load`].
//!
//! ```toml
//! default_profile = "reader"          # REST callers without a mapped token (optional)
//!
//! [risk]                              # operator overrides of risk classes
//! "memory/read_graph" = "read"
//! "payments/*" = "irreversible"
//!
//! [audit]                             # the proxy's audit trail (optional)
//! dir = "audit"                       # relative to this file
//! keep_days = 30
//!
//! [profiles.reader]
//! max_risk = "read"                   # read | change | create | external | irreversible
//! allow_servers = ["memory", "filesystem"]   # absent: every server
//! allow_tools = ["filesystem/read_*"]        # absent: every tool of an allowed server
//! deny_tools = ["filesystem/move_file"]      # server/tool, server/*, tool; a trailing * is a prefix
//! tokens = ["reader-token"]           # REST bearer tokens that act as this profile
//! confirm = ["external", "irreversible"]     # classes call_tool forwards only once a person confirms
//! max_calls_per_tool = 20             # per MCP session
//! max_calls_per_class = { external = 10, irreversible = 3 }
//! call_timeout_secs = 60
//! max_result_bytes = 1048576
//! max_repeats = 3                     # the same call (tool and arguments) this many times in a row
//! log_arguments = false               # audit lines carry a digest of the arguments unless true
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::actions::EffectClass;
use crate::risk::{Risk, RiskOverrides};

/// A parsed, checked policy file.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Policy {
    /// The profile of REST callers whose token maps to none (absent: such callers are refused when a
    /// policy is in force and no `--profile` is given).
    #[serde(default)]
    pub default_profile: Option<String>,
    /// Operator overrides of risk classes.
    #[serde(default)]
    pub risk: RiskOverrides,
    /// The audit trail of proxied calls.
    #[serde(default)]
    pub audit: Option<AuditConfig>,
    /// Profiles by name.
    #[serde(default)]
    pub profiles: BTreeMap<String, Profile>,
}

/// Where the audit trail goes.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AuditConfig {
    /// Folder of the daily files (`audit.YYYY-MM-DD.jsonl`); relative paths are relative to the policy file.
    pub dir: PathBuf,
    /// Daily files kept; older ones are deleted.
    #[serde(default = "default_keep_days")]
    pub keep_days: usize,
}

fn default_keep_days() -> usize {
    30
}

/// What one kind of caller may see and do.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Profile {
    /// The highest risk class discovery may return and `call_tool` may forward.
    pub max_risk: EffectClass,
    /// Servers (id or name) whose tools may be seen; absent: all.
    #[serde(default)]
    pub allow_servers: Option<Vec<String>>,
    /// Tools that may be seen (patterns); absent: all tools of allowed servers.
    #[serde(default)]
    pub allow_tools: Option<Vec<String>>,
    /// Tools never seen (patterns), whatever else allows them.
    #[serde(default)]
    pub deny_tools: Vec<String>,
    /// REST bearer tokens that act as this profile.
    #[serde(default)]
    pub tokens: Vec<String>,
    /// Classes whose calls need a person's confirmation.
    #[serde(default = "default_confirm")]
    pub confirm: Vec<EffectClass>,
    /// Calls of one tool per session.
    #[serde(default)]
    pub max_calls_per_tool: Option<u32>,
    /// Calls of each class per session.
    #[serde(default)]
    pub max_calls_per_class: BTreeMap<EffectClass, u32>,
    /// Time limit of one forwarded call.
    #[serde(default = "default_call_timeout")]
    pub call_timeout_secs: u64,
    /// Largest result forwarded back (its JSON, in bytes).
    #[serde(default = "default_max_result")]
    pub max_result_bytes: usize,
    /// The same call this many times in a row is refused (0: no check).
    #[serde(default = "default_max_repeats")]
    pub max_repeats: u32,
    /// Audit lines carry the arguments themselves (they may hold personal data), not only a digest.
    #[serde(default)]
    pub log_arguments: bool,
}

fn default_confirm() -> Vec<EffectClass> {
    vec![EffectClass::External, EffectClass::Irreversible]
}
fn default_call_timeout() -> u64 {
    60
}
fn default_max_result() -> usize {
    1 << 20
}
fn default_max_repeats() -> u32 {
    3
}

impl Profile {
    /// A profile that allows everything up to `max_risk`, with the default limits.
    pub fn allowing(max_risk: EffectClass) -> Profile {
        Profile {
            max_risk,
            allow_servers: None,
            allow_tools: None,
            deny_tools: Vec::new(),
            tokens: Vec::new(),
            confirm: default_confirm(),
            max_calls_per_tool: None,
            max_calls_per_class: BTreeMap::new(),
            call_timeout_secs: default_call_timeout(),
            max_result_bytes: default_max_result(),
            max_repeats: default_max_repeats(),
            log_arguments: false,
        }
    }

    /// Whether a tool (`server_id`, its server's `server_name`, `tool`, its `risk`) may be seen and called.
    pub fn permits(&self, server_id: &str, server_name: &str, tool: &str, risk: &Risk) -> bool {
        self.server_allowed(server_id, server_name)
            && risk.class <= self.max_risk
            && self.allow_tools.as_ref().is_none_or(|a| a.iter().any(|p| matches(p, server_id, server_name, tool)))
            && !self.deny_tools.iter().any(|p| matches(p, server_id, server_name, tool))
    }

    /// Whether any tool of this server may be seen.
    pub fn server_allowed(&self, server_id: &str, server_name: &str) -> bool {
        self.allow_servers.as_ref().is_none_or(|a| a.iter().any(|s| s == server_id || s == server_name))
    }

    /// Whether calls of `class` need a person's confirmation.
    pub fn needs_confirmation(&self, class: EffectClass) -> bool {
        self.confirm.contains(&class)
    }
}

/// Whether `pattern` (`server/tool`, `server/*`, `tool`, with an optional trailing `*` as a prefix)
/// names this tool; the server part matches its id or its name.
fn matches(pattern: &str, server_id: &str, server_name: &str, tool: &str) -> bool {
    let glob = |p: &str, s: &str| match p.strip_suffix('*') {
        Some(prefix) => s.starts_with(prefix),
        None => p == s,
    };
    match pattern.split_once('/') {
        Some((server, t)) => (glob(server, server_id) || glob(server, server_name)) && glob(t, tool),
        None => glob(pattern, tool),
    }
}

impl Policy {
    /// Reads and checks a policy file.
    pub fn load(path: &Path) -> Result<Policy, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("policy file {}: {e}", path.display()))?;
        let mut policy = Policy::parse(&text).map_err(|e| format!("policy file {}: {e}", path.display()))?;
        if let Some(audit) = &mut policy.audit
            && audit.dir.is_relative()
        {
            audit.dir = path.parent().unwrap_or(Path::new(".")).join(&audit.dir);
        }
        Ok(policy)
    }

    /// Parses and checks a policy's TOML text.
    pub fn parse(text: &str) -> Result<Policy, String> {
        let policy: Policy = toml::from_str(text).map_err(|e| e.to_string())?;
        if policy.profiles.is_empty() {
            return Err("no [profiles.NAME] table: a policy needs at least one profile".into());
        }
        if let Some(d) = &policy.default_profile
            && !policy.profiles.contains_key(d)
        {
            return Err(format!("default_profile {d:?} is not a profile"));
        }
        let mut seen = BTreeMap::new();
        for (name, p) in &policy.profiles {
            for t in &p.tokens {
                if t.len() < 16 {
                    return Err(format!("profile {name:?}: a token shorter than 16 characters is too easy to guess"));
                }
                if let Some(other) = seen.insert(t.as_str(), name.as_str()) {
                    return Err(format!("profiles {other:?} and {name:?} share a token"));
                }
            }
            for pattern in p.deny_tools.iter().chain(p.allow_tools.iter().flatten()) {
                if pattern.is_empty() || pattern.matches('/').count() > 1 {
                    return Err(format!(
                        "profile {name:?}: tool pattern {pattern:?} is not tool, server/tool or server/*"
                    ));
                }
            }
            if p.call_timeout_secs == 0 || p.max_result_bytes == 0 {
                return Err(format!("profile {name:?}: call_timeout_secs and max_result_bytes must be positive"));
            }
        }
        Ok(policy)
    }

    /// The profile called `name`.
    pub fn profile(&self, name: &str) -> Result<&Profile, String> {
        self.profiles.get(name).ok_or_else(|| {
            let known: Vec<&str> = self.profiles.keys().map(String::as_str).collect();
            format!("no profile {name:?} in the policy (profiles: {})", known.join(", "))
        })
    }

    /// The profile a REST caller presenting `token` acts as (tokens compared in constant time).
    pub fn profile_for_token(&self, token: &str) -> Option<&str> {
        let mut found = None;
        for (name, p) in &self.profiles {
            for t in &p.tokens {
                if crate::auth::constant_time_eq(t.as_bytes(), token.as_bytes()) {
                    found = Some(name.as_str());
                }
            }
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = r#"
default_profile = "reader"
[risk]
"memory/read_graph" = "read"
[profiles.reader]
max_risk = "read"
allow_servers = ["memory", "filesystem"]
deny_tools = ["filesystem/list_allowed_directories"]
tokens = ["reader-token-0123456789"]
[profiles.writer]
max_risk = "create"
max_calls_per_class = { create = 2 }
tokens = ["writer-token-0123456789"]
"#;

    fn risk(class: EffectClass) -> Risk {
        Risk { class, reasons: vec![] }
    }

    #[test]
    fn parses_the_documented_shape() {
        let p = Policy::parse(FILE).expect("parses");
        assert_eq!(p.risk.get("memory/read_graph"), Some(&EffectClass::Read));
        let reader = p.profile("reader").expect("reader");
        assert_eq!(reader.max_risk, EffectClass::Read);
        assert_eq!(reader.confirm, vec![EffectClass::External, EffectClass::Irreversible]);
        assert_eq!(reader.max_repeats, 3);
        assert_eq!(p.profile("writer").expect("writer").max_calls_per_class.get(&EffectClass::Create), Some(&2));
        assert_eq!(p.profile_for_token("writer-token-0123456789"), Some("writer"));
        assert_eq!(p.profile_for_token("writer-token-012345678"), None);
        assert!(p.profile("admin").expect_err("unknown").contains("reader, writer"));
    }

    #[test]
    fn permits_by_server_class_and_pattern() {
        let p = Policy::parse(FILE).expect("parses");
        let reader = p.profile("reader").expect("reader");
        assert!(reader.permits("memory", "memory", "read_graph", &risk(EffectClass::Read)));
        assert!(!reader.permits("memory", "memory", "delete_entities", &risk(EffectClass::Irreversible)));
        assert!(!reader.permits("github", "github", "get_issue", &risk(EffectClass::Read)), "server not allowed");
        assert!(!reader.permits("filesystem", "filesystem", "list_allowed_directories", &risk(EffectClass::Read)));
        let mut prefix = Profile::allowing(EffectClass::Irreversible);
        prefix.allow_tools = Some(vec!["fs*/read_*".into()]);
        assert!(prefix.permits("filesystem", "fs", "read_file", &risk(EffectClass::Read)));
        assert!(!prefix.permits("filesystem", "fs", "write_file", &risk(EffectClass::Read)));
    }

    #[test]
    fn refuses_what_it_cannot_enforce() {
        for (bad, says) in [
            ("", "at least one profile"),
            ("[profiles.a]\nmax_risk = \"write\"", "unknown variant"),
            ("[profiles.a]\nmax_risk = \"read\"\nallow = []", "unknown field"),
            ("default_profile = \"b\"\n[profiles.a]\nmax_risk = \"read\"", "not a profile"),
            ("[profiles.a]\nmax_risk = \"read\"\ntokens = [\"short\"]", "too easy"),
            (
                "[profiles.a]\nmax_risk = \"read\"\ntokens = [\"same-token-0123456789\"]\n[profiles.b]\nmax_risk = \"read\"\ntokens = [\"same-token-0123456789\"]",
                "share a token",
            ),
            ("[profiles.a]\nmax_risk = \"read\"\ndeny_tools = [\"a/b/c\"]", "not tool"),
        ] {
            let err = Policy::parse(bad).expect_err(bad);
            assert!(err.contains(says), "{bad:?}: {err}");
        }
    }
}

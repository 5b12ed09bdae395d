//! What an MCP session of the meta-tool may see and call: a policy profile (or, with no policy, every
//! tool — external and irreversible calls still need a person's confirmation), and where its calls are
//! audited.

use std::sync::Arc;

use toolscout_service::{EffectClass, Policy, Profile};

use crate::audit::Audit;

/// A session's access, shared by every session of one server.
#[derive(Debug)]
pub struct Access {
    /// The profile's name (`default` without a policy).
    pub name: String,
    /// What it permits.
    pub profile: Profile,
    /// Whether a policy is in force (discovery filters only then).
    pub restricted: bool,
    /// The audit trail of proxied calls.
    pub audit: Arc<Audit>,
}

impl Access {
    /// No policy: every tool may be seen; calls of class `external` and above are confirmed by a person;
    /// audited calls are counted, not written.
    pub fn open() -> Access {
        Access {
            name: "default".into(),
            profile: Profile::allowing(EffectClass::Irreversible),
            restricted: false,
            audit: Arc::new(Audit::counting_only()),
        }
    }

    /// The profile `name` of `policy`, audited where the policy says.
    pub fn from_policy(policy: &Policy, name: &str) -> Result<Access, String> {
        let profile = policy.profile(name)?.clone();
        let audit = match &policy.audit {
            Some(config) => Audit::to_files(config)?,
            None => Audit::counting_only(),
        };
        Ok(Access { name: name.to_string(), profile, restricted: true, audit: Arc::new(audit) })
    }

    /// The profile, for discovery: `None` when no policy is in force.
    pub fn discovery_profile(&self) -> Option<(&str, &Profile)> {
        self.restricted.then_some((self.name.as_str(), &self.profile))
    }
}

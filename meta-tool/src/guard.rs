//! What one MCP session may still call under its profile: calls per tool and per risk class, and loops
//! (the same call again and again). Refusals are written for the model: they say what happened and what
//! to do instead. Pure code, no I/O.

use std::collections::HashMap;

use toolscout_service::{EffectClass, Profile};

/// One session's call history, as far as limits need it.
#[derive(Debug, Default)]
pub struct CallGuard {
    per_tool: HashMap<String, u32>,
    per_class: HashMap<EffectClass, u32>,
    /// The last call admitted (tool key and argument digest) and how many times in a row it came.
    last: Option<(String, String)>,
    streak: u32,
}

impl CallGuard {
    /// Whether `profile` lets this session make the call `tool` (`server/tool`) of `class` with
    /// arguments whose digest is `digest` now. Nothing is counted until [`CallGuard::record`].
    pub fn check(&self, profile: &Profile, tool: &str, class: EffectClass, digest: &str) -> Result<(), String> {
        if let Some(max) = profile.max_calls_per_tool
            && self.per_tool.get(tool).copied().unwrap_or(0) >= max
        {
            return Err(format!(
                "limit reached: {tool} may be called at most {max} times in this session. Do not retry it; \
                 tell the user what is left undone."
            ));
        }
        if let Some(&max) = profile.max_calls_per_class.get(&class)
            && self.per_class.get(&class).copied().unwrap_or(0) >= max
        {
            return Err(format!(
                "limit reached: at most {max} calls of risk class {class} per session. Do not retry; tell the \
                 user what is left undone."
            ));
        }
        if profile.max_repeats > 0
            && self.last.as_ref().is_some_and(|(t, d)| t == tool && d == digest)
            && self.streak + 1 >= profile.max_repeats
        {
            return Err(format!(
                "refused: this is the same call of {tool} with the same arguments {} times in a row. Repeating \
                 it will not change the result; change strategy (other arguments, another tool, or ask the user).",
                self.streak + 1
            ));
        }
        Ok(())
    }

    /// Counts a call that is being forwarded.
    pub fn record(&mut self, tool: &str, class: EffectClass, digest: &str) {
        *self.per_tool.entry(tool.to_string()).or_default() += 1;
        *self.per_class.entry(class).or_default() += 1;
        match &self.last {
            Some((t, d)) if t == tool && d == digest => self.streak += 1,
            _ => {
                self.last = Some((tool.to_string(), digest.to_string()));
                self.streak = 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn profile() -> Profile {
        let mut p = Profile::allowing(EffectClass::Irreversible);
        p.max_calls_per_tool = Some(3);
        p.max_calls_per_class.insert(EffectClass::External, 2);
        p.max_repeats = 3;
        p
    }

    #[test]
    fn counts_per_tool_and_per_class() {
        let (p, mut g) = (profile(), CallGuard::default());
        for i in 0..2 {
            g.check(&p, "slack/send", EffectClass::External, &format!("d{i}")).expect("under the limit");
            g.record("slack/send", EffectClass::External, &format!("d{i}"));
        }
        let err = g.check(&p, "mail/send", EffectClass::External, "x").expect_err("class limit");
        assert!(err.contains("at most 2 calls of risk class external"), "{err}");
        for i in 0..3 {
            g.check(&p, "fs/read", EffectClass::Read, &format!("r{i}")).expect("reads are not class-limited");
            g.record("fs/read", EffectClass::Read, &format!("r{i}"));
        }
        assert!(g.check(&p, "fs/read", EffectClass::Read, "r9").expect_err("tool limit").contains("at most 3 times"));
    }

    #[test]
    fn the_same_call_in_a_row_is_a_loop() {
        let (mut p, mut g) = (profile(), CallGuard::default());
        p.max_calls_per_tool = None;
        for _ in 0..2 {
            g.check(&p, "fs/read", EffectClass::Read, "same").expect("twice is a retry");
            g.record("fs/read", EffectClass::Read, "same");
        }
        let err = g.check(&p, "fs/read", EffectClass::Read, "same").expect_err("a third time is a loop");
        assert!(err.contains("change strategy"), "{err}");
        g.check(&p, "fs/read", EffectClass::Read, "other").expect("other arguments are fine");
        g.record("fs/read", EffectClass::Read, "other");
        g.check(&p, "fs/read", EffectClass::Read, "same").expect("not in a row any more");
        p.max_repeats = 0;
        let mut g = CallGuard::default();
        for _ in 0..5 {
            g.check(&p, "fs/read", EffectClass::Read, "same").expect("no loop check");
            g.record("fs/read", EffectClass::Read, "same");
        }
    }
}

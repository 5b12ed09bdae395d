//! Which tools a conversation already has, so none is sent twice.

use std::collections::HashSet;

/// Tools delivered in one MCP session, in delivery order.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct DeliveredTools {
    delivered: Vec<(String, String)>,
    seen: HashSet<(String, String)>,
}

impl DeliveredTools {
    /// Records `(server_id, tool)` as delivered; false when it already was.
    pub fn deliver(&mut self, server_id: &str, tool: &str) -> bool {
        let key = (server_id.to_string(), tool.to_string());
        if self.seen.insert(key.clone()) {
            self.delivered.push(key);
            true
        } else {
            false
        }
    }

    /// Whether `(server_id, tool)` was delivered.
    pub fn has(&self, server_id: &str, tool: &str) -> bool {
        self.seen.contains(&(server_id.to_string(), tool.to_string()))
    }

    /// Everything delivered so far, in order.
    pub fn delivered(&self) -> &[(String, String)] {
        &self.delivered
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delivers_once_in_order() {
        let mut s = DeliveredTools::default();
        assert!(s.deliver("gh", "create_issue"));
        assert!(s.deliver("gl", "create_issue"));
        assert!(!s.deliver("gh", "create_issue"));
        assert!(s.has("gl", "create_issue") && !s.has("gl", "x"));
        assert_eq!(s.delivered().len(), 2);
    }
}

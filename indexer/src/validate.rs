//! The MCP `Tool` shape a definition must have to be indexed and served: a name of 1–128 characters, a
//! string description and title when present, an input schema that is a JSON object schema, an output
//! schema likewise when present, annotations that are an object. A definition that breaks it would reach
//! agents (or a vendor API, through a tail format) as something they refuse, so it is rejected at import,
//! with the reason. Pure code.

use serde_json::Value;

/// Longest tool name accepted.
pub const MAX_NAME_CHARS: usize = 128;

/// Why `tool` cannot be served, if it cannot.
pub fn check_tool(tool: &Value) -> Result<(), String> {
    let Some(object) = tool.as_object() else { return Err("not a JSON object".into()) };
    match object.get("name") {
        Some(Value::String(n)) if n.is_empty() => return Err("`name` is empty".into()),
        Some(Value::String(n)) if n.chars().count() > MAX_NAME_CHARS => {
            return Err(format!("`name` is longer than {MAX_NAME_CHARS} characters"));
        }
        Some(Value::String(_)) => {}
        _ => return Err("`name` is not a string".into()),
    }
    for field in ["description", "title"] {
        if object.get(field).is_some_and(|v| !v.is_string() && !v.is_null()) {
            return Err(format!("`{field}` is not a string"));
        }
    }
    object_schema(object.get("inputSchema"), "inputSchema", true)?;
    object_schema(object.get("outputSchema"), "outputSchema", false)?;
    if object.get("annotations").is_some_and(|v| !v.is_object() && !v.is_null()) {
        return Err("`annotations` is not an object".into());
    }
    Ok(())
}

/// Whether a valid name uses characters the 2026-07-28 revision no longer allows (`[A-Za-z0-9_.-]`
/// only); such names are accepted, with a warning.
pub fn name_outside_charset(name: &str) -> bool {
    !name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'))
}

fn object_schema(schema: Option<&Value>, field: &str, required: bool) -> Result<(), String> {
    match schema {
        None | Some(Value::Null) if !required => Ok(()),
        None | Some(Value::Null) => Err(format!("`{field}` is missing")),
        Some(Value::Object(s)) => match s.get("type") {
            Some(Value::String(t)) if t == "object" => Ok(()),
            Some(other) => Err(format!("`{field}.type` is {other}, not \"object\"")),
            None => Err(format!("`{field}` has no `\"type\": \"object\"`")),
        },
        Some(other) => Err(format!("`{field}` is not a JSON object (it is {})", kind(other))),
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn accepts_the_mcp_tool_shape_and_names_what_breaks_it() {
        let schema = json!({"type": "object", "properties": {}});
        assert!(check_tool(&json!({"name": "get", "inputSchema": schema})).is_ok());
        assert!(
            check_tool(&json!({"name": "get", "description": "x", "inputSchema": schema, "outputSchema": schema,
            "annotations": {"readOnlyHint": true}}))
            .is_ok()
        );
        let check = |tool: Value, needle: &str| {
            let e = check_tool(&tool).expect_err("invalid");
            assert!(e.contains(needle), "{e}");
        };
        check(json!({"name": "x", "inputSchema": "string schema"}), "inputSchema` is not a JSON object");
        check(json!({"name": "x", "description": ["a"], "inputSchema": schema}), "description");
        check(json!({"name": "x"}), "inputSchema` is missing");
        check(json!({"name": "x", "inputSchema": {"type": "string"}}), "not \"object\"");
        check(json!({"name": "x", "inputSchema": schema, "outputSchema": []}), "outputSchema");
        check(json!({"name": "x", "inputSchema": schema, "annotations": "yes"}), "annotations");
        check(json!({"name": "", "inputSchema": schema}), "empty");
        check(json!({"name": "n".repeat(129), "inputSchema": schema}), "longer");
        check(json!({"name": 5, "inputSchema": schema}), "not a string");
        assert!(name_outside_charset("send email") && !name_outside_charset("send_email-v2.1"));
    }
}

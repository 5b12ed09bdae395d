//! Canonical JSON and content hashes.
//!
//! A tool's content hash is the SHA-256 of the canonical JSON (keys sorted, no whitespace) of the fields
//! that change what a model sees: `name`, `title`, `description`, `inputSchema`, `outputSchema` and
//! `annotations`. Key order in the server's own JSON does not change the hash; any change of content does.

use serde_json::Value;
use sha2::{Digest, Sha256};

/// Fields of an MCP `Tool` object that take part in its content hash.
const HASHED_FIELDS: [&str; 6] = ["name", "title", "description", "inputSchema", "outputSchema", "annotations"];

/// Writes `value` as canonical JSON: object keys sorted by their UTF-16-agnostic byte order, compact.
pub fn canonical_json(value: &Value) -> String {
    let mut out = String::new();
    write_canonical(value, &mut out);
    out
}

fn write_canonical(value: &Value, out: &mut String) {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push('{');
            for (i, key) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(key.clone()).to_string());
                out.push(':');
                write_canonical(&map[key], out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical(item, out);
            }
            out.push(']');
        }
        scalar => out.push_str(&scalar.to_string()),
    }
}

/// The content hash of an MCP `Tool` object: `sha256:` + hex of the canonical JSON of its hashed fields.
pub fn content_hash(tool: &Value) -> String {
    let mut picked = serde_json::Map::new();
    if let Value::Object(map) = tool {
        for field in HASHED_FIELDS {
            if let Some(v) = map.get(field) {
                picked.insert(field.to_string(), v.clone());
            }
        }
    }
    format!("sha256:{}", sha256_hex(canonical_json(&Value::Object(picked)).as_bytes()))
}

/// Hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    let mut hex = String::with_capacity(64);
    for b in digest {
        hex.push_str(&format!("{b:02x}"));
    }
    hex
}

/// Hex SHA-256 of the file at `path`, read in pieces (snapshot files are hundreds of MB at 100K tools).
pub fn sha256_file(path: &std::path::Path) -> std::io::Result<String> {
    use std::io::Read;
    let mut file = std::fs::File::open(path)?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        match file.read(&mut buf)? {
            0 => break,
            n => hasher.update(&buf[..n]),
        }
    }
    Ok(hasher.finalize().iter().map(|b| format!("{b:02x}")).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    #[test]
    fn a_file_hashes_as_its_bytes() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("f");
        let bytes: Vec<u8> = (0..200_000u32).map(|i| (i * 7 % 251) as u8).collect(); // several read pieces
        std::fs::write(&path, &bytes).expect("write");
        assert_eq!(sha256_file(&path).expect("hash"), sha256_hex(&bytes));
    }

    fn check(input: Value, expected: &str) {
        assert_eq!(canonical_json(&input), expected);
    }

    #[test]
    fn sorts_keys_recursively_and_keeps_array_order() {
        check(json!({"b": 1, "a": {"d": [3, 1], "c": null}}), r#"{"a":{"c":null,"d":[3,1]},"b":1}"#);
        check(json!("é\"\n"), r#""é\"\n""#);
    }

    #[test]
    fn hash_ignores_key_order_and_unhashed_fields() {
        let a = json!({"name": "x", "description": "d", "inputSchema": {"type": "object", "properties": {}}});
        let b = json!({"inputSchema": {"properties": {}, "type": "object"}, "_meta": {"k": 1}, "description": "d", "name": "x"});
        assert_eq!(content_hash(&a), content_hash(&b));
        let c = json!({"name": "x", "description": "d!", "inputSchema": {"type": "object", "properties": {}}});
        assert_ne!(content_hash(&a), content_hash(&c));
    }

    fn arb_json() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(|n| json!(n)),
            ".{0,8}".prop_map(Value::String),
        ];
        leaf.prop_recursive(4, 32, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                prop::collection::btree_map(".{0,6}", inner, 0..4).prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #[test]
        fn canonical_json_round_trips(v in arb_json()) {
            let text = canonical_json(&v);
            let back: Value = serde_json::from_str(&text).expect("canonical JSON parses");
            prop_assert_eq!(&back, &v);
            prop_assert_eq!(canonical_json(&back), text);
        }
    }
}

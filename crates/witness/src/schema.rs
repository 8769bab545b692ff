//! A check of witness documents against SV-COMP's witness format 2.0, written from the format's
//! documentation (sosy-lab/sv-witnesses, "Format for Violation Witnesses, version 2.0" and
//! "Format for Correctness Witnesses, version 2.0"): required keys, their types and allowed
//! values, and the structural rules of violation sequences (every segment ends with exactly one
//! `follow` waypoint, `avoid` waypoints before it; only the last segment, and it always, ends
//! with the `target`).

use crate::meta::{is_date_time, is_uuid};
use serde_yaml::Value;

struct Checker {
    problems: Vec<String>,
}

impl Checker {
    fn fail(&mut self, path: &str, what: impl std::fmt::Display) {
        self.problems.push(format!("{path}: {what}"));
    }

    /// The value at `key` of the mapping `v`, or a problem when it is missing.
    fn field<'v>(&mut self, v: &'v Value, path: &str, key: &str) -> Option<&'v Value> {
        match v.as_mapping().and_then(|m| m.get(key)) {
            Some(x) => Some(x),
            None => {
                self.fail(path, format_args!("missing required key `{key}`"));
                None
            }
        }
    }

    fn string<'v>(&mut self, v: &'v Value, path: &str, key: &str) -> Option<&'v str> {
        let x = self.field(v, path, key)?;
        match x.as_str() {
            Some(t) => Some(t),
            None => {
                self.fail(&format!("{path}.{key}"), "must be a string");
                None
            }
        }
    }

    fn optional_string(&mut self, v: &Value, path: &str, key: &str) {
        if let Some(x) = v.as_mapping().and_then(|m| m.get(key)) {
            if !x.is_string() {
                self.fail(&format!("{path}.{key}"), "must be a string");
            }
        }
    }

    fn one_of(&mut self, v: &Value, path: &str, key: &str, allowed: &[&str]) -> Option<String> {
        let t = self.string(v, path, key)?.to_string();
        if !allowed.contains(&t.as_str()) {
            self.fail(&format!("{path}.{key}"), format_args!("`{t}` is not one of {}", allowed.join(", ")));
            return None;
        }
        Some(t)
    }

    fn mapping(&mut self, v: &Value, path: &str) -> bool {
        if !v.is_mapping() {
            self.fail(path, "must be a mapping");
            return false;
        }
        true
    }

    fn metadata(&mut self, m: &Value, path: &str) {
        if !self.mapping(m, path) {
            return;
        }
        if let Some(version) = self.string(m, path, "format_version") {
            if !version.starts_with("2.") {
                self.fail(&format!("{path}.format_version"), format_args!("`{version}` is not a 2.x version"));
            }
        }
        if let Some(u) = self.string(m, path, "uuid") {
            if !is_uuid(u) {
                self.fail(&format!("{path}.uuid"), "is not a UUID (RFC 4122)");
            }
        }
        if let Some(t) = self.string(m, path, "creation_time") {
            if !is_date_time(t) {
                self.fail(&format!("{path}.creation_time"), "is not an ISO 8601 date-time");
            }
        }
        if let Some(p) = self.field(m, path, "producer") {
            let pp = format!("{path}.producer");
            if self.mapping(p, &pp) {
                self.string(p, &pp, "name");
                self.string(p, &pp, "version");
                for key in ["configuration", "command_line", "description"] {
                    self.optional_string(p, &pp, key);
                }
            }
        }
        if let Some(t) = self.field(m, path, "task") {
            self.task(t, &format!("{path}.task"));
        }
    }

    fn task(&mut self, t: &Value, path: &str) {
        if !self.mapping(t, path) {
            return;
        }
        let files: Vec<String> = match self.field(t, path, "input_files") {
            Some(Value::Sequence(seq)) if !seq.is_empty() && seq.iter().all(Value::is_string) => {
                seq.iter().filter_map(|f| f.as_str().map(str::to_string)).collect()
            }
            Some(_) => {
                self.fail(&format!("{path}.input_files"), "must be a non-empty list of file names");
                Vec::new()
            }
            None => Vec::new(),
        };
        if let Some(h) = self.field(t, path, "input_file_hashes") {
            match h.as_mapping() {
                Some(hashes) => {
                    for f in &files {
                        match hashes.get(f.as_str()).and_then(Value::as_str) {
                            Some(x) if x.len() == 64 && x.chars().all(|c| c.is_ascii_hexdigit()) => {}
                            Some(_) => self.fail(
                                &format!("{path}.input_file_hashes"),
                                format_args!("the hash of `{f}` is not a SHA-256 (64 hex digits)"),
                            ),
                            None => self.fail(&format!("{path}.input_file_hashes"), format_args!("no hash for input file `{f}`")),
                        }
                    }
                }
                None => self.fail(&format!("{path}.input_file_hashes"), "must be a mapping from file name to SHA-256"),
            }
        }
        self.string(t, path, "specification");
        self.one_of(t, path, "data_model", &["ILP32", "LP64"]);
        self.one_of(t, path, "language", &["C"]);
    }

    fn location(&mut self, l: &Value, path: &str) {
        if !self.mapping(l, path) {
            return;
        }
        self.string(l, path, "file_name");
        match self.field(l, path, "line").map(Value::as_u64) {
            Some(Some(n)) if n >= 1 => {}
            Some(_) => self.fail(&format!("{path}.line"), "must be an integer >= 1"),
            None => {}
        }
        if let Some(c) = l.as_mapping().and_then(|m| m.get("column")) {
            if !c.as_u64().is_some_and(|n| n >= 1) {
                self.fail(&format!("{path}.column"), "must be an integer >= 1");
            }
        }
        self.optional_string(l, path, "function");
    }

    /// Returns the waypoint's type and action.
    fn waypoint(&mut self, w: &Value, path: &str) -> Option<(String, String)> {
        let Some(w) = self.field(w, path, "waypoint") else { return None };
        let path = format!("{path}.waypoint");
        if !self.mapping(w, &path) {
            return None;
        }
        let kind = self.one_of(w, &path, "type", &["assumption", "target", "function_enter", "function_return", "branching"]);
        let action = self.one_of(w, &path, "action", &["follow", "avoid"]);
        if let Some(l) = self.field(w, &path, "location") {
            self.location(l, &format!("{path}.location"));
        }
        let constraint = w.as_mapping().and_then(|m| m.get("constraint"));
        let cpath = format!("{path}.constraint");
        match (kind.as_deref(), constraint) {
            (Some("target" | "function_enter"), Some(_)) => self.fail(&cpath, "is not allowed for this waypoint type"),
            (Some("assumption" | "function_return" | "branching"), None) => self.fail(&path, "missing required key `constraint`"),
            (Some(k), Some(c)) => {
                if self.mapping(c, &cpath) {
                    let value = self.string(c, &cpath, "value").map(str::to_string);
                    let formats: &[&str] = match k {
                        "assumption" => &["c_expression"],
                        "function_return" => &["acsl_expression"],
                        _ => &["c_expression", "acsl_expression"],
                    };
                    if c.as_mapping().is_some_and(|m| m.contains_key("format")) {
                        self.one_of(c, &cpath, "format", formats);
                    }
                    if k == "branching" && value.as_deref().is_some_and(|v| v.trim().is_empty()) {
                        self.fail(&format!("{cpath}.value"), "must be `true`, `false` or a case value");
                    }
                }
            }
            _ => {}
        }
        if kind.as_deref() == Some("target") && action.as_deref() == Some("avoid") {
            self.fail(&path, "a target waypoint must have action `follow`");
        }
        Some((kind?, action?))
    }

    fn violation_content(&mut self, content: &[Value], path: &str) {
        if content.is_empty() {
            self.fail(path, "a violation sequence needs at least one segment");
        }
        for (i, seg) in content.iter().enumerate() {
            let spath = format!("{path}[{i}]");
            let Some(ws) = self.field(seg, &spath, "segment") else { continue };
            let Some(ws) = ws.as_sequence() else {
                self.fail(&format!("{spath}.segment"), "must be a list of waypoints");
                continue;
            };
            let kinds: Vec<Option<(String, String)>> = ws.iter().enumerate().map(|(j, w)| self.waypoint(w, &format!("{spath}.segment[{j}]"))).collect();
            let follows = kinds.iter().flatten().filter(|(_, a)| a == "follow").count();
            let last_follow = kinds.last().and_then(|k| k.as_ref()).is_some_and(|(_, a)| a == "follow");
            if ws.is_empty() || follows != 1 || !last_follow {
                self.fail(
                    &format!("{spath}.segment"),
                    "must end with exactly one `follow` waypoint (after any `avoid` ones)",
                );
            }
            let ends_with_target = kinds.last().and_then(|k| k.as_ref()).is_some_and(|(k, _)| k == "target");
            let is_last = i + 1 == content.len();
            if ends_with_target != is_last {
                let what = if is_last {
                    "the last segment must end with the `target` waypoint"
                } else {
                    "only the last segment may contain the `target` waypoint"
                };
                self.fail(&format!("{spath}.segment"), what);
            }
        }
    }

    fn invariant_content(&mut self, content: &[Value], path: &str) {
        for (i, item) in content.iter().enumerate() {
            let ipath = format!("{path}[{i}]");
            let Some(inv) = self.field(item, &ipath, "invariant") else { continue };
            let ipath = format!("{ipath}.invariant");
            if !self.mapping(inv, &ipath) {
                continue;
            }
            self.one_of(inv, &ipath, "type", &["loop_invariant", "location_invariant"]);
            if let Some(l) = self.field(inv, &ipath, "location") {
                self.location(l, &format!("{ipath}.location"));
            }
            self.string(inv, &ipath, "value");
            self.one_of(inv, &ipath, "format", &["c_expression"]);
        }
    }
}

/// Which kind of witness a document is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DocumentKind {
    Violation,
    Correctness,
}

/// Checks a parsed YAML document; returns its kind or every problem found (`path: message`).
pub fn check(doc: &Value) -> Result<DocumentKind, Vec<String>> {
    let mut c = Checker { problems: Vec::new() };
    let Some(entries) = doc.as_sequence() else {
        return Err(vec!["the document must be a list of entries".to_string()]);
    };
    if entries.is_empty() {
        return Err(vec!["the document has no entries".to_string()]);
    }
    let mut kinds = Vec::new();
    for (i, entry) in entries.iter().enumerate() {
        let path = format!("[{i}]");
        if !c.mapping(entry, &path) {
            continue;
        }
        let kind = c.one_of(entry, &path, "entry_type", &["violation_sequence", "invariant_set"]);
        if let Some(m) = c.field(entry, &path, "metadata") {
            c.metadata(m, &format!("{path}.metadata"));
        }
        let content = match c.field(entry, &path, "content") {
            Some(Value::Sequence(seq)) => Some(seq.as_slice()),
            Some(_) => {
                c.fail(&format!("{path}.content"), "must be a list");
                None
            }
            None => None,
        };
        match (kind.as_deref(), content) {
            (Some("violation_sequence"), Some(content)) => {
                kinds.push(DocumentKind::Violation);
                c.violation_content(content, &format!("{path}.content"));
            }
            (Some(_), Some(content)) => {
                kinds.push(DocumentKind::Correctness);
                c.invariant_content(content, &format!("{path}.content"));
            }
            _ => {}
        }
    }
    if kinds.windows(2).any(|w| w[0] != w[1]) {
        c.fail("document", "mixes violation and correctness entries");
    }
    match (c.problems.is_empty(), kinds.first()) {
        (true, Some(&k)) => Ok(k),
        (true, None) => Err(vec!["the document has no valid entries".to_string()]),
        _ => Err(c.problems),
    }
}

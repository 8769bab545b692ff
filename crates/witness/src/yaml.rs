//! Witnesses to and from YAML (SV-COMP witness format 2.0). Reading checks the document against
//! [`crate::schema`] first, so every problem comes back as a message naming the field.

use crate::model::*;
use serde_yaml::{Mapping, Value};

fn s(text: &str) -> Value {
    Value::String(text.to_string())
}

fn map(pairs: Vec<(&str, Value)>) -> Value {
    let mut m = Mapping::new();
    for (k, v) in pairs {
        m.insert(s(k), v);
    }
    Value::Mapping(m)
}

fn metadata_value(m: &Metadata) -> Value {
    let mut producer = vec![("name", s(&m.producer.name)), ("version", s(&m.producer.version))];
    if let Some(c) = &m.producer.configuration {
        producer.push(("configuration", s(c)));
    }
    if let Some(c) = &m.producer.command_line {
        producer.push(("command_line", s(c)));
    }
    let mut hashes = Mapping::new();
    hashes.insert(s(&m.task.input_file), s(&m.task.input_file_hash));
    map(vec![
        ("format_version", s("2.0")),
        ("uuid", s(&m.uuid)),
        ("creation_time", s(&m.creation_time)),
        ("producer", map(producer)),
        (
            "task",
            map(vec![
                ("input_files", Value::Sequence(vec![s(&m.task.input_file)])),
                ("input_file_hashes", Value::Mapping(hashes)),
                ("specification", s(&m.task.specification)),
                ("data_model", s(m.task.data_model.as_str())),
                ("language", s("C")),
            ]),
        ),
    ])
}

fn location_value(l: &Location) -> Value {
    let mut pairs = vec![("file_name", s(&l.file_name)), ("line", Value::Number(l.line.into()))];
    if let Some(c) = l.column {
        pairs.push(("column", Value::Number(c.into())));
    }
    if let Some(f) = &l.function {
        pairs.push(("function", s(f)));
    }
    map(pairs)
}

fn waypoint_value(w: &Waypoint) -> Value {
    let (kind, constraint) = match &w.kind {
        WaypointKind::Assumption { constraint } => ("assumption", Some(map(vec![("value", s(constraint)), ("format", s("c_expression"))]))),
        WaypointKind::Branching { taken } => ("branching", Some(map(vec![("value", s(if *taken { "true" } else { "false" }))]))),
        WaypointKind::FunctionReturn { constraint } => ("function_return", Some(map(vec![("value", s(constraint)), ("format", s("acsl_expression"))]))),
        WaypointKind::FunctionEnter => ("function_enter", None),
        WaypointKind::Target => ("target", None),
    };
    let action = match w.action {
        Action::Follow => "follow",
        Action::Avoid => "avoid",
    };
    let mut pairs = vec![("type", s(kind)), ("action", s(action))];
    if let Some(c) = constraint {
        pairs.push(("constraint", c));
    }
    pairs.push(("location", location_value(&w.location)));
    map(vec![("waypoint", map(pairs))])
}

/// The witness as a YAML document (a sequence with one entry).
pub fn to_yaml(witness: &Witness) -> String {
    let entry = match witness {
        Witness::Violation(v) => {
            let content = v
                .segments
                .iter()
                .map(|seg| map(vec![("segment", Value::Sequence(seg.iter().map(waypoint_value).collect()))]))
                .collect();
            map(vec![
                ("entry_type", s("violation_sequence")),
                ("metadata", metadata_value(&v.metadata)),
                ("content", Value::Sequence(content)),
            ])
        }
        Witness::Correctness(c) => {
            let content = c
                .invariants
                .iter()
                .map(|inv| {
                    let kind = match inv.kind {
                        InvariantKind::Loop => "loop_invariant",
                        InvariantKind::Location => "location_invariant",
                    };
                    map(vec![(
                        "invariant",
                        map(vec![
                            ("type", s(kind)),
                            ("location", location_value(&inv.location)),
                            ("value", s(&inv.value)),
                            ("format", s("c_expression")),
                        ]),
                    )])
                })
                .collect();
            map(vec![
                ("entry_type", s("invariant_set")),
                ("metadata", metadata_value(&c.metadata)),
                ("content", Value::Sequence(content)),
            ])
        }
    };
    serde_yaml::to_string(&Value::Sequence(vec![entry])).unwrap_or_default()
}

/// Parses and checks a witness. Several entries of one kind are merged (their segments or
/// invariants concatenated, the first entry's metadata kept).
pub fn from_yaml(text: &str) -> Result<Witness, Vec<String>> {
    let value: Value = serde_yaml::from_str(text).map_err(|e| vec![format!("not valid YAML: {e}")])?;
    crate::schema::check(&value)?;
    let entries = value.as_sequence().cloned().unwrap_or_default();
    let mut result: Option<Witness> = None;
    for entry in &entries {
        let metadata = read_metadata(&entry["metadata"]);
        let content = entry["content"].as_sequence().cloned().unwrap_or_default();
        match entry["entry_type"].as_str() {
            Some("violation_sequence") => {
                let segments: Vec<Vec<Waypoint>> = content
                    .iter()
                    .map(|seg| {
                        seg["segment"]
                            .as_sequence()
                            .map(|ws| ws.iter().map(|w| read_waypoint(&w["waypoint"])).collect())
                            .unwrap_or_default()
                    })
                    .collect();
                match &mut result {
                    Some(Witness::Violation(v)) => v.segments.extend(segments),
                    _ => result = Some(Witness::Violation(ViolationWitness { metadata, segments })),
                }
            }
            _ => {
                let invariants: Vec<Invariant> = content.iter().map(|item| read_invariant(&item["invariant"])).collect();
                match &mut result {
                    Some(Witness::Correctness(c)) => c.invariants.extend(invariants),
                    _ => result = Some(Witness::Correctness(CorrectnessWitness { metadata, invariants })),
                }
            }
        }
    }
    result.ok_or_else(|| vec!["the witness has no entries".to_string()])
}

fn text(v: &Value) -> String {
    match v {
        Value::String(t) => t.clone(),
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => b.to_string(),
        _ => String::new(),
    }
}

fn read_metadata(m: &Value) -> Metadata {
    let task = &m["task"];
    let input_file = match &task["input_files"] {
        Value::Sequence(files) => files.first().map(text).unwrap_or_default(),
        other => text(other),
    };
    let input_file_hash = task["input_file_hashes"]
        .as_mapping()
        .and_then(|h| h.get(s(&input_file)).map(text))
        .unwrap_or_default();
    Metadata {
        uuid: text(&m["uuid"]),
        creation_time: text(&m["creation_time"]),
        producer: Producer {
            name: text(&m["producer"]["name"]),
            version: text(&m["producer"]["version"]),
            configuration: m["producer"]["configuration"].as_str().map(str::to_string),
            command_line: m["producer"]["command_line"].as_str().map(str::to_string),
        },
        task: TaskInfo {
            input_file,
            input_file_hash,
            specification: text(&task["specification"]),
            data_model: DataModel::parse(&text(&task["data_model"])).unwrap_or(DataModel::Ilp32),
        },
    }
}

fn read_location(l: &Value) -> Location {
    Location {
        file_name: text(&l["file_name"]),
        line: l["line"].as_u64().unwrap_or(0) as u32,
        column: l["column"].as_u64().map(|c| c as u32),
        function: l["function"].as_str().map(str::to_string),
    }
}

fn read_waypoint(w: &Value) -> Waypoint {
    let constraint = text(&w["constraint"]["value"]);
    let kind = match w["type"].as_str().unwrap_or("") {
        "assumption" => WaypointKind::Assumption { constraint },
        "branching" => WaypointKind::Branching {
            taken: constraint.trim() != "false",
        },
        "function_return" => WaypointKind::FunctionReturn { constraint },
        "function_enter" => WaypointKind::FunctionEnter,
        _ => WaypointKind::Target,
    };
    let action = if w["action"].as_str() == Some("avoid") {
        Action::Avoid
    } else {
        Action::Follow
    };
    Waypoint {
        kind,
        action,
        location: read_location(&w["location"]),
    }
}

fn read_invariant(i: &Value) -> Invariant {
    let kind = if i["type"].as_str() == Some("location_invariant") {
        InvariantKind::Location
    } else {
        InvariantKind::Loop
    };
    Invariant {
        kind,
        location: read_location(&i["location"]),
        value: text(&i["value"]),
    }
}

//! SV-COMP task definitions (`.yml`, format 1.x/2.0): the input file, whether the task has the
//! `unreach-call` property and its expected verdict, and the data model. Shared by
//! `predabs check TASK.yml`, `predabs validate TASK.yml` and `predabs bench`.

use std::path::{Path, PathBuf};

/// One SV-COMP task.
pub struct Task {
    pub yml: PathBuf,
    /// The (first) input file, relative to the task file's folder.
    pub input: PathBuf,
    /// Whether the task lists the `unreach-call` property.
    pub has_unreach_call: bool,
    /// `Some(true)`: the error is unreachable (SAFE expected).
    pub expected_safe: Option<bool>,
    /// `ILP32` (the default in task files) or `LP64`.
    pub data_model: String,
}

/// Exit codes of `check` and `validate`, shown in `--help`.
pub const CHECK_EXIT_CODES: &str = "\
Input: a C file, or an SV-COMP task file (.yml) whose input_files, unreach-call property and
data model (ILP32/LP64, overriding --data-model) are used.

Verdict line: VERDICT: SAFE | UNSAFE | UNKNOWN; with --json the field `sv_comp` is SV-COMP's
`true`, `false(unreach-call)` or `unknown`.

Exit codes:
  0  a verdict was reached (SAFE, UNSAFE or UNKNOWN: read the verdict)
  1  the program has errors (syntax, types, unsupported constructs)
  2  bad command line, unreadable file, or a task file without an unreach-call property
  3  the verdict was printed but the witness (--witness) could not be written";

/// Exit codes of `validate`, shown in `--help`.
pub const VALIDATE_EXIT_CODES: &str = "\
Exit codes:
  0  VALID: the witness is confirmed
  1  INVALID: the witness is refuted (or malformed)
  3  UNKNOWN: neither could be shown (see the reasons)
  2  bad command line or unreadable file";

fn unquote(s: &str) -> String {
    s.trim().trim_matches(['\'', '"']).to_string()
}

/// Reads the fields of an SV-COMP task definition that predabs needs.
pub fn parse_task(yml: &Path) -> Result<Task, String> {
    let text = std::fs::read_to_string(yml).map_err(|e| format!("{}: cannot read: {e}", yml.display()))?;
    let mut input = None;
    let mut expected = None;
    let mut data_model = "ILP32".to_string();
    let mut in_unreach = false;
    let mut has_unreach_call = false;
    for raw in text.lines() {
        let line = raw.split(" #").next().unwrap_or("").trim();
        if let Some(rest) = line.strip_prefix("input_files:") {
            let rest = rest.trim();
            if !rest.is_empty() {
                let first = rest.trim_start_matches('[').trim_end_matches(']').split(',').next().unwrap_or("");
                input = Some(unquote(first));
            }
        } else if input.is_none() && line.starts_with("- ") && !line.contains(':') {
            input = Some(unquote(&line[2..]));
        } else if let Some(rest) = line.strip_prefix("- property_file:") {
            in_unreach = rest.contains("unreach-call");
            has_unreach_call |= in_unreach;
        } else if let Some(rest) = line.strip_prefix("expected_verdict:") {
            if in_unreach {
                expected = match rest.trim() {
                    "true" => Some(true),
                    "false" => Some(false),
                    _ => None,
                };
            }
        } else if let Some(rest) = line.strip_prefix("data_model:") {
            data_model = unquote(rest);
        }
    }
    let input = input.ok_or_else(|| format!("{}: no input_files in the task file", yml.display()))?;
    let folder = yml.parent().unwrap_or(Path::new("."));
    Ok(Task {
        yml: yml.to_path_buf(),
        input: folder.join(input),
        has_unreach_call,
        expected_safe: expected,
        data_model,
    })
}

/// Whether `path` names a task file rather than a C file.
pub fn is_task_file(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "yml" || e == "yaml")
}

/// The C file and data model to check for `path`: a task file's input and data model, or the
/// C file itself with `data_model`.
pub fn input(path: &Path, data_model: &str) -> Result<(PathBuf, String), String> {
    if !is_task_file(path) {
        return Ok((path.to_path_buf(), data_model.to_string()));
    }
    let task = parse_task(path)?;
    if !task.has_unreach_call {
        return Err(format!(
            "{}: the task has no unreach-call property (predabs checks only unreach-call)",
            path.display()
        ));
    }
    Ok((task.input, task.data_model))
}

/// SV-COMP's answer for a verdict of the `unreach-call` property.
pub fn sv_comp(verdict: playground_api::Verdict) -> &'static str {
    match verdict {
        playground_api::Verdict::Safe => "true",
        playground_api::Verdict::Unsafe => "false(unreach-call)",
        playground_api::Verdict::Unknown => "unknown",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_both_task_layouts() {
        let dir = std::env::temp_dir().join(format!("predabs-task-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let a = dir.join("a.yml");
        std::fs::write(
            &a,
            "format_version: '2.0'\ninput_files: 'a.c'\nproperties:\n  - property_file: ../properties/unreach-call.prp\n    expected_verdict: false\n  - property_file: ../properties/no-overflow.prp\n    expected_verdict: true\noptions:\n  language: C\n  data_model: LP64\n",
        )
        .unwrap();
        let t = parse_task(&a).unwrap();
        assert_eq!(
            (
                t.input.file_name().unwrap().to_str(),
                t.expected_safe,
                t.data_model.as_str(),
                t.has_unreach_call
            ),
            (Some("a.c"), Some(false), "LP64", true)
        );
        let b = dir.join("b.yml");
        std::fs::write(
            &b,
            "format_version: '1.0'\ninput_files:\n  - 'b.i'\nproperties:\n  - property_file: ../properties/termination.prp\n",
        )
        .unwrap();
        let t = parse_task(&b).unwrap();
        assert_eq!(
            (
                t.input.file_name().unwrap().to_str(),
                t.expected_safe,
                t.data_model.as_str(),
                t.has_unreach_call
            ),
            (Some("b.i"), None, "ILP32", false)
        );
        assert!(input(&b, "LP64").is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}

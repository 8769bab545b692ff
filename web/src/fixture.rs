//! Hand-written demo data (the partition example of C2BP, Fig. 1), replayed through the real
//! worker protocol so every pane can be developed, screenshotted and tested before the engine
//! stages exist. Nothing here is computed; the UI labels it as demo data.

use crate::examples::line_of;
use playground_api::examples::PARTITION as PARTITION_SOURCE;
use crate::model::{
    format_predicates, BoolLine, Feasibility, FeasibilityRow, FromWorker, IterationSnapshot, LineRange, Progress, ScopePredicates,
    TraceStep, Verdict,
};

fn line(needle: &str) -> u32 {
    line_of(PARTITION_SOURCE, needle).unwrap_or(1)
}

/// Figure 1(b), each line with the C snippet it comes from (`""` = none). With `two_predicates`
/// the lines for `curr->val > v` / `prev->val > v` are dropped (the first iteration).
fn boolean_program(two_predicates: bool) -> Vec<BoolLine> {
    let rows: &[(&str, &str)] = &[
        ("void partition() {", "list partition("),
        ("  bool {curr==NULL}, {prev==NULL};", ""),
        ("  bool {curr->val>v}, {prev->val>v};", ""),
        ("  {curr==NULL} = unknown();", "curr = *l;"),
        ("  {curr->val>v} = unknown();", "curr = *l;"),
        ("  {prev==NULL} = true;", "prev = NULL;"),
        ("  {prev->val>v} = unknown();", "prev = NULL;"),
        ("  skip;", "newl = NULL;"),
        ("  while (*) {", "while (curr != NULL)"),
        ("    assume(!{curr==NULL});", "while (curr != NULL)"),
        ("    skip;", "nextCurr = curr->next;"),
        ("    if (*) {", "if (curr->val > v)"),
        ("      assume({curr->val>v});", "if (curr->val > v)"),
        ("      if (*) {", "if (prev != NULL)"),
        ("        assume(!{prev==NULL});", "if (prev != NULL)"),
        ("        skip;", "prev->next = nextCurr;"),
        ("      }", ""),
        ("      if (*) {", "if (curr == *l)"),
        ("        skip;", "*l = nextCurr;"),
        ("      }", ""),
        ("      skip;", "curr->next = newl;"),
        ("L:    skip;", "newl = curr;"),
        ("    } else {", "} else {"),
        ("      assume(!{curr->val>v});", "if (curr->val > v)"),
        ("      {prev==NULL} = {curr==NULL};", "prev = curr;"),
        ("      {prev->val>v} = {curr->val>v};", "prev = curr;"),
        ("    }", ""),
        ("    {curr==NULL} = unknown();", "curr = nextCurr;"),
        ("    {curr->val>v} = unknown();", "curr = nextCurr;"),
        ("  }", ""),
        ("  assume({curr==NULL});", "while (curr != NULL)"),
        ("}", ""),
    ];
    rows.iter()
        .filter(|(text, _)| !(two_predicates && text.contains("val>v")))
        .map(|(text, c)| BoolLine {
            text: (*text).to_string(),
            c_lines: if c.is_empty() { None } else { Some(LineRange::single(line(c))) },
        })
        .collect()
}

fn scope(preds: &[&str]) -> String {
    format_predicates(&[ScopePredicates { proc: Some("partition".into()), predicates: preds.iter().map(|p| p.to_string()).collect() }])
}

fn step(needle: &str, text: &str, values: &[(&str, Option<bool>)]) -> TraceStep {
    TraceStep {
        c_line: line(needle),
        bp_line: None,
        text: text.into(),
        values: values
            .iter()
            .map(|(p, v)| (p.to_string(), match v { Some(true) => "T", Some(false) => "F", None => "?" }.to_string()))
            .collect(),
    }
}

/// The whole demo run as events.
pub fn events() -> Vec<FromWorker> {
    let first = IterationSnapshot {
        index: 1,
        predicates: scope(&["curr == NULL", "prev == NULL"]),
        boolean_program: boolean_program(true),
        abstract_trace: vec![
            step("prev = NULL;", "{prev==NULL} = true;", &[("curr == NULL", None), ("prev == NULL", Some(true))]),
            step("while (curr != NULL)", "assume(!{curr==NULL});", &[("curr == NULL", Some(false)), ("prev == NULL", Some(true))]),
            step("prev = curr;", "{prev==NULL} = {curr==NULL};", &[("curr == NULL", Some(false)), ("prev == NULL", Some(false))]),
            step("curr = nextCurr;", "{curr==NULL} = unknown();", &[("curr == NULL", Some(false)), ("prev == NULL", Some(false))]),
            step("if (curr->val > v)", "if (*) {", &[("curr == NULL", Some(false)), ("prev == NULL", Some(false))]),
            step("newl = curr;", "L: skip;  // prev->val > v possible", &[("curr == NULL", Some(false)), ("prev == NULL", Some(false))]),
        ],
        feasibility: Some(Feasibility {
            feasible: false,
            method: "wp".into(),
            rows: [
                ("newl = curr;", "prev->val > v", false),
                ("if (curr->val > v)", "prev->val > v && curr->val > v", false),
                ("prev = curr;", "curr->val > v && curr->val > v", false),
                ("} else {", "!(curr->val > v) && curr->val > v", true),
            ]
            .iter()
            .map(|(at, cond, contradiction)| FeasibilityRow {
                c_line: Some(line(at)),
                statement: PARTITION_SOURCE.lines().nth(line(at) as usize - 1).unwrap_or("").trim().to_string(),
                columns: vec![("wp".into(), (*cond).into())],
                contradiction: *contradiction,
            })
            .collect(),
            explanation: "prev was assigned in the else branch, where curr->val <= v; the path needs prev->val > v at L."
                .into(),
        }),
        new_predicates: vec!["curr->val > v".into(), "prev->val > v".into()],
        solver_calls: 38,
        elapsed_ms: 12,
    };
    let second = IterationSnapshot {
        index: 2,
        predicates: scope(&["curr == NULL", "prev == NULL", "curr->val > v", "prev->val > v"]),
        boolean_program: boolean_program(false),
        abstract_trace: Vec::new(),
        feasibility: None,
        new_predicates: Vec::new(),
        solver_calls: 263,
        elapsed_ms: 41,
    };
    let progress = |iteration: u32, phase: &str, solver_calls: u64, elapsed_ms: u64| {
        FromWorker::Progress(Progress { iteration, phase: phase.into(), solver_calls, elapsed_ms })
    };
    vec![
        progress(0, "parse", 0, 1),
        FromWorker::Diagnostics(Vec::new()),
        progress(1, "abstract", 20, 6),
        progress(1, "model check", 38, 9),
        progress(1, "refine", 38, 11),
        FromWorker::IterationSnapshot(Box::new(first)),
        progress(2, "abstract", 200, 30),
        progress(2, "model check", 263, 40),
        FromWorker::IterationSnapshot(Box::new(second)),
        FromWorker::Done(Verdict::Safe {
            invariants: vec![(
                Some(line("newl = curr;")),
                "curr != NULL && curr->val > v && (prev == NULL || prev->val <= v)".into(),
            )],
        }),
    ]
}

/// Streams [`events`].
pub fn replay(emit: &mut dyn FnMut(FromWorker)) {
    for e in events() {
        emit(e);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_linked_c_line_exists() {
        let n = PARTITION_SOURCE.lines().count() as u32;
        for e in events() {
            if let FromWorker::IterationSnapshot(s) = e {
                for l in &s.boolean_program {
                    if let Some(r) = l.c_lines {
                        assert!(r.first >= 1 && r.last <= n, "{l:?}");
                    }
                }
            }
        }
        assert_eq!(line("newl = curr;"), 24);
    }
}

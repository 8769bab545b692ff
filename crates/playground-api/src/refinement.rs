//! Explained refinement (BOOP §7.2, Fig 7.3): for a spurious abstract counterexample, the one
//! statement where a WP condition thread (or NEWTON's Ω/Φ/Π) becomes false, the condition it
//! had just before, and the predicates the refinement took from it; and the difference between
//! the boolean programs of two consecutive iterations (what the new predicates changed).
//!
//! Both are computed from the snapshots the engine already recorded, so the web view, the
//! report export and the CLI read the same explanation.

use serde::{Deserialize, Serialize};

use crate::types::{FeasibilityKind, IterationSnapshot, PredicateData};

/// Why an abstract counterexample is spurious, in the terms of the feasibility table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RefinementExplanation {
    /// 1-based path step of the decisive row (the table's `step`).
    pub step: u32,
    pub c_line: Option<u32>,
    /// The decisive statement as printed in the table.
    pub statement: String,
    /// The columns that become false there (`thread 2`, `Φ`, …), each with the condition it
    /// carried just after the statement (the row below in path order).
    pub conditions: Vec<(String, String)>,
    /// The predicates this iteration added, with their origins.
    pub added: Vec<PredicateData>,
}

impl RefinementExplanation {
    /// One sentence for a student: "thread 2, `locked != 0`, becomes false at line 59
    /// `locked = 0;`; refinement adds {locked == 0}."
    pub fn sentence(&self) -> String {
        let mut out = String::new();
        // Columns that carried the same condition are named together.
        let mut groups: Vec<(Vec<&str>, &str)> = Vec::new();
        for (column, text) in &self.conditions {
            match groups.iter_mut().find(|(_, t)| *t == text.as_str()) {
                Some((columns, _)) => columns.push(column),
                None => groups.push((vec![column], text)),
            }
        }
        let phrases: Vec<String> = groups
            .iter()
            .map(|(columns, text)| {
                let names: Vec<String> = columns.iter().map(|c| c.to_string()).collect();
                format!("{}, `{text}`,", join_and(&names))
            })
            .collect();
        let plural = self.conditions.len() > 1;
        match phrases.len() {
            0 => out.push_str("The path becomes infeasible"),
            _ => out.push_str(&capitalise(&format!("{} {}", join_and(&phrases), if plural { "become false" } else { "becomes false" }))),
        }
        match self.c_line {
            Some(line) => out.push_str(&format!(" at line {line} `{}`", self.statement.trim())),
            None => out.push_str(&format!(" at path step {} `{}`", self.step, self.statement.trim())),
        }
        if self.added.is_empty() {
            out.push_str("; refinement finds no new predicate.");
        } else {
            // over the source's names, as the table above the sentence prints them
            let names: Vec<String> = self.added.iter().map(|p| format!("{{{}}}", if p.shown.is_empty() { &p.text } else { &p.shown })).collect();
            out.push_str(&format!("; refinement adds {}.", join_and(&names)));
        }
        out
    }
}

fn capitalise(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

fn join_and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// The explanation of `snapshot`'s refinement, when its abstract counterexample was found
/// infeasible and the table names the step.
pub fn explain_refinement(snapshot: &IterationSnapshot) -> Option<RefinementExplanation> {
    if snapshot.feasibility_kind != FeasibilityKind::Infeasible {
        return None;
    }
    let table = &snapshot.feasibility_table;
    let at = match snapshot.infeasible_step {
        Some(step) => table.iter().position(|r| r.step == step),
        None => None,
    }
    .or_else(|| table.iter().position(|r| r.contradiction))?;
    let row = &table[at];
    let after = table.get(at + 1);
    let conditions = row
        .columns
        .iter()
        .filter(|(_, text)| is_false_text(text))
        .map(|(column, _)| {
            let before = after
                .and_then(|next| next.columns.iter().find(|(c, _)| c == column))
                .map(|(_, text)| text.clone())
                .unwrap_or_default();
            (column.clone(), before)
        })
        .filter(|(_, text)| !text.is_empty())
        .collect();
    Some(RefinementExplanation {
        step: row.step,
        c_line: row.c_line,
        statement: row.statement.clone(),
        conditions,
        added: snapshot.added_predicates.clone(),
    })
}

fn is_false_text(text: &str) -> bool {
    matches!(text.trim(), "false" | "0" | "F")
}

/// One line of a boolean-program diff.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "text", rename_all = "snake_case")]
pub enum DiffLine {
    Same(String),
    Added(String),
    Removed(String),
    /// A run of unchanged lines left out of the view.
    Skipped(u32),
}

/// Above this many lines on each side (after the common prefix and suffix are cut), the
/// middle is shown as removed and added wholesale instead of aligned line by line.
const MAX_ALIGNED_LINES: usize = 3000;

/// The line diff of two boolean programs (longest common subsequence), with runs of more than
/// `2 * context` unchanged lines shortened to `context` lines on each side of a change.
pub fn boolean_program_diff(before: &str, after: &str, context: usize) -> Vec<DiffLine> {
    let a: Vec<&str> = before.lines().collect();
    let b: Vec<&str> = after.lines().collect();
    let prefix = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let suffix = a[prefix..].iter().rev().zip(b[prefix..].iter().rev()).take_while(|(x, y)| x == y).count();
    let (ma, mb) = (&a[prefix..a.len() - suffix], &b[prefix..b.len() - suffix]);
    let mut full: Vec<DiffLine> = a[..prefix].iter().map(|l| DiffLine::Same(l.to_string())).collect();
    if ma.len() <= MAX_ALIGNED_LINES && mb.len() <= MAX_ALIGNED_LINES {
        full.extend(align(ma, mb));
    } else {
        full.extend(ma.iter().map(|l| DiffLine::Removed(l.to_string())));
        full.extend(mb.iter().map(|l| DiffLine::Added(l.to_string())));
    }
    full.extend(a[a.len() - suffix..].iter().map(|l| DiffLine::Same(l.to_string())));
    shorten(full, context)
}

/// Line alignment by the classic LCS table (O(n·m), bounded by `MAX_ALIGNED_LINES`).
fn align(a: &[&str], b: &[&str]) -> Vec<DiffLine> {
    let (n, m) = (a.len(), b.len());
    let mut lcs = vec![0u32; (n + 1) * (m + 1)];
    let at = |i: usize, j: usize| i * (m + 1) + j;
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[at(i, j)] = if a[i] == b[j] { lcs[at(i + 1, j + 1)] + 1 } else { lcs[at(i + 1, j)].max(lcs[at(i, j + 1)]) };
        }
    }
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::with_capacity(n + m);
    while i < n || j < m {
        if i < n && j < m && a[i] == b[j] {
            out.push(DiffLine::Same(a[i].to_string()));
            i += 1;
            j += 1;
        } else if i < n && (j == m || lcs[at(i + 1, j)] >= lcs[at(i, j + 1)]) {
            out.push(DiffLine::Removed(a[i].to_string()));
            i += 1;
        } else {
            out.push(DiffLine::Added(b[j].to_string()));
            j += 1;
        }
    }
    out
}

fn shorten(lines: Vec<DiffLine>, context: usize) -> Vec<DiffLine> {
    let changed: Vec<bool> = lines.iter().map(|l| !matches!(l, DiffLine::Same(_))).collect();
    let n = lines.len();
    let mut keep = vec![false; n];
    for (i, _) in changed.iter().enumerate().filter(|(_, c)| **c) {
        for slot in keep.iter_mut().take((i + context + 1).min(n)).skip(i.saturating_sub(context)) {
            *slot = true;
        }
    }
    let mut out = Vec::new();
    let mut skipped = 0u32;
    for (line, keep) in lines.into_iter().zip(keep) {
        if keep {
            if skipped > 0 {
                out.push(DiffLine::Skipped(skipped));
                skipped = 0;
            }
            out.push(line);
        } else {
            skipped += 1;
        }
    }
    if skipped > 0 {
        out.push(DiffLine::Skipped(skipped));
    }
    out
}

/// The diff of iteration `index` (0-based in `iterations`) against the one before it: `None`
/// for the first iteration.
pub fn iteration_diff(iterations: &[IterationSnapshot], index: usize, context: usize) -> Option<Vec<DiffLine>> {
    let previous = iterations.get(index.checked_sub(1)?)?;
    let current = iterations.get(index)?;
    Some(boolean_program_diff(&previous.boolean_program.text, &current.boolean_program.text, context))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn apply(diff: &[DiffLine]) -> (Vec<String>, Vec<String>) {
        let mut old = Vec::new();
        let mut new = Vec::new();
        for line in diff {
            match line {
                DiffLine::Same(l) => {
                    old.push(l.clone());
                    new.push(l.clone());
                }
                DiffLine::Added(l) => new.push(l.clone()),
                DiffLine::Removed(l) => old.push(l.clone()),
                DiffLine::Skipped(_) => unreachable!("context is unbounded in this test"),
            }
        }
        (old, new)
    }

    proptest! {
        /// With unbounded context the diff is a merge of both sides: dropping the added lines
        /// gives the old program, dropping the removed ones the new; and it is minimal in the
        /// number of changed lines (checked against the LCS length by brute force on short inputs).
        #[test]
        fn diff_reconstructs_both_sides(a in proptest::collection::vec(0u8..4, 0..9), b in proptest::collection::vec(0u8..4, 0..9)) {
            let text = |v: &[u8]| v.iter().map(|x| format!("l{x}")).collect::<Vec<_>>().join("\n");
            let (ta, tb) = (text(&a), text(&b));
            let diff = boolean_program_diff(&ta, &tb, usize::MAX / 4);
            if a == b {
                // nothing changed: the whole program is one skipped run (or nothing at all)
                prop_assert!(diff.is_empty() || diff == vec![DiffLine::Skipped(a.len() as u32)], "{:?}", diff);
                return Ok(());
            }
            let (old, new) = apply(&diff);
            prop_assert_eq!(old, ta.lines().map(str::to_string).collect::<Vec<_>>());
            prop_assert_eq!(new, tb.lines().map(str::to_string).collect::<Vec<_>>());
            let same = diff.iter().filter(|l| matches!(l, DiffLine::Same(_))).count();
            prop_assert_eq!(same, brute_lcs(&a, &b));
        }
    }

    fn brute_lcs(a: &[u8], b: &[u8]) -> usize {
        if a.is_empty() || b.is_empty() {
            return 0;
        }
        if a[0] == b[0] {
            1 + brute_lcs(&a[1..], &b[1..])
        } else {
            brute_lcs(&a[1..], b).max(brute_lcs(a, &b[1..]))
        }
    }

    #[test]
    fn unchanged_runs_are_shortened_around_changes() {
        let before = (0..20).map(|i| format!("s{i};")).collect::<Vec<_>>().join("\n");
        let after = before.replace("s10;", "s10; b1 := *;");
        let diff = boolean_program_diff(&before, &after, 2);
        assert_eq!(
            diff,
            vec![
                DiffLine::Skipped(8),
                DiffLine::Same("s8;".into()),
                DiffLine::Same("s9;".into()),
                DiffLine::Removed("s10;".into()),
                DiffLine::Added("s10; b1 := *;".into()),
                DiffLine::Same("s11;".into()),
                DiffLine::Same("s12;".into()),
                DiffLine::Skipped(7),
            ]
        );
    }
}

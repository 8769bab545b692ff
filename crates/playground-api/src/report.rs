//! The exported report: one self-contained HTML file (no script, no external resource) with
//! the program, the settings, every CEGAR iteration (predicates with their origins, the boolean
//! program and its diff against the previous iteration, the abstract counterexample, the
//! feasibility table with one column per WP condition thread as in BOOP Fig 7.3 and the
//! explained refinement), the invariants, the concrete trace and the verdict with the technique
//! that decided it. The playground downloads it; `predabs check --report` writes it.
//!
//! Every piece of user or engine text goes through [`escape`]: the report never carries the
//! program's text as markup.

use std::fmt::Write as _;

use crate::refinement::{boolean_program_diff, explain_refinement, DiffLine};
use crate::types::{IterationSnapshot, Outcome, PredicateData, PredicateOrigin, Request, Verdict};

/// HTML-escapes text for element content and double-quoted attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

const STYLE: &str = "body{font:15px/1.45 system-ui,sans-serif;max-width:72rem;margin:2rem auto;padding:0 1rem;color:#111;background:#fff}\
h1{font-size:1.5rem}h2{font-size:1.2rem;border-bottom:1px solid #999;margin-top:2rem}h3{font-size:1.05rem}\
pre{background:#f4f4f4;padding:.5rem;overflow-x:auto;font:13px/1.35 ui-monospace,monospace}\
table{border-collapse:collapse;margin:.5rem 0}td,th{border:1px solid #bbb;padding:2px 6px;vertical-align:top;font-size:13px;text-align:left}\
.verdict{font-weight:bold;font-size:1.2rem}.SAFE{color:#05620f}.UNSAFE{color:#a00}.UNKNOWN{color:#6b4e00}\
.decisive{background:#ffe3e3}.add{background:#e1f5e1}.del{background:#fde2e2}.skip{color:#555;font-style:italic}\
code{font:13px ui-monospace,monospace}@media print{pre{white-space:pre-wrap}h2{break-after:avoid}}";

/// The report for one run: `request` as the user sent it, `outcome` as the engine answered.
pub fn report_html(request: &Request, outcome: &Outcome) -> String {
    let mut out = String::new();
    let name = if request.file_name.is_empty() { "program.c" } else { &request.file_name };
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>predabs report: {}</title><style>{STYLE}</style></head><body>\n",
        escape(name)
    );
    let _ = writeln!(out, "<h1>predabs report: <code>{}</code></h1>", escape(name));
    verdict_section(&mut out, outcome);
    settings_section(&mut out, request);
    program_section(&mut out, &request.source);
    for (i, iteration) in outcome.iterations.iter().enumerate() {
        let previous = i.checked_sub(1).and_then(|p| outcome.iterations.get(p));
        iteration_section(&mut out, iteration, previous);
    }
    predicates_section(&mut out, &outcome.predicates);
    invariants_section(&mut out, outcome);
    trace_section(&mut out, outcome);
    if !outcome.diagnostics.is_empty() {
        out.push_str("<h2>Diagnostics</h2><ul>");
        for d in &outcome.diagnostics {
            let _ = write!(out, "<li>line {}:{}: {}</li>", d.line, d.column, escape(&d.message));
        }
        out.push_str("</ul>\n");
    }
    out.push_str("</body></html>\n");
    out
}

fn verdict_section(out: &mut String, outcome: &Outcome) {
    let verdict = outcome.verdict.as_str();
    let _ = write!(out, "<h2>Verdict</h2><p class=\"verdict {verdict}\">{verdict}</p>");
    if !outcome.reason.is_empty() {
        let _ = write!(out, "<p>{}</p>", escape(&outcome.reason));
    }
    if let Some(technique) = outcome.decided_by {
        let name = serde_json::to_value(technique).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default();
        let _ = write!(out, "<p>Decided by: <code>{}</code></p>", escape(&name));
    }
    if outcome.verdict == Verdict::Unknown && !outcome.next_step.is_empty() {
        let _ = write!(out, "<p>What to try next: {}</p>", escape(&outcome.next_step));
    }
    if outcome.cancelled {
        out.push_str("<p>The run was cancelled; the iterations it finished are listed.</p>");
    }
    let iterations = outcome.iterations.len();
    let _ = writeln!(
        out,
        "<p>{iterations} iteration{}, {} predicate{}.</p>",
        if iterations == 1 { "" } else { "s" },
        outcome.predicates.len(),
        if outcome.predicates.len() == 1 { "" } else { "s" }
    );
}

fn settings_section(out: &mut String, request: &Request) {
    out.push_str("<h2>Settings</h2><table>");
    let mode = serde_json::to_value(request.mode).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default();
    let _ = write!(out, "<tr><th>mode</th><td>{}</td></tr>", escape(&mode));
    if let Ok(serde_json::Value::Object(options)) = serde_json::to_value(&request.options) {
        for (key, value) in options {
            let shown = match value {
                serde_json::Value::String(s) => s,
                serde_json::Value::Array(items) => {
                    items.iter().map(|v| v.as_str().map(str::to_string).unwrap_or_else(|| v.to_string())).collect::<Vec<_>>().join(", ")
                }
                other => other.to_string(),
            };
            let _ = write!(out, "<tr><th>{}</th><td>{}</td></tr>", escape(&key), escape(&shown));
        }
    }
    out.push_str("</table>\n");
    if !request.predicates.trim().is_empty() {
        let _ = writeln!(out, "<h3>Initial predicates</h3><pre>{}</pre>", escape(&request.predicates));
    }
}

fn program_section(out: &mut String, source: &str) {
    out.push_str("<h2>Program</h2><pre>");
    let width = source.lines().count().max(1).to_string().len();
    for (i, line) in source.lines().enumerate() {
        let _ = writeln!(out, "{:>width$}  {}", i + 1, escape(line));
    }
    out.push_str("</pre>\n");
}

fn origin_text(origin: &PredicateOrigin) -> String {
    match origin {
        PredicateOrigin::ErrorGuard => "error guard".to_string(),
        PredicateOrigin::BranchCondition => "branch condition".to_string(),
        PredicateOrigin::User => "user".to_string(),
        PredicateOrigin::Refinement { iteration, step, c_line } => match c_line {
            Some(line) => format!("refinement of iteration {iteration}, path step {step} (line {line})"),
            None => format!("refinement of iteration {iteration}, path step {step}"),
        },
        PredicateOrigin::Candidate { iteration, analysis } => format!("candidate after iteration {iteration} ({analysis})"),
    }
}

fn predicate_rows(out: &mut String, predicates: &[PredicateData]) {
    out.push_str("<table><tr><th>scope</th><th>predicate</th><th>origin</th></tr>");
    for p in predicates {
        let _ = write!(
            out,
            "<tr><td>{}</td><td><code>{}</code></td><td>{}</td></tr>",
            escape(&p.scope),
            escape(&p.text),
            escape(&origin_text(&p.origin))
        );
    }
    out.push_str("</table>\n");
}

fn iteration_section(out: &mut String, it: &IterationSnapshot, previous: Option<&IterationSnapshot>) {
    let _ = writeln!(out, "<h2>Iteration {}</h2>", it.index);
    let _ = writeln!(out, "<h3>Predicates</h3><pre>{}</pre>", escape(&it.predicates));
    let _ = writeln!(out, "<h3>Boolean program</h3><pre>{}</pre>", escape(&it.boolean_program.text));
    if let Some(previous) = previous {
        out.push_str("<h3>Changes against the previous iteration</h3><pre>");
        for line in boolean_program_diff(&previous.boolean_program.text, &it.boolean_program.text, 2) {
            let _ = match line {
                DiffLine::Same(l) => writeln!(out, "  {}", escape(&l)),
                DiffLine::Added(l) => writeln!(out, "<span class=\"add\">+ {}</span>", escape(&l)),
                DiffLine::Removed(l) => writeln!(out, "<span class=\"del\">- {}</span>", escape(&l)),
                DiffLine::Skipped(n) => writeln!(out, "<span class=\"skip\">  … {n} unchanged line{}</span>", if n == 1 { "" } else { "s" }),
            };
        }
        out.push_str("</pre>\n");
    }
    if !it.abstract_trace.is_empty() {
        let _ = write!(out, "<h3>Abstract counterexample</h3><p>{}</p>", escape(&it.counterexample_search.describe()));
        out.push_str("<table><tr><th>C line</th><th>statement</th><th>valuation</th></tr>");
        for step in &it.abstract_trace {
            let valuation: Vec<String> = step.valuation.iter().map(|(v, b)| format!("{v}={}", u8::from(*b))).collect();
            let _ = write!(
                out,
                "<tr><td>{}</td><td><code>{}</code></td><td>{}</td></tr>",
                step.c_line.map(|l| l.to_string()).unwrap_or_default(),
                escape(&step.statement),
                escape(&valuation.join(" "))
            );
        }
        out.push_str("</table>\n");
    }
    feasibility_table(out, it);
    if let Some(explanation) = explain_refinement(it) {
        let _ = writeln!(out, "<p><strong>Why it is spurious:</strong> {}</p>", escape(&explanation.sentence()));
    }
    if !it.added_predicates.is_empty() {
        out.push_str("<h3>New predicates</h3>");
        predicate_rows(out, &it.added_predicates);
    }
    if !it.learned.is_empty() {
        out.push_str("<h3>Learned for enforce</h3><ul>");
        for cube in &it.learned {
            let _ = write!(out, "<li><code>enforce {}</code></li>", escape(cube));
        }
        out.push_str("</ul>\n");
    }
    for note in &it.notes {
        let _ = writeln!(out, "<p class=\"note\">{}</p>", escape(note));
    }
}

fn feasibility_table(out: &mut String, it: &IterationSnapshot) {
    if it.feasibility_table.is_empty() {
        return;
    }
    let mut columns: Vec<&str> = Vec::new();
    for row in &it.feasibility_table {
        for (name, _) in &row.columns {
            if !columns.contains(&name.as_str()) {
                columns.push(name);
            }
        }
    }
    let _ = write!(
        out,
        "<h3>Feasibility ({}, {})</h3><table><tr><th>step</th><th>C line</th><th>statement</th>",
        escape(&it.feasibility_method),
        escape(&it.feasibility)
    );
    for c in &columns {
        let _ = write!(out, "<th>{}</th>", escape(c));
    }
    out.push_str("</tr>");
    for row in &it.feasibility_table {
        let class = if row.contradiction { " class=\"decisive\"" } else { "" };
        let _ = write!(
            out,
            "<tr{class}><td>{}</td><td>{}</td><td><code>{}</code></td>",
            row.step,
            row.c_line.map(|l| l.to_string()).unwrap_or_default(),
            escape(&row.statement)
        );
        for c in &columns {
            let cell = row.columns.iter().find(|(n, _)| n == c).map(|(_, t)| t.as_str()).unwrap_or("");
            let _ = write!(out, "<td><code>{}</code></td>", escape(cell));
        }
        out.push_str("</tr>");
    }
    out.push_str("</table>\n");
}

fn predicates_section(out: &mut String, predicates: &[PredicateData]) {
    if predicates.is_empty() {
        return;
    }
    out.push_str("<h2>Final predicates</h2>");
    predicate_rows(out, predicates);
}

fn invariants_section(out: &mut String, outcome: &Outcome) {
    if outcome.invariants.is_empty() {
        return;
    }
    let _ = write!(out, "<h2>Invariants</h2><p>Source: {}</p><table><tr><th>procedure</th><th>C line</th><th>location</th><th>invariant</th></tr>", escape(&outcome.invariant_source));
    for inv in &outcome.invariants {
        let _ = write!(
            out,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td><code>{}</code></td></tr>",
            escape(&inv.procedure),
            inv.c_line.map(|l| l.to_string()).unwrap_or_default(),
            escape(&inv.location),
            escape(&inv.formula)
        );
    }
    out.push_str("</table>\n");
}

fn trace_section(out: &mut String, outcome: &Outcome) {
    if outcome.trace.is_empty() {
        return;
    }
    out.push_str("<h2>Concrete counterexample</h2>");
    if !outcome.inputs.is_empty() {
        let _ = write!(out, "<p>Inputs: <code>{}</code></p>", escape(&outcome.inputs.join(", ")));
    }
    out.push_str("<table><tr><th>line</th><th>procedure</th><th>statement</th><th>values</th></tr>");
    for step in &outcome.trace {
        let values: Vec<String> = step.values.iter().map(|(k, v)| format!("{k} = {v}")).collect();
        let _ = write!(
            out,
            "<tr><td>{}</td><td>{}</td><td><code>{}</code></td><td>{}</td></tr>",
            step.line,
            escape(&step.procedure),
            escape(&step.statement),
            escape(&values.join(", "))
        );
    }
    out.push_str("</table>\n");
}

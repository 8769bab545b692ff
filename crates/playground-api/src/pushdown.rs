//! The pushdown view of a boolean program (BOOP ch. 6, Fig 6.1) for the playground's
//! Boolean program mode: the rules of the pushdown system and, after post* saturation, the
//! reachable heads `⟨g, (n, l)⟩` per program point, each point linked to its boolean-program
//! line. Computed for small programs only (the rules are listed one a line).

use crate::types::{PushdownPoint, PushdownView};
use diagnostics::LineIndex;

/// Programs with more rules than this get a note instead of the listing.
pub const MAX_RULES: usize = 400;

/// The pushdown view of `program` (its text is `source`), or a note saying why there is none.
pub fn view(program: &boolprog::Program, config: &model_check::Config, source: &str) -> PushdownView {
    let Some(pds) = model_check::pds::translate(program, config.entry.as_deref(), &config.error_labels) else {
        return PushdownView { note: "no entry procedure: the pushdown system has no initial configuration".into(), ..PushdownView::default() };
    };
    if pds.rules.len() > MAX_RULES {
        return PushdownView {
            note: format!("{} rules: the pushdown view lists programs of at most {MAX_RULES} rules", pds.rules.len()),
            ..PushdownView::default()
        };
    }
    let index = LineIndex::new(source);
    let line_of = |p: &model_check::pds::Point| {
        let line = index.line_col(p.span.start).line;
        (p.span.end > p.span.start).then_some(line)
    };
    let heads = model_check::pds::saturated_heads(program, config);
    let note = if heads.is_none() { "post* did not finish within the time budget".to_string() } else { String::new() };
    let points = pds
        .points
        .iter()
        .enumerate()
        .map(|(i, p)| PushdownPoint {
            name: p.name.clone(),
            procedure: program.procs.get(p.proc.0 as usize).map(|q| q.name.clone()).unwrap_or_default(),
            line: line_of(p),
            heads: heads.as_ref().and_then(|h| h.get(i)).map(|(_, text)| text.clone()).unwrap_or_default(),
        })
        .collect();
    let rules = pds.to_text();
    PushdownView { rules: rules.lines().take_while(|l| !l.starts_with("saturated automaton")).collect::<Vec<_>>().join("\n"), points, note }
}

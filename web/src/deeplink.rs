//! Deep links (issue 31): query parameters that open the playground at a given place of a run —
//! `?mode=check&iteration=2&phase=feasibility&tab=wp&statement=37&predicate=1&step=5` — next to a
//! share link's `#v1,...` or an example. The mode applies on load; the rest once the run's
//! results are known, each validated against them, with one notice naming whatever was out of
//! range (the rest still applies). `statement` is the C line of an explained statement,
//! `predicate` and `step` are 1-based, `phase` a phase of a CEGAR iteration (BOOP Fig 3.1,
//! [`crate::reveal::Phase`]). In Shape mode `tab` names a Shape view (`tab=heaps`; rounds,
//! program, heaps, promela), applied on load ([`apply_shape_tab`]).

use crate::model::{plural, RunKind};
use crate::reveal::Phase;
use crate::state::{AppState, ExplainTab, Focus, Notice, ShapeTab};

/// Where a link opens the playground.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DeepLink {
    pub mode: Option<RunKind>,
    /// 1-based.
    pub iteration: Option<u32>,
    pub phase: Option<Phase>,
    pub tab: Option<ExplainTab>,
    /// `tab=` naming one of the Shape mode's views.
    pub shape_tab: Option<ShapeTab>,
    /// The C line of the explained statement.
    pub statement: Option<u32>,
    /// 1-based among the statement's predicates.
    pub predicate: Option<u32>,
    /// 1-based step of the abstract counterexample.
    pub step: Option<u32>,
    /// `predict=on`: the exercises' Predict toggle (crate::exercise) is on.
    pub predict: bool,
}

/// The `mode=` names.
const MODES: [(&str, RunKind); 5] = [
    ("check", RunKind::Check),
    ("abstract", RunKind::Abstract),
    ("boolean-program", RunKind::ModelCheck),
    ("hide", RunKind::Hide),
    ("shape", RunKind::Shape),
];

impl DeepLink {
    /// Reads the query string (with or without `?`); other parameters (`embed`, `example`, ...)
    /// are not its business. The problems are messages for the notice.
    pub fn parse(query: &str) -> (DeepLink, Vec<String>) {
        let mut link = DeepLink::default();
        let mut problems = Vec::new();
        for pair in query.trim_start_matches('?').split('&').filter(|p| !p.is_empty()) {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            let number = |problems: &mut Vec<String>| match value.parse::<u32>() {
                Ok(n) if n >= 1 => Some(n),
                _ => {
                    problems.push(format!("{key}={value} is not a number from 1 on"));
                    None
                }
            };
            match key {
                "mode" => match MODES.iter().find(|(k, _)| *k == value) {
                    Some((_, mode)) => link.mode = Some(*mode),
                    None => problems.push(format!("mode={value} is not a mode (check, abstract, boolean-program, hide, shape)")),
                },
                "iteration" => link.iteration = number(&mut problems),
                "statement" => link.statement = number(&mut problems),
                "predicate" => link.predicate = number(&mut problems),
                "step" => link.step = number(&mut problems),
                "predict" => match value {
                    "on" | "1" | "" => link.predict = true,
                    "off" | "0" => link.predict = false,
                    _ => problems.push(format!("predict={value} is not on or off")),
                },
                "phase" => match Phase::from_key(value) {
                    Some(p) => link.phase = Some(p),
                    None => problems.push(format!("phase={value} is not a phase (boolean-program, counterexample, feasibility, predicates)")),
                },
                "tab" => match (ExplainTab::ALL.into_iter().find(|t| t.key() == value), ShapeTab::ALL.into_iter().find(|t| t.key() == value)) {
                    (Some(t), _) => link.tab = Some(t),
                    (None, Some(t)) => link.shape_tab = Some(t),
                    (None, None) => problems.push(format!(
                        "tab={value} is not a tab ({}; in Shape mode {})",
                        ExplainTab::ALL.iter().map(|t| t.key()).collect::<Vec<_>>().join(", "),
                        ShapeTab::ALL.iter().map(|t| t.key()).collect::<Vec<_>>().join(", ")
                    )),
                },
                _ => {}
            }
        }
        (link, problems)
    }

    /// Whether anything is left to apply after the run.
    pub fn is_empty(&self) -> bool {
        *self == DeepLink { mode: self.mode, ..DeepLink::default() }
    }

    /// The query string (with `?`, empty when there is nothing) of this place.
    pub fn to_query(&self) -> String {
        let mut parts: Vec<String> = Vec::new();
        if let Some(mode) = self.mode {
            if let Some((k, _)) = MODES.iter().find(|(_, m)| *m == mode) {
                parts.push(format!("mode={k}"));
            }
        }
        let mut push = |key: &str, value: Option<String>| {
            if let Some(v) = value {
                parts.push(format!("{key}={v}"));
            }
        };
        push("iteration", self.iteration.map(|n| n.to_string()));
        push("phase", self.phase.map(|p| p.key().to_string()));
        push("tab", self.tab.map(|t| t.key()).or(self.shape_tab.map(|t| t.key())).map(str::to_string));
        push("statement", self.statement.map(|n| n.to_string()));
        push("predicate", self.predicate.map(|n| n.to_string()));
        push("step", self.step.map(|n| n.to_string()));
        push("predict", self.predict.then(|| "on".to_string()));
        if parts.is_empty() {
            String::new()
        } else {
            format!("?{}", parts.join("&"))
        }
    }
}


/// The place the playground shows now, as a link (the Share button adds it to the link).
pub fn of(s: &AppState) -> DeepLink {
    let it = s.selected_iteration();
    let shape = s.session.mode == RunKind::Shape;
    DeepLink {
        mode: None,
        iteration: s.selected.map(|i| i as u32 + 1),
        phase: s.reveal.current.filter(|(i, _)| Some(*i) == s.selected).map(|(_, p)| p),
        tab: s.explain.tab.filter(|_| !shape),
        shape_tab: Some(s.shape_tab).filter(|t| shape && *t != ShapeTab::default()),
        statement: s.explained_statement().and_then(|st| st.c_line),
        predicate: s.explained_statement().filter(|st| st.predicates.len() > 1).map(|_| s.explain.predicate as u32 + 1),
        step: s.explain.trace_step.filter(|_| it.is_some()).map(|k| k as u32 + 1),
        predict: s.exercises.enabled,
    }
}

/// A link's `tab=` in Shape mode opens that view at once (it needs no results, only the mode
/// the link or its session opens); a Shape view in another mode, or another mode's tab in
/// Shape mode, is named in the notice. Both are taken out of `link`.
pub fn apply_shape_tab(link: &mut DeepLink, s: &mut AppState) -> Vec<String> {
    let mode = s.session.mode;
    let shape_views = || ShapeTab::ALL.iter().map(|t| t.key()).collect::<Vec<_>>().join(", ");
    let mut problems = Vec::new();
    if let Some(tab) = link.shape_tab.take() {
        if mode == RunKind::Shape {
            s.shape_tab = tab;
        } else {
            problems.push(format!("tab {} (a view of Shape mode; this link opens {} mode)", tab.key(), mode.label()));
        }
    }
    if mode == RunKind::Shape {
        if let Some(tab) = link.tab.take() {
            problems.push(format!("tab {} (Shape mode's views are {})", tab.key(), shape_views()));
        }
    }
    problems
}

/// Applies a link to a run whose results are in (after its `Done`): the iteration, phase, tab
/// and trace step; the statement and predicate once the selected iteration has explanations
/// (Check mode computes them when the tab opens: then what is left waits in
/// `AppState::pending_link`). Whatever is out of range is named in one notice.
pub fn apply(link: DeepLink, s: &mut AppState) {
    let mut problems: Vec<String> = Vec::new();
    if link.predict {
        crate::exercise::reduce(s, crate::exercise::ExerciseAction::SetEnabled(true));
    }
    let n = s.run.iterations.len();
    if let Some(k) = link.iteration {
        if (k as usize) <= n {
            s.selected = Some(k as usize - 1);
            s.session.selected_iteration = Some(k);
        } else {
            problems.push(format!("iteration {k} (this run has {})", plural(n, "iteration")));
        }
    }
    if let Some(tab) = link.tab {
        s.explain.tab = Some(tab);
    }
    let index = s.selected;
    if let (Some(phase), Some(i)) = (link.phase, index) {
        let it = &s.run.iterations[i];
        let phases = Phase::of(it);
        if phases.contains(&phase) {
            // the phases after it stay hidden, as after Step with "phase by phase"
            s.reveal.enabled = true;
            s.reveal.current = (phases.last() != Some(&phase)).then_some((i, phase));
        } else {
            problems.push(format!("phase {} (iteration {} has {})", phase.label(), it.index, phases.iter().map(|p| p.label()).collect::<Vec<_>>().join(", ")));
        }
    }
    if let (Some(step), Some(i)) = (link.step, index) {
        let it = &s.run.iterations[i];
        match it.abstract_trace.get(step as usize - 1) {
            Some(st) => {
                s.explain.trace_step = Some(step as usize - 1);
                s.focus = Focus { c_line: st.c_line, bp_line: st.bp_line };
            }
            None => problems.push(format!("step {step} (the abstract counterexample of iteration {} has {})", it.index, plural(it.abstract_trace.len(), "step"))),
        }
    }
    let rest = DeepLink { statement: link.statement, predicate: link.predicate, ..DeepLink::default() };
    if link.statement.is_some() || link.predicate.is_some() {
        if s.explanation().is_some() {
            problems.extend(apply_statement(&rest, s));
        } else if s.run.kind == Some(RunKind::Check) && index.is_some() {
            s.pending_link = Some(rest);
        } else {
            problems.push("a statement (this run has no explanations)".into());
        }
    }
    notify(s, problems);
}

/// The statement (by its C line) and predicate of a link, once explanations are there.
pub fn apply_statement(link: &DeepLink, s: &mut AppState) -> Vec<String> {
    let mut problems = Vec::new();
    let Some(explanation) = s.explanation() else { return problems };
    let Some(line) = link.statement else { return problems };
    let Some(k) = explanation.statements.iter().position(|st| st.c_line == Some(line)) else {
        let lines: Vec<String> = explanation.statements.iter().filter_map(|st| st.c_line).map(|l| l.to_string()).collect();
        problems.push(format!("statement at line {line} (explained statements are at lines {})", lines.join(", ")));
        return problems;
    };
    let statement = &explanation.statements[k];
    let (c_line, bp_line, count) = (statement.c_line, statement.bp_line, statement.predicates.len());
    s.explain.statement = Some(k);
    s.explain.predicate = 0;
    s.focus = Focus { c_line, bp_line };
    if let Some(p) = link.predicate {
        if (p as usize) <= count {
            s.explain.predicate = p as usize - 1;
        } else {
            problems.push(format!("predicate {p} (the statement at line {line} has {})", plural(count, "predicate")));
        }
    }
    problems
}

/// One notice for the parts of a link that did not apply.
pub fn notify(s: &mut AppState, problems: Vec<String>) {
    if problems.is_empty() {
        return;
    }
    const HEAD: &str = "Parts of this link were not applied: ";
    const TAIL: &str = ". The rest of it is shown.";
    let list = problems.join("; ");
    s.notice = Some(match s.notice.take() {
        // the parts the run ruled out join those the parser did
        Some(n) if n.text.contains(HEAD) && n.text.contains(TAIL) => Notice { text: n.text.replacen(TAIL, &format!("; {list}{TAIL}"), 1), error: true, action: n.action },
        Some(n) => Notice { text: format!("{} {HEAD}{list}{TAIL}", n.text), error: true, action: n.action },
        None => Notice { text: format!("{HEAD}{list}{TAIL}"), error: true, action: None },
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reveal::tests::spurious;

    #[test]
    fn links_round_trip_and_bad_values_are_named() {
        let (link, problems) = DeepLink::parse("?mode=check&iteration=2&phase=feasibility&tab=wp&statement=37&predicate=1&step=5&embed");
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(link.iteration, Some(2));
        assert_eq!(link.phase, Some(Phase::Feasibility));
        assert_eq!(link.tab, Some(ExplainTab::Wp));
        assert_eq!(DeepLink::parse(&link.to_query()).0, link);
        let (bad, problems) = DeepLink::parse("iteration=0&tab=nope&phase=verdict&mode=x&step=-1");
        assert_eq!(bad, DeepLink::default());
        assert_eq!(problems.len(), 5, "{problems:?}");
        assert!(problems[1].contains("tab=nope is not a tab (trace, lattice"), "{problems:?}");
        assert!(DeepLink { mode: Some(RunKind::Abstract), ..DeepLink::default() }.is_empty());
        let (predict, problems) = DeepLink::parse("predict=on&iteration=1");
        assert!(predict.predict && problems.is_empty(), "{problems:?}");
        assert_eq!(DeepLink::parse(&predict.to_query()).0, predict);
        assert_eq!(DeepLink::parse("predict=maybe").1.len(), 1);
    }

    #[test]
    fn shape_views_are_tabs_of_shape_mode_only() {
        let (link, problems) = DeepLink::parse("?mode=shape&tab=heaps");
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!((link.tab, link.shape_tab), (None, Some(ShapeTab::Heaps)));
        assert_eq!(link.to_query(), "?mode=shape&tab=heaps");
        assert_eq!(DeepLink::parse(&link.to_query()).0, link);
        let (_, problems) = DeepLink::parse("tab=heap");
        assert!(problems[0].contains("; in Shape mode rounds, program, heaps, promela)"), "{problems:?}");
        // in Shape mode the view opens at once and leaves nothing to wait for the run
        let mut s = AppState::new(crate::share::Session::default(), None);
        s.session.mode = RunKind::Shape;
        let mut l = link.clone();
        assert!(apply_shape_tab(&mut l, &mut s).is_empty());
        assert_eq!(s.shape_tab, ShapeTab::Heaps);
        assert!(l.is_empty());
        // the share link carries it (and no other mode's tab)
        s.explain.tab = Some(ExplainTab::Wp);
        assert_eq!(of(&s).to_query(), "?tab=heaps");
        s.shape_tab = ShapeTab::Rounds;
        assert_eq!(of(&s).to_query(), "", "the default view is not written");
        // another mode's tab in Shape mode, a Shape view in another mode: named, not applied
        let mut wp = DeepLink { tab: Some(ExplainTab::Wp), ..DeepLink::default() };
        assert_eq!(apply_shape_tab(&mut wp, &mut s), vec!["tab wp (Shape mode's views are rounds, program, heaps, promela)".to_string()]);
        s.session.mode = RunKind::Check;
        let mut l = link.clone();
        assert_eq!(apply_shape_tab(&mut l, &mut s), vec!["tab heaps (a view of Shape mode; this link opens Check mode)".to_string()]);
        assert_eq!(s.shape_tab, ShapeTab::Rounds);
    }

    #[test]
    fn a_link_applies_what_is_in_range_and_names_the_rest() {
        let mut s = AppState::new(crate::share::Session::default(), None);
        s.run.kind = Some(RunKind::Check);
        s.run.iterations = vec![spurious(1), spurious(2)];
        let link = DeepLink { iteration: Some(2), phase: Some(Phase::Counterexample), tab: Some(ExplainTab::Trace), step: Some(1), ..DeepLink::default() };
        apply(link.clone(), &mut s);
        assert_eq!(s.selected, Some(1));
        assert_eq!(s.reveal.current, Some((1, Phase::Counterexample)));
        assert_eq!(s.explain.trace_step, Some(0));
        assert_eq!(s.focus, Focus { c_line: Some(7), bp_line: Some(4) });
        assert!(s.notice.is_none());
        assert_eq!(of(&s), DeepLink { mode: None, statement: None, predicate: None, ..link });
        apply(DeepLink { predict: true, ..DeepLink::default() }, &mut s);
        assert!(s.exercises.enabled && s.reveal.enabled, "predict=on turns Predict (and phase by phase) on");
        assert!(of(&s).predict);

        let mut s = AppState::new(crate::share::Session::default(), None);
        s.run.iterations = vec![spurious(1)];
        apply(DeepLink { iteration: Some(5), step: Some(3), statement: Some(9), ..DeepLink::default() }, &mut s);
        notify(&mut s, vec!["tab=x is not a tab".into()]);
        let text = s.notice.expect("a notice").text;
        assert!(text.contains("iteration 5 (this run has 1 iteration)"), "{text}");
        assert!(text.contains("statement (this run has no explanations)"), "{text}");
        assert!(text.contains("; tab=x is not a tab. The rest"), "one notice: {text}");
        assert_eq!(text.matches("Parts of this link").count(), 1, "{text}");
    }
}

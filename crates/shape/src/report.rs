//! Everything an analysis computed, as plain serialisable data for the CLI (`--json`) and a UI:
//! the locations and edges linked to C lines, every abstraction run (rounds, the table of
//! pairs with status and parent, WP derivations step by step, the abstract actions), growing
//! families and hints, the boolean program, its Promela text, and the verdict.

use crate::abstraction::{self, Abstraction, Status};
use crate::autohint::{self, Suggestion};
use crate::emit;
use crate::parse::Hint;
use crate::replay::{self, Replay, Witness};
use crate::simplify::Rule;
use crate::terms::Names;
use crate::wp::Update;
use crate::{Request, Session};
use diagnostics::LineIndex;
use serde::Serialize;

#[derive(Clone, Debug, Serialize)]
pub struct LocationView {
    pub label: String,
    pub line: u32,
}

#[derive(Clone, Debug, Serialize)]
pub struct EdgeView {
    pub id: u32,
    pub from: String,
    pub to: String,
    pub guard: String,
    pub text: String,
    /// 1-based C lines of the statements.
    pub lines: Vec<u32>,
}

#[derive(Clone, Debug, Serialize)]
pub struct PredView {
    pub boolean: String,
    pub predicate: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct PairView {
    pub id: u32,
    pub boolean: String,
    pub predicate: String,
    pub location: String,
    pub round: u32,
    pub status: Status,
    pub parent_pair: Option<u32>,
    pub parent_edge: Option<u32>,
    pub hint: Option<usize>,
    /// For a pair reduced under its hint's condition ([`crate::assume`]): `if C then r else ⊤`
    /// and the rules that gave `r`.
    pub approximation: Option<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct RoundView {
    pub index: u32,
    pub processed: Vec<u32>,
    pub added: Vec<u32>,
}

/// One step of a WP derivation.
#[derive(Clone, Debug, Serialize)]
pub enum StepView {
    /// The statement as a memory update `M' = M[i ← c]`, and the predicate transformed.
    Update { predicate: String, store: String },
    /// One Morris alias case: its condition and the predicate in the old memory.
    AliasCase { condition: String, predicate: String },
    /// The Fig 5 row instantiated for a case.
    Fig5Row { row: String },
    /// One rewrite of the simplifier.
    Rewrite { rule: Rule, before: String, after: String },
    /// The simplified WP.
    Result { formula: String },
}

#[derive(Clone, Debug, Serialize)]
pub struct DerivationView {
    pub pair: u32,
    pub edge: u32,
    pub steps: Vec<StepView>,
    pub result: String,
    /// Pairs this derivation added.
    pub new_pairs: Vec<u32>,
}

#[derive(Clone, Debug, Serialize)]
pub struct ActionView {
    pub edge: u32,
    pub from: String,
    pub to: String,
    pub c_text: String,
    pub lines: Vec<u32>,
    pub guard: String,
    /// `b1 := b2 | b3`, then hint and `*` assignments.
    pub assignments: Vec<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct HintView {
    pub text: String,
    pub origin: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct FamilyView {
    pub location: String,
    pub members: Vec<String>,
    pub suggested_hint: Option<String>,
    pub reason: Option<String>,
    pub heaps_checked: usize,
    pub refuted: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct RunView {
    pub bound: u32,
    pub iterations: u32,
    pub converged: bool,
    pub predicates: Vec<PredView>,
    pub pairs: Vec<PairView>,
    pub rounds: Vec<RoundView>,
    pub derivations: Vec<DerivationView>,
    pub actions: Vec<ActionView>,
    pub hints: Vec<HintView>,
    pub families: Vec<FamilyView>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Verdict {
    Safe,
    Unsafe,
    Unknown,
}

impl Verdict {
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Safe => "SAFE",
            Verdict::Unsafe => "UNSAFE",
            Verdict::Unknown => "UNKNOWN",
        }
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub procedure: String,
    pub locations: Vec<LocationView>,
    pub edges: Vec<EdgeView>,
    /// Every abstraction run; with `--auto-hints` the later ones use the hints found.
    pub runs: Vec<RunView>,
    pub boolean_program: String,
    /// The abstract program in Promela ([`crate::promela`]: one atomic step per location).
    pub promela: Result<String, String>,
    pub verdict: Verdict,
    pub reason: String,
    pub witness: Option<Witness>,
    /// When the abstract program can violate the property: the model checker's abstract
    /// counterexample, one step a line (`L_n…` blocks are locations, `E…` edges) with the
    /// booleans after the step.
    pub abstract_trace: Option<String>,
    /// Concrete runs from small input heaps with every pair's concrete value beside the
    /// values its boolean may take ([`crate::pictures`]).
    pub heap_runs: Vec<crate::pictures::HeapRunView>,
}

impl Report {
    pub fn final_run(&self) -> Option<&RunView> {
        self.runs.last()
    }
}

fn lines_of(index: &LineIndex, spans: impl Iterator<Item = diagnostics::Span>) -> Vec<u32> {
    let mut out: Vec<u32> = spans.filter(|s| !s.is_empty() || s.start > 0).map(|s| index.line_col(s.start).line).collect();
    out.sort_unstable();
    out.dedup();
    out
}

fn hint_text(names: &Names, session: &Session, h: &Hint) -> String {
    let loc = h.loc.map(|l| session.flowchart.location(l).label.clone()).unwrap_or_else(|| "*".into());
    format!("{}@{loc} -> if {} then false else T", names.pred(&h.pattern), names.formula(&h.cond))
}

fn derivation_steps(names: &Names, steps: &[crate::wp::WpResult], pred_text: &dyn Fn(&crate::terms::Pred) -> String) -> Vec<StepView> {
    let mut out = Vec::new();
    for r in steps {
        let store = match &r.update {
            Update::Free { ptr } => format!("alloc' = alloc \\ {{{}}}", names.term(ptr)),
            u => {
                let (i, c) = u.store().unwrap_or((crate::terms::Term::Unknown, crate::terms::Term::Unknown));
                format!("M' = M[{} <- {}]", names.term(&i), names.term(&c))
            }
        };
        let first = r.cases.first().map(|c| pred_text(&c.pred)).unwrap_or_default();
        out.push(StepView::Update { predicate: first, store });
        for case in &r.cases {
            let cond = if case.condition.is_empty() { "always".to_string() } else { case.condition.iter().map(|c| names.formula(c)).collect::<Vec<_>>().join(" && ") };
            out.push(StepView::AliasCase { condition: cond, predicate: names.pred(&case.pred) });
            out.push(StepView::Fig5Row { row: names.formula(&case.row) });
        }
        for rw in &r.rewrites {
            out.push(StepView::Rewrite { rule: rw.rule, before: names.formula(&rw.before), after: names.formula(&rw.after) });
        }
        out.push(StepView::Result { formula: names.formula(&r.simplified) });
    }
    out
}

/// The table, rounds, derivations and actions of one abstraction.
pub fn run_view(session: &Session, source: &str, abs: &Abstraction, bound: u32, suggestions: &[Suggestion]) -> RunView {
    let names = session.names();
    let fc = &session.flowchart;
    let index = LineIndex::new(source);
    let label = |l| fc.location(l).label.clone();
    let predicates = abs.preds.iter().enumerate().map(|(i, p)| PredView { boolean: emit::bool_name(i as u32), predicate: names.pred(p) }).collect();
    let pairs = abs
        .pairs
        .iter()
        .map(|p| PairView {
            id: p.id.0,
            boolean: emit::bool_name(p.pred.0),
            predicate: names.pred(abs.pred(p.pred)),
            location: label(p.loc),
            round: p.round,
            status: p.status,
            parent_pair: p.parent.map(|x| x.0 .0),
            parent_edge: p.parent.and_then(|x| x.1).map(|e| e.0),
            hint: p.hint,
            approximation: p.hint.filter(|_| !p.residual_rules.is_empty()).map(|h| {
                format!("if {} then {} else T  ({})", names.formula(&abs.hints[h].cond), names.formula(&p.residual), p.residual_rules.join("; "))
            }),
        })
        .collect();
    let rounds = abs.rounds.iter().map(|r| RoundView { index: r.index, processed: r.processed.iter().map(|p| p.0).collect(), added: r.added.iter().map(|p| p.0).collect() }).collect();
    let derivations = abs
        .derivations
        .iter()
        .map(|d| {
            let new_pairs = abs.pairs.iter().filter(|p| p.parent == Some((d.pair, Some(d.edge)))).map(|p| p.id.0).collect();
            DerivationView {
                pair: d.pair.0,
                edge: d.edge.0,
                steps: derivation_steps(&names, &d.steps, &|p| names.pred(p)),
                result: names.formula(&d.result),
                new_pairs,
            }
        })
        .collect();
    let program = emit::boolean_program(abs, fc, &session.preconditions, &session.properties);
    let actions = fc
        .edges
        .iter()
        .map(|e| {
            let mut assignments: Vec<String> = abs
                .assignments
                .iter()
                .filter(|a| a.edge == e.id)
                .map(|a| format!("{} := {}", emit::bool_name(a.pred.0), boolprog::print_expr_c_like(&emit::bar(abs, &a.formula))))
                .collect();
            for p in emit::approximated_pairs(abs, e.to) {
                match (p.status, p.hint) {
                    (Status::Hinted, Some(h)) => assignments.push(format!(
                        "{} := if {} then {} else *",
                        emit::bool_name(p.pred.0),
                        boolprog::print_expr_c_like(&emit::bar(abs, &abs.hints[h].cond)),
                        boolprog::print_expr_c_like(&emit::bar(abs, &p.residual))
                    )),
                    (Status::OverApproximated, _) => assignments.push(format!("{} := *", emit::bool_name(p.pred.0))),
                    _ => {}
                }
            }
            ActionView {
                edge: e.id.0,
                from: label(e.from),
                to: label(e.to),
                c_text: e.text.clone(),
                lines: lines_of(&index, e.stmts.iter().map(|&s| session.program.proc(session.proc).body[s as usize].span)),
                guard: boolprog::print_expr_c_like(&emit::bar(abs, &e.guard)),
                assignments,
            }
        })
        .collect();
    let _ = program;
    let hints = abs.hints.iter().map(|h| HintView { text: hint_text(&names, session, h), origin: h.origin.clone() }).collect();
    let fams = autohint::families(abs);
    let families = fams
        .iter()
        .enumerate()
        .map(|(k, f)| {
            let _ = k;
            let s = suggestions.iter().find(|s| s.hint.loc == Some(f.loc) && crate::abstraction::skeleton(&s.hint.pattern) == f.skeleton);
            FamilyView {
                location: label(f.loc),
                members: f.members.iter().map(|m| names.pred(abs.pred(*m))).collect(),
                suggested_hint: s.map(|s| hint_text(&names, session, &s.hint)),
                reason: s.map(|s| s.reason.clone()),
                heaps_checked: s.map(|s| s.heaps_checked).unwrap_or(0),
                refuted: s.is_some_and(|s| s.refuted),
            }
        })
        .collect();
    RunView { bound, iterations: abs.iterations(), converged: abs.converged, predicates, pairs, rounds, derivations, actions, hints, families }
}

/// Model checking of one abstract program gives up (UNKNOWN) after this long.
pub const MODEL_CHECK_BUDGET_MS: u64 = 20_000;

/// Runs the abstraction (with auto-hints if asked), model-checks, and replays violations.
pub fn run(session: &Session, req: &Request) -> Report {
    let fc = &session.flowchart;
    let index = LineIndex::new(&req.source);
    let body = &session.program.proc(session.proc).body;
    let locations = fc.locations.iter().map(|l| LocationView { label: l.label.clone(), line: index.line_col(l.span.start).line }).collect();
    let names = session.names();
    let edges = fc
        .edges
        .iter()
        .map(|e| EdgeView {
            id: e.id.0,
            from: fc.location(e.from).label.clone(),
            to: fc.location(e.to).label.clone(),
            guard: names.formula(&e.guard),
            text: e.text.clone(),
            lines: lines_of(&index, e.stmts.iter().map(|&s| body[s as usize].span)),
        })
        .collect();
    let timing = std::env::var_os("SHAPE_TIMING").is_some();
    let clock = web_time::Instant::now(); // std::time::Instant panics in wasm
    let lap = |what: &str| {
        if timing {
            eprintln!("[shape timing] {what}: {:.2}s", clock.elapsed().as_secs_f64());
        }
    };
    let hints = session.hints.clone();
    let mut runs = Vec::new();
    let mut abs = session.abstract_with(&hints, req.bound);
    lap("abstraction");
    let mut online_suggestions = None;
    if req.auto_hints && !abs.converged {
        // the same abstraction again, with each growing family cut by its template hint as
        // soon as it is recognised; the run without them is kept to show the families
        let first = abs;
        let mut online = autohint::Online::new(session);
        let found = abstraction::run_online(names, fc, &session.initial_pairs(), &hints, req.bound, &mut |a| online.hints_for(a));
        lap("abstraction with automatic hints");
        runs.push(run_view(session, &req.source, &first, req.bound, &online.suggestions));
        // the paper's "rerun the tool": every hint applies from the first round, so the
        // members found before their family was recognised are never generated
        let rerun = session.abstract_with(&found.hints, req.bound);
        lap("rerun with the hints found");
        abs = if rerun.converged || !found.converged {
            runs.push(run_view(session, &req.source, &found, req.bound, &online.suggestions));
            rerun
        } else {
            found
        };
        online_suggestions = Some(online.suggestions);
    }
    let suggestions = match online_suggestions {
        Some(s) => s,
        None if abs.converged => Vec::new(),
        None => autohint::suggest(session, &abs, &autohint::families(&abs)),
    };
    lap("final suggestions");
    runs.push(run_view(session, &req.source, &abs, req.bound, &suggestions));
    lap("run view");
    let program = emit::boolean_program(&abs, fc, &session.preconditions, &session.properties);
    let boolean_program = boolprog::print_bebop(&program).text;
    let promela = Ok(crate::promela::export(&names, &abs, fc, &session.preconditions, &session.properties));
    let config = model_check::Config {
        compute_invariants: false,
        entry: Some("main".into()),
        eliminate_dead_variables: true,
        time_budget_ms: Some(MODEL_CHECK_BUDGET_MS),
        compute_trace: true,
        ..Default::default()
    };
    let outcome = model_check::check(&program, &config);
    lap("model check");
    if timing {
        eprintln!("model check: {:?}", outcome.statistics);
    }
    let (verdict, reason, witness) = match outcome.verdict {
        model_check::Verdict::Safe => {
            let how = if abs.converged { format!("converged after {} iterations", abs.iterations()) } else { format!("bound {} reached; unexamined pairs over-approximated", req.bound) };
            (Verdict::Safe, format!("the abstract program satisfies the property ({how})"), None)
        }
        model_check::Verdict::Unknown(why) => (Verdict::Unknown, format!("model checking gave up: {why}"), None),
        model_check::Verdict::ErrorReachable => match replay::search(session, &req.source, 3) {
            Replay::Violation(w) => (Verdict::Unsafe, format!("a concrete heap violates the property at {}", w.location), Some(w)),
            Replay::NotFound { cells, runs } => (
                Verdict::Unknown,
                format!(
                    "the abstract program can violate the property, but no concrete heap of up to {cells} cells does ({runs} runs){}",
                    if abs.converged { String::new() } else { format!("; bound {} reached", req.bound) }
                ),
                None,
            ),
            Replay::Failed(why) => (Verdict::Unknown, format!("abstract counterexample not replayed: {why}"), None),
        },
    };
    Report {
        procedure: req.proc.clone(),
        locations,
        edges,
        runs,
        boolean_program,
        promela,
        verdict,
        reason,
        witness,
        abstract_trace: outcome.trace.as_ref().map(|t| model_check::format_trace(&program, t)),
        heap_runs: crate::pictures::views(session, &abs, &crate::pictures::runs(session, &abs), &req.source),
    }
}

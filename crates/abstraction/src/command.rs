//! `predabs abstract` with the papers' conventions and precision switches, and `predabs mc
//! --engine pds`: plain functions from the inputs' text to the text to print, so the CLI (and
//! tests) call one function.
//!
//! - `syntax`: the boolean program in Bebop syntax (BOOP Fig 4.2) or C2BP's C-like form (Fig 1(b));
//! - `queries` (`LABEL: EXPR`, C2BP §2.2): does the invariant BEBOP computes at the C label imply
//!   the C expression? The invariant (a DNF over boolean variables) is concretised by replacing
//!   each variable by its predicate (`γ`, C2BP §4.6; temporaries such as `prm1`/`ret1` are
//!   dropped, which only weakens it), and the decision procedure checks `γ(inv) ⇒ EXPR` under the
//!   configured integer semantics. Each answer is printed with the solver query;
//! - the [`AbstractionConfig`] carries `enforce`, `points_to` and `solver.integers`;
//! - [`model_check_pds`]: the pushdown-system engine (BOOP ch. 6, `model_check::pds`).

use std::fmt::Write as _;

use c_ir::{display_expr, Expr, ProcId, Program};
use diagnostics::Diagnostic;

use crate::{abstract_program, Abstraction, AbstractionConfig, PredicateScope};

pub use c_front::{DataModel, LowerOptions};
pub use solver::IntegerSemantics;

/// How the boolean program is printed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Syntax {
    /// Bebop/Moped (`decl`, `begin`/`end`, `:=`).
    #[default]
    Bebop,
    /// C2BP Fig 1(b) (`bool`, braces, `=`).
    C2bp,
}

/// One `predabs abstract` run.
#[derive(Clone, Debug)]
pub struct AbstractCommand {
    pub source: String,
    pub file_name: String,
    /// C2BP predicate file text.
    pub predicates: String,
    pub lower: c_front::LowerOptions,
    pub config: AbstractionConfig,
    pub syntax: Syntax,
    /// `LABEL: EXPR` questions about the invariant at a C label.
    pub queries: Vec<String>,
    /// Also print BEBOP's invariants at labels and procedure entries.
    pub invariants: bool,
}

/// What to print, and whether the run succeeded (no errors in the inputs).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CommandOutput {
    pub stdout: String,
    pub stderr: String,
    pub success: bool,
}

fn failed(stderr: String) -> CommandOutput {
    CommandOutput {
        stdout: String::new(),
        stderr,
        success: false,
    }
}

/// Lowers, abstracts, prints, and answers the queries.
pub fn run_abstract(command: &AbstractCommand) -> CommandOutput {
    let (program, diagnostics) =
        c_front::lower(&command.source, &command.file_name, &command.lower);
    let mut stderr = diagnostics::render_all(&diagnostics, &command.file_name, &command.source);
    let Some(program) = program.filter(|_| !diagnostics::has_errors(&diagnostics)) else {
        return failed(stderr);
    };
    let (predicates, diagnostics) = c_front::parse_predicates(&program, &command.predicates);
    stderr.push_str(&diagnostics::render_all(
        &diagnostics,
        "predicates",
        &command.predicates,
    ));
    if diagnostics::has_errors(&diagnostics) {
        return failed(stderr);
    }
    let (abstraction, diagnostics) = abstract_program(&program, &predicates, &command.config);
    stderr.push_str(&diagnostics::render_all(
        &diagnostics,
        &command.file_name,
        &command.source,
    ));
    let printed = match command.syntax {
        Syntax::Bebop => boolprog::print_bebop(&abstraction.program),
        Syntax::C2bp => boolprog::print_c_like(&abstraction.program),
    };
    let mut stdout = printed.text;
    let mut success = !diagnostics::has_errors(&diagnostics);
    if command.invariants || !command.queries.is_empty() {
        let outcome = model_check::check(&abstraction.program, &model_check::Config::default());
        if command.invariants {
            print_invariants(&abstraction, &outcome, &mut stdout);
        }
        for query in &command.queries {
            match query_invariant(&program, &abstraction, &outcome, query, &command.config) {
                Ok(answer) => stdout.push_str(&answer.to_text()),
                Err(d) => {
                    stderr.push_str(&diagnostics::render_all(&[d], "query", query));
                    success = false;
                }
            }
        }
    }
    CommandOutput {
        stdout,
        stderr,
        success,
    }
}

fn print_invariants(abstraction: &Abstraction, outcome: &model_check::Outcome, out: &mut String) {
    let _ = writeln!(out, "invariants ({}):", verdict_text(&outcome.verdict));
    for inv in outcome
        .invariants
        .iter()
        .filter(|i| i.label.is_some() || i.stmt.0 == 0)
    {
        let proc = &abstraction.program.proc(inv.proc).name;
        let at = inv
            .label
            .as_deref()
            .map_or("entry".to_string(), |l| format!("label {l}"));
        let _ = writeln!(out, "  {proc} at {at}: {}", inv.text);
    }
}

fn verdict_text(verdict: &model_check::Verdict) -> String {
    match verdict {
        model_check::Verdict::Safe => "the boolean program is safe".into(),
        model_check::Verdict::ErrorReachable => {
            "the error is reachable in the boolean program; invariants are not computed".into()
        }
        model_check::Verdict::Unknown(why) => format!("model checking gave up: {why}"),
    }
}

/// The answer to one `LABEL: EXPR` question about the invariant at a C label (C2BP §2.2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QueryVerdict {
    /// The concretised invariant implies the expression.
    Holds,
    /// It does not (the invariant, over the predicates, allows a state where the expression is false).
    DoesNotHold,
    /// No invariant at the label (the boolean program is unsafe, or model checking gave up),
    /// or the decision procedure could not decide; the reason.
    Unknown(String),
}

/// One answered query: the label, the expression, the verdict, and what was asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvariantQuery {
    pub label: String,
    /// The C expression as the user wrote it.
    pub expression: String,
    pub verdict: QueryVerdict,
    /// BEBOP's invariant at the label over the boolean variables (`None` when there is none).
    pub invariant: Option<String>,
    /// The solver query `γ(invariant) => EXPR` in C syntax (`None` when not asked).
    pub solver_query: Option<String>,
    /// The integer semantics of the query (`wrap` or `ideal`).
    pub integers: &'static str,
}

impl InvariantQuery {
    /// `QUERY LABEL: EXPR: HOLDS|DOES NOT HOLD|UNKNOWN (why)`, then the invariant and the
    /// solver query, as `predabs abstract --query` prints them.
    pub fn to_text(&self) -> String {
        let verdict = match &self.verdict {
            QueryVerdict::Holds => "HOLDS".to_string(),
            QueryVerdict::DoesNotHold => "DOES NOT HOLD".to_string(),
            QueryVerdict::Unknown(why) => format!("UNKNOWN ({why})"),
        };
        let mut out = String::new();
        let _ = writeln!(out, "QUERY {}: {}: {verdict}", self.label, self.expression);
        if let Some(invariant) = &self.invariant {
            let _ = writeln!(out, "  invariant at {}: {invariant}", self.label);
        }
        if let Some(query) = &self.solver_query {
            let _ = writeln!(out, "  solver query ({} integers): valid? {query}", self.integers);
        }
        out
    }
}

/// Lowers and abstracts `command`'s program, model checks the boolean program, and answers
/// each of its queries (C2BP §2.2); `Err` with the rendered diagnostics when the program or
/// the predicates do not parse. A query that does not parse is answered by its diagnostic.
pub fn run_queries(command: &AbstractCommand) -> Result<Vec<Result<InvariantQuery, Diagnostic>>, String> {
    let (program, diagnostics) = c_front::lower(&command.source, &command.file_name, &command.lower);
    let mut rendered = diagnostics::render_all(&diagnostics, &command.file_name, &command.source);
    let Some(program) = program.filter(|_| !diagnostics::has_errors(&diagnostics)) else {
        return Err(rendered);
    };
    let (predicates, diagnostics) = c_front::parse_predicates(&program, &command.predicates);
    if diagnostics::has_errors(&diagnostics) {
        rendered.push_str(&diagnostics::render_all(&diagnostics, "predicates", &command.predicates));
        return Err(rendered);
    }
    let (abstraction, _) = abstract_program(&program, &predicates, &command.config);
    let outcome = model_check::check(&abstraction.program, &model_check::Config::default());
    Ok(command.queries.iter().map(|q| query_invariant(&program, &abstraction, &outcome, q, &command.config)).collect())
}

/// `LABEL: EXPR` → does the invariant BEBOP computed at the C label imply the expression?
pub fn query_invariant(
    program: &Program,
    abstraction: &Abstraction,
    outcome: &model_check::Outcome,
    query: &str,
    config: &AbstractionConfig,
) -> Result<InvariantQuery, Diagnostic> {
    let span = diagnostics::Span::new(0, query.len() as u32);
    let Some((label, text)) = query.split_once(':').map(|(l, e)| (l.trim(), e.trim())) else {
        return Err(Diagnostic::error(span, "a query is `LABEL: EXPR`")
            .with_help("for example `--query 'L: prev != curr'`"));
    };
    let Some((proc, index)) = program
        .procs
        .iter()
        .enumerate()
        .find_map(|(p, pr)| pr.label_index(label).map(|i| (p, i)))
    else {
        return Err(Diagnostic::error(
            span,
            format!("no C statement is labelled `{label}`"),
        ));
    };
    let proc = ProcId(proc as u32);
    let offset = query.find(text).unwrap_or(0) as u32;
    let (expr, diagnostics) = c_front::parse_expression(program, Some(proc), text);
    let Some(expr) = expr.filter(|_| !diagnostics::has_errors(&diagnostics)) else {
        let first = diagnostics
            .into_iter()
            .next()
            .unwrap_or_else(|| Diagnostic::error(span, "not a C expression"));
        return Err(shift(first, offset));
    };
    let origin = boolprog::Origin {
        proc: proc.0,
        index,
    };
    let integers = config.solver.integers.name();
    let mut answer = InvariantQuery {
        label: label.to_string(),
        expression: text.to_string(),
        verdict: QueryVerdict::Unknown(verdict_text(&outcome.verdict)),
        invariant: None,
        solver_query: None,
        integers,
    };
    let Some(invariant) = outcome.invariants.iter().find(|i| i.origin == Some(origin)) else {
        return Ok(answer);
    };
    let concrete = concretise(abstraction, proc, &invariant.cubes);
    let mut solver = solver::Solver::new(program, &config.solver);
    let decided = solver.implies(&[concrete.clone()], &expr);
    let shown = Expr::binary(c_ir::BinaryOp::Implies, concrete, expr);
    answer.verdict = match decided {
        solver::Answer::Yes => QueryVerdict::Holds,
        solver::Answer::No => QueryVerdict::DoesNotHold,
        solver::Answer::Unknown(why) => QueryVerdict::Unknown(why),
    };
    answer.invariant = Some(invariant.text.clone());
    answer.solver_query = Some(display_expr(program, &shown));
    Ok(answer)
}

fn shift(mut d: Diagnostic, by: u32) -> Diagnostic {
    d.span = diagnostics::Span::new(d.span.start + by, d.span.end + by);
    d
}

/// `γ` of a DNF over boolean variables: each variable replaced by its predicate (variables
/// without a predicate, the call temporaries, are dropped).
fn concretise(
    abstraction: &Abstraction,
    proc: ProcId,
    cubes: &[Vec<model_check::Literal>],
) -> Expr {
    let predicate = |name: &str| {
        abstraction
            .variables
            .iter()
            .find(|v| {
                v.name == name
                    && (v.scope == PredicateScope::Procedure(proc)
                        || v.scope == PredicateScope::Global)
            })
            .map(|v| v.predicate.clone())
    };
    let disjuncts: Vec<Expr> = cubes
        .iter()
        .map(|cube| {
            let literals: Vec<Expr> = cube
                .iter()
                .filter_map(|l| {
                    predicate(&l.var).map(|p| if l.value { p } else { Expr::logical_not(p) })
                })
                .collect();
            solver::and_all(&literals)
        })
        .collect();
    match disjuncts.split_first() {
        None => Expr::bool(false),
        Some((first, rest)) => rest.iter().cloned().fold(first.clone(), Expr::or),
    }
}

/// `predabs mc FILE.bp --engine pds`: parses, model-checks with the pushdown-system engine and
/// prints the verdict (`VERDICT: SAFE|UNSAFE|UNKNOWN`), with the PDS rules when `show_rules`.
pub fn model_check_pds(
    text: &str,
    file_name: &str,
    error_labels: &[String],
    show_rules: bool,
) -> CommandOutput {
    let (program, diagnostics) = boolprog::parse(text);
    let stderr = diagnostics::render_all(&diagnostics, file_name, text);
    if diagnostics::has_errors(&diagnostics) {
        return failed(stderr);
    }
    let mut labels: Vec<String> = boolprog::ERROR_LABELS
        .iter()
        .map(|l| l.to_string())
        .collect();
    labels.extend(error_labels.iter().cloned());
    let config = model_check::Config {
        error_labels: labels.clone(),
        ..model_check::Config::default()
    };
    let outcome = model_check::pds::check(&program, &config);
    let mut stderr = stderr;
    stderr.push_str(&diagnostics::render_all(
        &outcome.diagnostics,
        file_name,
        text,
    ));
    let mut stdout = String::new();
    if show_rules {
        if let Some(pds) = model_check::pds::translate(&program, None, &labels) {
            stdout.push_str(&pds.to_text());
        }
    }
    let s = &outcome.statistics;
    let _ = writeln!(
        stdout,
        "pushdown engine: {} saturation steps, peak {} BDD nodes, {:.1} ms",
        s.iterations, s.peak_bdd_nodes, s.time_ms
    );
    let verdict = match &outcome.verdict {
        model_check::Verdict::Safe => "SAFE".to_string(),
        model_check::Verdict::ErrorReachable => "UNSAFE".to_string(),
        model_check::Verdict::Unknown(why) => {
            let _ = writeln!(stdout, "reason: {why}");
            "UNKNOWN".to_string()
        }
    };
    let _ = writeln!(stdout, "VERDICT: {verdict}");
    CommandOutput {
        stdout,
        stderr,
        success: !diagnostics::has_errors(&outcome.diagnostics),
    }
}

//! Shape analysis through predicate abstraction and model checking (Dams & Namjoshi,
//! seed 004): shape predicates `reach`, `reachp`, `dshared`, `cyclic` as typed terms
//! ([`terms`]), their weakest preconditions (Fig 5, [`wp`]), the simplifier of §4 with type
//! reasoning ([`simplify`], [`types`]), the iterated-WP abstraction of Fig 3
//! ([`abstraction`]), the boolean program it yields ([`emit`]), model checking with
//! `model-check`, approximation hints and their automatic discovery ([`autohint`]), the valid
//! implications between the booleans of a location ([`consistency`]), the compact SPIN model
//! ([`promela`]), counterexample replay in the C interpreter ([`replay`]), and concrete runs
//! from small heaps beside the abstract booleans, for pictures ([`pictures`]).
//!
//! Everything [`analyze`] computes is returned as plain data ([`report::Report`]): runs,
//! rounds, the table of pairs, WP derivations step by step, families and hints, the abstract
//! program linked to C lines, the verdict. Choices where this crate completes the paper are
//! listed in `crates/shape/README.md`.

pub mod abstraction;
pub mod assume;
pub mod autohint;
pub mod concrete;
pub mod consistency;
pub mod emit;
pub mod flowchart;
pub mod parse;
pub mod pictures;
pub mod promela;
pub mod replay;
pub mod report;
pub mod simplify;
pub mod terms;
pub mod types;
pub mod wp;

use abstraction::Abstraction;
use c_ir::{ProcId, Program};
use diagnostics::{Diagnostic, Span};
use flowchart::{Flowchart, LocId};
use parse::{Hint, Parser, Property};
use terms::{Formula, Names, Pred, Rigid};

/// What to analyse.
#[derive(Clone, Debug, Default)]
pub struct Request {
    pub source: String,
    pub file_name: String,
    pub proc: String,
    /// `FORMULA@LABEL` or `forall k: P@l1 => Q@l2`, each checked.
    pub properties: Vec<String>,
    /// `FORMULA@LABEL`, assumed.
    pub preconditions: Vec<String>,
    pub bound: u32,
    /// The text of a hints file (one hint a line, `#` comments).
    pub hints: String,
    pub auto_hints: bool,
}

/// Which input a diagnostic's span points into.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Input {
    Source,
    Property(usize),
    Precondition(usize),
    /// Line `n` (1-based) of the hints file.
    HintLine(usize),
}

/// A problem with the input, with its span in that input.
#[derive(Clone, Debug)]
pub struct Problem {
    pub input: Input,
    pub diagnostic: Diagnostic,
}

/// The parsed, checked inputs: everything the abstraction needs.
pub struct Session {
    pub program: Program,
    pub proc: ProcId,
    pub flowchart: Flowchart,
    pub rigids: Vec<Rigid>,
    pub properties: Vec<Property>,
    pub preconditions: Vec<Property>,
    pub hints: Vec<Hint>,
}

impl Session {
    pub fn names(&self) -> Names<'_> {
        Names { program: &self.program, rigids: &self.rigids }
    }
    /// The pairs of the properties and preconditions.
    pub fn initial_pairs(&self) -> Vec<(Pred, LocId)> {
        let mut out = Vec::new();
        let mut add = |f: &Formula, l: LocId| {
            for p in f.preds() {
                if !out.contains(&(p.clone(), l)) {
                    out.push((p, l));
                }
            }
        };
        for p in self.properties.iter().chain(self.preconditions.iter()) {
            match p {
                Property::At { formula, loc } => add(formula, *loc),
                Property::Implies { antecedent, at, consequent, then } => {
                    add(antecedent, *at);
                    add(consequent, *then);
                }
            }
        }
        out
    }
    /// Fig 3 with these hints and this bound.
    pub fn abstract_with(&self, hints: &[Hint], bound: u32) -> Abstraction {
        abstraction::run(self.names(), &self.flowchart, &self.initial_pairs(), hints, bound)
    }
}

/// A problem rendered with a caret under `text` (the input it points into), as `name:line:col`.
pub fn render_problem(problem: &Problem, name: &str, text: &str) -> String {
    diagnostics::render_all(std::slice::from_ref(&problem.diagnostic), name, text)
}

fn problem(input: Input, diagnostic: Diagnostic) -> Problem {
    Problem { input, diagnostic }
}

/// Lowers the source and parses the property, preconditions and hints.
pub fn prepare(req: &Request) -> Result<Session, Vec<Problem>> {
    let options = c_front::LowerOptions { entry: req.proc.clone(), ..Default::default() };
    let (program, diags) = c_front::lower(&req.source, &req.file_name, &options);
    let errors: Vec<Problem> = diags.iter().filter(|d| d.is_error()).cloned().map(|d| problem(Input::Source, d)).collect();
    let Some(program) = program.filter(|_| errors.is_empty()) else {
        return Err(errors);
    };
    let Some(proc) = program.proc_by_name(&req.proc) else {
        let names: Vec<&str> = program.procs.iter().map(|p| p.name.as_str()).collect();
        let d = Diagnostic::error(Span::default(), format!("no procedure named `{}`", req.proc)).with_help(format!("procedures: {}", names.join(", ")));
        return Err(vec![problem(Input::Source, d)]);
    };
    let flowchart = flowchart::build(&program, proc).map_err(|ds| ds.into_iter().map(|d| problem(Input::Source, d)).collect::<Vec<_>>())?;
    let mut rigids = Vec::new();
    let mut problems = Vec::new();
    let mut properties = Vec::new();
    let mut preconditions = Vec::new();
    let mut hints = Vec::new();
    for (k, text) in req.properties.iter().enumerate() {
        match Parser::new(&program, proc, &flowchart, &mut rigids, text).and_then(|mut p| p.property()) {
            Ok(p) => properties.push(p),
            Err(d) => problems.push(problem(Input::Property(k), d)),
        }
    }
    for (k, text) in req.preconditions.iter().enumerate() {
        match Parser::new(&program, proc, &flowchart, &mut rigids, text).and_then(|mut p| p.property()) {
            Ok(p @ Property::At { .. }) => preconditions.push(p),
            Ok(_) => problems.push(problem(Input::Precondition(k), Diagnostic::error(Span::new(0, text.len() as u32), "a precondition is `FORMULA@LABEL`"))),
            Err(d) => problems.push(problem(Input::Precondition(k), d)),
        }
    }
    for (line_no, line) in req.hints.lines().enumerate() {
        let text = line.split('#').next().unwrap_or("").trim();
        if text.is_empty() {
            continue;
        }
        match Parser::new(&program, proc, &flowchart, &mut rigids, text).and_then(|mut p| p.hint(format!("hints file line {}", line_no + 1))) {
            Ok(h) => hints.push(h),
            Err(mut d) => {
                let offset = line.find(text).unwrap_or(0) as u32;
                d.span = Span::new(d.span.start + offset, d.span.end + offset);
                problems.push(problem(Input::HintLine(line_no + 1), d));
            }
        }
    }
    if properties.is_empty() && problems.is_empty() {
        problems.push(problem(Input::Source, Diagnostic::error(Span::default(), "no property given (use --property 'FORMULA@LABEL')")));
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    Ok(Session { program, proc, flowchart, rigids, properties, preconditions, hints })
}

/// Runs the whole analysis (see the crate docs).
pub fn analyze(req: &Request) -> Result<report::Report, Vec<Problem>> {
    let session = prepare(req)?;
    Ok(report::run(&session, req))
}

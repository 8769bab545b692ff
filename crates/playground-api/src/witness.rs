//! SV-COMP witnesses (format 2.0, YAML) of a Check outcome, for `predabs check --witness` and
//! the playground's "Witness (.yml)" download (issue 32): the glue between [`Outcome`] and the
//! `witness` crate. Pure computation (no files, no clock but [`::witness::meta::now`], which
//! works in a web worker), so the CLI writes the text and the worker sends it to the page.
//!
//! - UNSAFE: the counterexample's inputs are replayed in the interpreter and written as a
//!   violation sequence (branches taken, nondeterministic values, the error call as target).
//! - SAFE: the invariants at loop heads, as C expressions over program variables at the loops'
//!   keywords, are written as an invariant set.

use crate::{InvariantData, Outcome, Request, Verdict};
use ::witness::c_ir;
use ::witness::correctness;
use ::witness::source::SourceIndex;
use ::witness::{CorrectnessWitness, DataModel, Invariant, InvariantKind, Location, Producer, ViolationWitness, Witness};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A witness ready to be written or downloaded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BuiltWitness {
    /// The witness file's text (YAML).
    pub yaml: String,
    /// One line: what kind of witness, with how many waypoints or invariants.
    pub summary: String,
    /// Why parts were left out or weakened (the witness is weaker then, never wrong).
    pub notes: Vec<String>,
}

/// What of a Check run's [`Outcome`] a witness is made of (the rest of the outcome, e.g. its
/// trace and statistics, is not needed: the page sends only this to the worker).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Evidence {
    pub verdict: Verdict,
    /// UNSAFE: the counterexample's inputs, replayed to find the branches taken.
    pub inputs: Vec<String>,
    /// SAFE: the engine's invariants (those at loop heads go into the witness).
    pub invariants: Vec<InvariantData>,
}

impl Evidence {
    pub fn of(outcome: &Outcome) -> Evidence {
        Evidence { verdict: outcome.verdict, inputs: outcome.inputs.clone(), invariants: outcome.invariants.clone() }
    }
}

/// The producer entry: predabs, its version and the command line that made the witness.
pub fn producer(command_line: Option<String>) -> Producer {
    Producer { name: "predabs".into(), version: env!("CARGO_PKG_VERSION").into(), configuration: None, command_line }
}

/// The witness of `outcome` (SAFE or UNSAFE; see [`Evidence::of`]), a Check run of `request`
/// (its source, file name and data model); `command_line` is recorded in the producer entry.
pub fn build(outcome: &Evidence, request: &Request, command_line: Option<String>) -> Result<BuiltWitness, String> {
    let file_name = request.file_name.as_str();
    let source = request.source.as_str();
    let data_model = &request.options.data_model;
    let model = DataModel::parse(data_model).ok_or_else(|| format!("unknown data model `{data_model}` (ILP32 or LP64)"))?;
    if outcome.verdict == Verdict::Unknown {
        return Err("no witness for an UNKNOWN verdict".into());
    }
    let program = ::witness::lower(source, file_name, model)?;
    let index = SourceIndex::new(source);
    let metadata = ::witness::metadata(producer(command_line), file_name, source.as_bytes(), model, ::witness::meta::now());
    let (witness, summary, notes) = match outcome.verdict {
        Verdict::Unsafe => {
            let inputs: Vec<i128> = outcome
                .inputs
                .iter()
                .map(|v| v.trim().parse::<i128>().map_err(|_| format!("input `{v}` is not an integer")))
                .collect::<Result<_, _>>()?;
            let (waypoints, notes) = ::witness::violation::violation_waypoints(&program, &index, file_name, &inputs)?;
            let summary = format!("violation witness with {} waypoints", waypoints.len());
            (Witness::Violation(ViolationWitness::from_waypoints(metadata, waypoints)), summary, notes)
        }
        _ => {
            let (invariants, notes) = loop_invariants(&outcome.invariants, &program, &index, file_name);
            let summary = format!("correctness witness with {} loop invariants", invariants.len());
            (Witness::Correctness(CorrectnessWitness { metadata, invariants }), summary, notes)
        }
    };
    Ok(BuiltWitness { yaml: ::witness::yaml::to_yaml(&witness), summary, notes })
}

/// The correctness witness's invariants: each loop-head invariant of the outcome placed at its
/// source loop (several IR heads at one loop are joined by `||`, which each of them implies).
/// A function whose body starts with its loop (`void eval(void) { while (1) ... }`) has the
/// loop head as its first statement, whose invariant the engine reports as the one *at entry*:
/// it holds every time that statement is reached, on entry and after each iteration, so it is
/// that loop's invariant. Each is given in the form [`correctness::compact`] makes.
/// Second result: why an invariant was left out or weakened (printed as notes; a left-out or
/// weakened invariant makes the witness weaker, never wrong).
fn loop_invariants(engine_invariants: &[InvariantData], program: &c_ir::Program, index: &SourceIndex, file_name: &str) -> (Vec<Invariant>, Vec<String>) {
    let mut at_loop: BTreeMap<u32, (String, Vec<String>)> = BTreeMap::new();
    let mut notes = Vec::new();
    let starts_with_loop = |name: &str| program.proc_by_name(name).is_some_and(|p| program.proc(p).loop_heads().contains(&0));
    let at_head = |i: &&InvariantData| match i.location.as_str() {
        "at loop head" => true,
        "at entry" => starts_with_loop(&i.procedure),
        _ => false,
    };
    for inv in engine_invariants.iter().filter(at_head) {
        let line = inv.c_line.unwrap_or(0);
        let mut skip = |why: &str| notes.push(format!("the invariant of `{}` at line {line} is left out: {why}", inv.procedure));
        let Some(proc) = program.proc_by_name(&inv.procedure) else {
            skip("its function is not in the program");
            continue;
        };
        let entry = inv.location == "at entry";
        let heads: Vec<u32> = program.proc(proc).loop_heads().into_iter().filter(|&h| (h == 0) == entry).collect();
        let on_line: Vec<u32> = heads
            .into_iter()
            .filter(|&h| Some(index.line_col(program.stmt(c_ir::StmtRef { proc, index: h }).span.start).0) == inv.c_line)
            .collect();
        let sites: Vec<u32> = on_line
            .iter()
            .filter_map(|&h| correctness::loop_of_head(program, index, c_ir::StmtRef { proc, index: h }).map(|s| s.keyword))
            .collect();
        let Some(&keyword) = sites.first().filter(|_| sites.iter().all(|&k| k == sites[0])) else {
            skip("no single source loop starts on that line");
            continue;
        };
        let Some(site) = index.loops.iter().find(|l| l.keyword == keyword) else {
            skip("no source loop at its keyword");
            continue;
        };
        let formula = match correctness::read_invariant(program, proc, &inv.formula) {
            Ok(f) => f,
            Err(why) => {
                skip(&format!("its formula cannot be read back ({why})"));
                continue;
            }
        };
        let (formula, compaction) = correctness::compact(&formula);
        if let correctness::Compaction::TwoLiteralClauses { predicates, clauses } = compaction {
            notes.push(format!(
                "the invariant of `{}` at line {line} is weakened to its {clauses} clauses of two literals: its disjunction mentions {predicates} predicates (more than {})",
                inv.procedure,
                correctness::MAX_DISJUNCTION_PREDICATES
            ));
        }
        let text = correctness::c_expression(program, index, proc, correctness::scope_point(site), &formula);
        let entry = at_loop.entry(keyword).or_insert_with(|| (program.proc(proc).name.clone(), Vec::new()));
        // `None`: nothing expressible, i.e. `1`, which makes the disjunction trivial
        entry.1.push(text.unwrap_or_else(|| "1".to_string()));
    }
    let invariants = at_loop
        .into_iter()
        .filter_map(|(keyword, (function, texts))| {
            let (line, column) = index.line_col(keyword);
            if texts.iter().any(|t| t == "1") {
                notes.push(format!("the invariant of `{function}` at line {line} is left out: nothing of it can be said over the variables in scope there"));
                return None;
            }
            let value = if texts.len() == 1 {
                texts[0].clone()
            } else {
                texts.iter().map(|t| format!("({t})")).collect::<Vec<_>>().join(" || ")
            };
            Some(Invariant {
                kind: InvariantKind::Loop,
                location: Location {
                    file_name: file_name.to_string(),
                    line,
                    column: Some(column),
                    function: Some(function),
                },
                value,
            })
        })
        .collect();
    (invariants, notes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Mode, Options};

    fn check(source: &str) -> (Outcome, Request) {
        let request = Request { mode: Mode::Check, source: source.into(), file_name: "t.c".into(), predicates: String::new(), options: Options::default() };
        (crate::run(&request, &mut |_| {}, &|| false), request)
    }

    #[test]
    fn safe_and_unsafe_runs_give_their_witnesses_and_unknown_none() {
        let safe = "extern void abort(void);\nvoid reach_error() { abort(); }\nint main(void) {\n  int i = 0;\n  while (i < 10) {\n    i++;\n  }\n  if (i != 10) {\n    reach_error();\n  }\n  return 0;\n}\n";
        let (outcome, request) = check(safe);
        assert_eq!(outcome.verdict, Verdict::Safe);
        let w = build(&Evidence::of(&outcome), &request, Some("test".into())).expect("a correctness witness");
        assert!(w.yaml.starts_with("- entry_type: invariant_set\n"), "{}", w.yaml);
        assert!(w.yaml.contains(&::witness::meta::sha256_hex(safe.as_bytes())), "{}", w.yaml);
        assert!(w.yaml.contains("command_line: test"), "{}", w.yaml);
        assert_eq!(w.summary, "correctness witness with 1 loop invariants");
        assert!(matches!(::witness::yaml::from_yaml(&w.yaml), Ok(Witness::Correctness(c)) if c.invariants[0].location.line == 5));

        let unsafe_ = "extern void abort(void);\nvoid reach_error() { abort(); }\nextern int __VERIFIER_nondet_int(void);\nint main(void) {\n  int x = __VERIFIER_nondet_int();\n  if (x == 42) {\n    reach_error();\n  }\n  return 0;\n}\n";
        let (outcome, request) = check(unsafe_);
        assert_eq!(outcome.verdict, Verdict::Unsafe);
        let w = build(&Evidence::of(&outcome), &request, None).expect("a violation witness");
        assert!(w.yaml.starts_with("- entry_type: violation_sequence\n"), "{}", w.yaml);
        assert!(w.summary.starts_with("violation witness with "), "{}", w.summary);
        assert!(matches!(::witness::yaml::from_yaml(&w.yaml), Ok(Witness::Violation(_))));

        let unknown = Evidence { verdict: Verdict::Unknown, inputs: Vec::new(), invariants: Vec::new() };
        assert_eq!(build(&unknown, &request, None), Err("no witness for an UNKNOWN verdict".to_string()));
        let lp = Request { options: Options { data_model: "LP32".into(), ..Options::default() }, ..request };
        assert!(build(&Evidence::of(&outcome), &lp, None).unwrap_err().contains("unknown data model"));
    }
}

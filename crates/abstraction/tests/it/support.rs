//! Shared checks: strategy equivalence on recorded strengthenings, and simulation of the
//! boolean program along a concrete run.

use abstraction::{abstract_program, Abstraction, AbstractionConfig, Dnf, Strategy};
use biodivine_lib_bdd::{Bdd, BddPartialValuation, BddVariable, BddVariableSet};
use boolprog::{Expr as BExpr, StmtKind as BKind};
use c_ir::{PredicateSet, Program, StmtRef};
use std::collections::HashMap;

/// A cube over cone positions: (variable index, value).
type IndexCube = Vec<(usize, bool)>;

fn index_cubes(dnf: &Dnf) -> Vec<IndexCube> {
    dnf.cubes.iter().map(|c| c.iter().map(|l| (l.predicate as usize, l.positive)).collect()).collect()
}

/// A conjunction of literals as a BDD (variable `i` is the BDD's `i`-th variable).
fn cube_bdd(vars: &BddVariableSet, cube: &[(usize, bool)]) -> Bdd {
    let values: Vec<(BddVariable, bool)> = cube.iter().map(|&(i, b)| (BddVariable::from_index(i), b)).collect();
    vars.mk_conjunctive_clause(&BddPartialValuation::from_values(&values))
}

/// A disjunction of cubes as a BDD.
fn dnf_bdd(vars: &BddVariableSet, cubes: &[IndexCube]) -> Bdd {
    cubes.iter().fold(vars.mk_false(), |acc, c| acc.or(&cube_bdd(vars, c)))
}

/// Abstracts with both strategies (recording) and checks, for every strengthening, that `F(ψ)`
/// and `F(¬ψ)` are equal as BDDs on the valuations the solver found consistent. Returns both
/// abstractions.
pub fn assert_strategies_agree(program: &Program, predicates: &PredicateSet) -> (Abstraction, Abstraction) {
    let mut runs = Vec::new();
    for strategy in [Strategy::Lattice, Strategy::Exact] {
        let mut config = AbstractionConfig::new(strategy);
        config.record_lattices = true;
        let (abstraction, diagnostics) = abstract_program(program, predicates, &config);
        assert!(!diagnostics::has_errors(&diagnostics), "{diagnostics:?}");
        runs.push(abstraction);
    }
    let exact = runs.pop().expect("two runs");
    let lattice = runs.pop().expect("two runs");
    assert_eq!(lattice.lattices.len(), exact.lattices.len());
    // the exact strategy may compute several predicates of a statement together: compare by key
    let key = |r: &&abstraction::LatticeRecord| (r.at.proc, r.at.index, r.target.clone());
    let mut lattice_records: Vec<_> = lattice.lattices.iter().collect();
    let mut exact_records: Vec<_> = exact.lattices.iter().collect();
    lattice_records.sort_by_key(key);
    exact_records.sort_by_key(key);
    for (l, e) in lattice_records.into_iter().zip(exact_records) {
        assert_eq!((l.at, &l.target, &l.goal), (e.at, &e.target, &e.goal));
        let Some(record) = &e.exact else {
            assert_eq!(l.goal_formula, e.goal_formula, "shortcut results differ at {:?} {}", l.at, l.target);
            continue;
        };
        if record.truncated {
            continue;
        }
        let n = l.variables.len().max(1);
        let vars = BddVariableSet::new_anonymous(n as u16);
        // the consistent valuations, as a BDD over the cone variables
        let consistent = record.valuations.iter().fold(vars.mk_false(), |acc, v| {
            let cube: IndexCube = e.cone.iter().zip(v.values.iter()).map(|(&i, &b)| (i as usize, b)).collect();
            acc.or(&cube_bdd(&vars, &cube))
        });
        for (which, lf, ef) in [("F(psi)", &l.goal_formula, &e.goal_formula), ("F(!psi)", &l.negated_goal_formula, &e.negated_goal_formula)] {
            if l.target == "enforce" && which == "F(!psi)" {
                continue;
            }
            let lb = dnf_bdd(&vars, &index_cubes(lf)).and(&consistent);
            let eb = dnf_bdd(&vars, &index_cubes(ef)).and(&consistent);
            assert!(
                lb == eb,
                "{which} differs at {:?} for {} (goal {}): lattice {} vs exact {}",
                l.at,
                l.target,
                l.goal,
                l.goal_result,
                e.goal_result
            );
        }
    }
    (lattice, exact)
}

/// Checks that a concrete run (state valuations of the predicates before each executed
/// statement) is matched by the boolean program of a single-procedure abstraction.
pub fn assert_run_is_simulated(abstraction: &Abstraction, proc_name: &str, steps: &[(StmtRef, Vec<Option<bool>>)]) {
    let (_, bp) = abstraction.program.proc_by_name(proc_name).expect("procedure abstracted");
    let names: Vec<String> = abstraction.variables.iter().map(|v| v.name.clone()).collect();
    let by_origin: HashMap<u32, Vec<&boolprog::Stmt>> = {
        let mut m: HashMap<u32, Vec<&boolprog::Stmt>> = HashMap::new();
        for s in boolprog::statements_in_order(&bp.body) {
            if let Some(o) = s.origin {
                m.entry(o.index).or_default().push(s);
            }
        }
        m
    };
    for window in steps.windows(2) {
        let (at, before) = &window[0];
        let (_, after) = &window[1];
        if before.iter().chain(after.iter()).any(|v| v.is_none()) {
            continue;
        }
        let value = |vals: &[Option<bool>], name: &str| names.iter().position(|n| n == name).and_then(|i| vals[i]).unwrap_or(false);
        let lookup_before = |name: &str| value(before, name);
        if let Some(enforce) = &bp.enforce {
            assert!(enforce.possible_values(&lookup_before).0, "enforce violated before {at:?}: {before:?}");
        }
        let stmts = by_origin.get(&at.index).cloned().unwrap_or_default();
        assert_eq!(stmts.len(), 1, "one boolean statement per C statement in these tests");
        let mut assigned: Vec<&str> = Vec::new();
        match &stmts[0].kind {
            BKind::Assign { lhs, rhs } => {
                for (l, r) in lhs.iter().zip(rhs.iter()) {
                    let (can_true, can_false) = r.possible_values(&lookup_before);
                    let actual = value(after, l);
                    assert!(if actual { can_true } else { can_false }, "{l} := {} cannot produce {actual} at {at:?}; before {before:?}", boolprog::print_expr_bebop(r));
                    assigned.push(l);
                }
            }
            BKind::Assume(cond) => {
                assert!(cond.possible_values(&lookup_before).0, "assume {} blocks a concrete run at {at:?}: {before:?}", boolprog::print_expr_bebop(cond));
            }
            BKind::Skip | BKind::Goto(_) => {}
            other => panic!("unexpected statement {other:?}"),
        }
        for (i, name) in names.iter().enumerate() {
            if !assigned.contains(&name.as_str()) {
                assert_eq!(before[i], after[i], "{name} changed at {at:?} without an assignment");
            }
        }
    }
}

#[allow(dead_code)]
pub fn print(abstraction: &Abstraction) -> String {
    let _ = BExpr::tt();
    abstraction.print_bebop()
}

/// One observed step of a concrete run: the statement about to execute, the call depth, and
/// the value of every predicate of the abstraction in the current frame (`None` when it cannot
/// be evaluated there, e.g. another procedure's predicate).
#[derive(Clone, Debug)]
pub struct Step {
    pub at: StmtRef,
    pub depth: usize,
    pub values: Vec<Option<bool>>,
}

/// The boolean statements of each C statement of `proc`, in order.
fn by_origin<'a>(abstraction: &'a Abstraction, proc_name: &str) -> HashMap<u32, Vec<&'a boolprog::Stmt>> {
    let mut m: HashMap<u32, Vec<&boolprog::Stmt>> = HashMap::new();
    if let Some((_, bp)) = abstraction.program.proc_by_name(proc_name) {
        for s in boolprog::statements_in_order(&bp.body) {
            if let Some(o) = s.origin {
                m.entry(o.index).or_default().push(s);
            }
        }
    }
    m
}

/// Checks that a concrete run through several procedures is matched by the boolean program:
/// at every statement each visible predicate variable holds its predicate's value, `enforce`
/// holds, assumes let the run pass, assignments can produce the next values, and calls pass
/// the callee's formal predicates (`prm`), return its return predicates (`ret`) and update the
/// caller's predicates from the values before the call, the globals at the callee's return and
/// the returned ones, leaving the others unchanged.
pub fn assert_calls_are_simulated(abstraction: &Abstraction, program: &Program, steps: &[Step]) {
    let names: Vec<&str> = abstraction.variables.iter().map(|v| v.name.as_str()).collect();
    let visible = |proc: c_ir::ProcId| -> Vec<usize> {
        (0..abstraction.variables.len())
            .filter(|&i| match abstraction.variables[i].scope {
                abstraction::PredicateScope::Global => true,
                abstraction::PredicateScope::Procedure(p) => p == proc,
            })
            .collect()
    };
    let index_in = |scope: &[usize], name: &str| scope.iter().copied().find(|&i| names[i] == name);
    let origins: HashMap<u32, HashMap<u32, Vec<&boolprog::Stmt>>> =
        program.proc_ids().map(|p| (p.0, by_origin(abstraction, &program.proc(p).name))).collect();
    for i in 0..steps.len().saturating_sub(1) {
        let step = &steps[i];
        let proc = step.at.proc;
        let scope = visible(proc);
        if scope.iter().any(|&k| step.values[k].is_none()) {
            continue;
        }
        let value_at = |s: &Step, name: &str| index_in(&scope, name).and_then(|k| s.values[k]).unwrap_or(false);
        let before = |name: &str| value_at(step, name);
        let (_, bp) = abstraction.program.proc_by_name(&program.proc(proc).name).expect("procedure abstracted");
        if let Some(enforce) = &bp.enforce {
            assert!(enforce.possible_values(&before).0, "enforce violated before {:?}: {:?}", step.at, step.values);
        }
        let stmts = origins.get(&proc.0).and_then(|m| m.get(&step.at.index)).cloned().unwrap_or_default();
        let c_stmt = &program.proc(proc).body[step.at.index as usize].kind;
        if let c_ir::StmtKind::Call { callee, .. } = c_stmt {
            check_call(abstraction, steps, i, *callee, &scope, &stmts, &names);
            continue;
        }
        let next = &steps[i + 1];
        if next.depth != step.depth || next.at.proc != proc || scope.iter().any(|&k| next.values[k].is_none()) {
            continue;
        }
        let mut assigned: Vec<&str> = Vec::new();
        for s in &stmts {
            match &s.kind {
                BKind::Assign { lhs, rhs } => {
                    for (l, r) in lhs.iter().zip(rhs.iter()) {
                        let (can_true, can_false) = r.possible_values(&before);
                        let actual = value_at(next, l);
                        assert!(
                            if actual { can_true } else { can_false },
                            "{l} := {} cannot produce {actual} at {:?}; before {:?}",
                            boolprog::print_expr_bebop(r),
                            step.at,
                            step.values
                        );
                        assigned.push(l);
                    }
                }
                BKind::Assume(cond) => {
                    assert!(cond.possible_values(&before).0, "assume {} blocks a concrete run at {:?}: {:?}", boolprog::print_expr_bebop(cond), step.at, step.values);
                }
                BKind::Skip | BKind::Goto(_) | BKind::Return(_) => {}
                other => panic!("unexpected statement {other:?}"),
            }
        }
        for &k in &scope {
            if !assigned.contains(&names[k]) {
                assert_eq!(step.values[k], next.values[k], "{} changed at {:?} without an assignment", names[k], step.at);
            }
        }
    }
}

fn check_call(abstraction: &Abstraction, steps: &[Step], i: usize, callee: c_ir::ProcId, scope: &[usize], stmts: &[&boolprog::Stmt], names: &[&str]) {
    let step = &steps[i];
    let Some(entry) = steps.get(i + 1).filter(|s| s.depth == step.depth + 1 && s.at.proc == callee) else { return };
    let Some(signature) = abstraction.signatures.iter().find(|s| s.proc == callee) else { return };
    let value_of = |s: &Step, name: &str| -> Option<bool> { names.iter().position(|n| *n == name).and_then(|k| s.values[k]) };
    let before = |name: &str| value_of(step, name).unwrap_or(false);
    let globals: Vec<usize> = scope.iter().copied().filter(|&k| abstraction.variables[k].scope == abstraction::PredicateScope::Global).collect();
    // the call itself changes no global predicate
    for &g in &globals {
        if let (Some(a), Some(b)) = (step.values[g], entry.values[g]) {
            assert_eq!(a, b, "{} changed by entering the callee at {:?}", names[g], step.at);
        }
    }
    // prm_k := ... must produce the callee's formal predicates at its entry
    let mut prm: HashMap<String, bool> = HashMap::new();
    for (k, &f) in signature.formal_predicates.iter().enumerate() {
        if let Some(v) = entry.values[f] {
            prm.insert(format!("prm{}", k + 1), v);
        }
    }
    let mut after_call = false;
    let mut update: Option<(&Vec<String>, &Vec<BExpr>)> = None;
    for s in stmts {
        match &s.kind {
            BKind::Assign { lhs, rhs } if !after_call => {
                for (l, r) in lhs.iter().zip(rhs.iter()) {
                    let Some(&actual) = prm.get(l) else { continue };
                    let (t, f) = r.possible_values(&before);
                    assert!(if actual { t } else { f }, "{l} := {} cannot pass {actual} at {:?}; before {:?}", boolprog::print_expr_bebop(r), step.at, step.values);
                }
            }
            BKind::Call { .. } => after_call = true,
            BKind::Assign { lhs, rhs } => update = Some((lhs, rhs)),
            _ => {}
        }
    }
    // the continuation in the caller, and the callee's return right before it
    let Some(k) = (i + 1..steps.len()).find(|&j| steps[j].depth <= step.depth) else { return };
    let (ret_step, after) = (&steps[k - 1], &steps[k]);
    if after.depth != step.depth || ret_step.depth != step.depth + 1 || ret_step.at.proc != callee {
        return;
    }
    if scope.iter().any(|&v| after.values[v].is_none()) {
        return;
    }
    let mut ret: HashMap<String, bool> = HashMap::new();
    for (m, &r) in signature.return_predicates.iter().enumerate() {
        let Some(v) = ret_step.values[r] else { return };
        ret.insert(format!("ret{}", m + 1), v);
    }
    let lookup = |name: &str| -> bool {
        if let Some(&v) = ret.get(name) {
            return v;
        }
        match scope.iter().copied().find(|&v| names[v] == name) {
            Some(v) if globals.contains(&v) => ret_step.values[v].unwrap_or(false),
            Some(v) => step.values[v].unwrap_or(false),
            None => false,
        }
    };
    if globals.iter().any(|&g| ret_step.values[g].is_none()) {
        return;
    }
    let mut updated: Vec<&str> = Vec::new();
    if let Some((lhs, rhs)) = update {
        for (l, r) in lhs.iter().zip(rhs.iter()) {
            let Some(v) = scope.iter().copied().find(|&v| names[v] == l.as_str()) else { continue };
            let actual = after.values[v].unwrap_or(false);
            let (t, f) = r.possible_values(&lookup);
            assert!(
                if actual { t } else { f },
                "after the call at {:?}: {l} := {} cannot produce {actual}; before {:?}, at return {:?}, ret {ret:?}",
                step.at,
                boolprog::print_expr_bebop(r),
                step.values,
                ret_step.values
            );
            updated.push(l);
        }
    }
    for &v in scope {
        if updated.contains(&names[v]) {
            continue;
        }
        let expected = if globals.contains(&v) { ret_step.values[v] } else { step.values[v] };
        assert_eq!(expected, after.values[v], "{} changed by the call at {:?} without an update", names[v], step.at);
    }
}

/// Checks that every state of a concrete run lies within the model checker's invariant of the
/// boolean program (the reachable valuations before the statement): end to end, abstraction and
/// model checking together may lose no concrete state. Returns the number of states checked
/// (0 when the boolean program is not safe, so there are no invariants).
pub fn assert_run_within_invariants(abstraction: &Abstraction, outcome: &model_check::Outcome, program: &Program, steps: &[Step]) -> usize {
    if outcome.verdict != model_check::Verdict::Safe {
        return 0;
    }
    let names: Vec<&str> = abstraction.variables.iter().map(|v| v.name.as_str()).collect();
    let mut checked = 0;
    for step in steps {
        let Some(inv) = outcome.invariants.iter().find(|i| i.origin.is_some_and(|o| o.proc == step.at.proc.0 && o.index == step.at.index)) else {
            continue;
        };
        // helper variables (prm, ret) and predicates without a value are not constrained
        let agrees = |l: &model_check::Literal| match names.iter().position(|n| *n == l.var) {
            Some(i) => step.values[i].is_none_or(|v| v == l.value),
            None => true,
        };
        let holds = inv.cubes.iter().any(|cube| cube.iter().all(agrees));
        let shown: Vec<String> = step.values.iter().enumerate().filter_map(|(i, v)| v.map(|b| format!("{}={}", names[i], b as u8))).collect();
        assert!(
            holds,
            "the concrete state before {:?} ({}) is outside the invariant {}\nstate: {}\n{}",
            step.at,
            program.proc(step.at.proc).name,
            inv.text,
            shown.join(" "),
            abstraction.print_bebop()
        );
        checked += 1;
    }
    checked
}

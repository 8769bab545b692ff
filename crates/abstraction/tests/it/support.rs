//! Shared checks: strategy equivalence on recorded strengthenings, and simulation of the
//! boolean program along a concrete run.

use abstraction::minimise::{dnf_bdd, IndexCube};
use abstraction::{abstract_program, Abstraction, AbstractionConfig, Dnf, Strategy};
use biodivine_lib_bdd::BddVariableSet;
use boolprog::{Expr as BExpr, StmtKind as BKind};
use c_ir::{PredicateSet, Program, StmtRef};
use std::collections::HashMap;

fn index_cubes(dnf: &Dnf) -> Vec<IndexCube> {
    dnf.cubes.iter().map(|c| c.iter().map(|l| (l.predicate as usize, l.positive)).collect()).collect()
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
            acc.or(&abstraction::minimise::cube_bdd(&vars, &cube))
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

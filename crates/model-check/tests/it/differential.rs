//! Random programs: the BDD checker agrees with explicit-state search, and its traces replay.

use boolprog::generate::{random_program, GeneratorParams};
use model_check::explicit::{self, SearchResult};
use model_check::{check, format_trace, Config, ShortestTrace, TraceSearch, Verdict};

fn params(seed: u64, recursion: bool) -> GeneratorParams {
    GeneratorParams {
        globals: 1 + (seed % 3) as usize,
        procs: (seed % 4) as usize,
        locals: 1 + (seed % 2) as usize,
        statements: 4 + (seed % 5) as usize,
        recursion,
        asserts: true,
        seed,
    }
}

fn compare(seed: u64, recursion: bool) -> (bool, bool) {
    let program = random_program(&params(seed, recursion));
    let diags = boolprog::validate(&program);
    assert!(diags.is_empty(), "seed {seed}: generated program invalid: {diags:?}\n{}", boolprog::print_bebop(&program).text);
    let text = || boolprog::print_bebop(&program).text;
    let explicit = explicit::search(&program, 100_000, 8);
    // Dead variables kept or quantified out: the same verdict, and traces that replay; the
    // ranked search's own counterexamples (no budget for a shortest one) replay too.
    let ranked = Config { shortest_trace: ShortestTrace { factor: 0, floor: 0 }, ..Config::default() };
    let outcomes = [false, true].map(|eliminate_dead_variables| check(&program, &Config { eliminate_dead_variables, ..Config::default() }));
    let ranked = check(&program, &ranked);
    assert_eq!(ranked.verdict, outcomes[0].verdict, "seed {seed}\n{}", text());
    if let Some(trace) = &ranked.trace {
        assert_eq!(trace.search, TraceSearch::Ranked, "seed {seed}: no budget for a breadth-first search");
        if let Err(e) = explicit::replay(&program, trace) {
            panic!("seed {seed}: ranked: {e}\n{}\n{}", text(), format_trace(&program, trace));
        }
        let shortest = outcomes[0].trace.as_ref().expect("a trace with the default config");
        assert_eq!(shortest.search, TraceSearch::BreadthFirst, "seed {seed}: small programs get a shortest counterexample");
    }
    for outcome in &outcomes {
        match (&outcome.verdict, &explicit) {
            (Verdict::ErrorReachable, SearchResult::ErrorReachable) | (Verdict::Safe, SearchResult::Safe) => {}
            (Verdict::ErrorReachable | Verdict::Safe, SearchResult::Unknown) => {}
            (v, e) => panic!("seed {seed}: BDD says {v:?}, explicit search says {e:?}\n{}", text()),
        }
        if outcome.verdict == Verdict::ErrorReachable {
            let trace = outcome.trace.as_ref().unwrap_or_else(|| panic!("seed {seed}: no trace {:?}\n{}", outcome.diagnostics, text()));
            if let Err(e) = explicit::replay(&program, trace) {
                panic!("seed {seed}: {e}\n{}\n{}", text(), format_trace(&program, trace));
            }
        }
    }
    assert_eq!(outcomes[0].verdict, outcomes[1].verdict, "seed {seed}\n{}", text());
    (outcomes[0].verdict == Verdict::ErrorReachable, explicit != SearchResult::Unknown)
}

#[test]
fn recursion_free_random_programs_agree_with_explicit_search() {
    let mut unsafe_count = 0;
    let mut decided = 0;
    for seed in 0..300 {
        let (is_unsafe, is_decided) = compare(seed, false);
        unsafe_count += usize::from(is_unsafe);
        decided += usize::from(is_decided);
    }
    // The generator gives a mix of verdicts, and the explicit search decides most programs.
    assert!(unsafe_count > 30 && unsafe_count < 270, "unsafe: {unsafe_count}");
    assert!(decided > 250, "decided: {decided}");
}

#[test]
fn recursive_random_programs_agree_with_explicit_search() {
    let mut unsafe_count = 0;
    for seed in 1000..1120 {
        unsafe_count += usize::from(compare(seed, true).0);
    }
    assert!(unsafe_count > 20, "unsafe: {unsafe_count}");
}

/// For safe recursion-free programs, the invariant at every statement is exactly the set of
/// valuations the explicit search reaches there, and that set with the dead variables made
/// arbitrary when they are quantified out.
#[test]
fn invariants_equal_explicit_reachable_sets() {
    for eliminate_dead_variables in [false, true] {
        invariants_equal_reachable_sets(eliminate_dead_variables);
    }
}

/// The same with an `enforce` of three clauses in every procedure (the generator gives one in
/// a tenth of them): a local that only `enforce` reads is live at the assignments to its
/// partners (issue 30: `dead_locals` quantified it out, and the states of the other
/// predicates lost what it implied).
#[test]
fn invariants_equal_explicit_reachable_sets_under_enforce() {
    for eliminate_dead_variables in [false, true] {
        let (compared, _) = invariants_agree(eliminate_dead_variables, 3000..3200, &with_enforce);
        assert!(compared > 200, "compared {compared}");
    }
}

/// `program` with an `enforce` of three random two-literal clauses over each procedure's scope.
fn with_enforce(mut program: boolprog::Program, seed: u64) -> boolprog::Program {
    use boolprog::Expr;
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let globals: Vec<String> = program.globals.iter().map(|g| g.name.clone()).collect();
    for proc in &mut program.procs {
        let mut scope = globals.clone();
        scope.extend(proc.local_names().cloned());
        let mut literal = || {
            let v = Expr::var(scope[next(scope.len())].clone());
            if next(2) == 0 { Expr::not(v) } else { v }
        };
        let clauses: Vec<Expr> = (0..3).map(|_| Expr::or(literal(), literal())).collect();
        proc.enforce = Some(Expr::and_all(clauses));
    }
    program
}

fn invariants_equal_reachable_sets(eliminate_dead_variables: bool) {
    let (compared, with_dead) = invariants_agree(eliminate_dead_variables, 2000..2150, &|p, _| p);
    assert!(compared > 200, "compared {compared}");
    assert!(!eliminate_dead_variables || with_dead > 50, "statements with dead variables: {with_dead}");
}

/// For each safe program of the seeds (after `transform`), compares every invariant with the
/// explicit search's reachable set; returns the invariants compared and how many had dead
/// variables.
fn invariants_agree(
    eliminate_dead_variables: bool,
    seeds: std::ops::Range<u64>,
    transform: &dyn Fn(boolprog::Program, u64) -> boolprog::Program,
) -> (usize, usize) {
    let mut compared = 0;
    let mut with_dead = 0;
    for seed in seeds {
        let program = transform(random_program(&params(seed, false)), seed);
        let outcome = check(&program, &Config { eliminate_dead_variables, ..Config::default() });
        if outcome.verdict != Verdict::Safe {
            continue;
        }
        let Some(reached) = explicit::reachable_valuations(&program, 100_000, 8) else { continue };
        let cfgs = model_check::cfg::build(&program);
        for inv in &outcome.invariants {
            let empty = Default::default();
            let states = reached.get(&(inv.proc, inv.stmt)).unwrap_or(&empty);
            let dead = if eliminate_dead_variables {
                model_check::cfg::dead_locals(program.proc(inv.proc), &cfgs[inv.proc.0 as usize])[inv.stmt.0 as usize].clone()
            } else {
                Vec::new()
            };
            with_dead += usize::from(!dead.is_empty());
            let same_live = |a: &[(String, bool)], b: &[(String, bool)]| a.iter().zip(b).all(|(x, y)| dead.contains(&x.0) || x == y);
            // Enumerate all valuations of the scope and compare membership.
            let scope: Vec<String> = {
                let proc = program.proc(inv.proc);
                let mut names: Vec<String> = program
                    .globals
                    .iter()
                    .filter(|g| !proc.local_names().any(|l| *l == g.name))
                    .map(|g| g.name.clone())
                    .collect();
                names.extend(proc.local_names().cloned());
                names
            };
            for bits in 0..1u64 << scope.len() {
                let valuation: Vec<(String, bool)> =
                    scope.iter().enumerate().map(|(i, n)| (n.clone(), bits >> i & 1 == 1)).collect();
                let in_invariant = inv.cubes.iter().any(|cube| {
                    cube.iter().all(|lit| valuation.iter().any(|(n, v)| *n == lit.var && *v == lit.value))
                });
                let holds = |lit: &model_check::Literal| valuation.iter().any(|(n, v)| *n == lit.var && *v == lit.value);
                if let Some(clauses) = &inv.clauses {
                    // the CNF form denotes the same set
                    assert_eq!(clauses.iter().all(|c| c.iter().any(holds)), in_invariant, "seed {seed}: CNF {}", inv.text);
                }
                assert_eq!(
                    in_invariant,
                    states.iter().any(|s| same_live(s, &valuation)),
                    "seed {seed}, {:?} {:?}: {valuation:?} (invariant {})\n{}",
                    inv.proc,
                    inv.stmt,
                    inv.text,
                    boolprog::print_bebop(&program).text
                );
            }
            compared += 1;
        }
    }
    (compared, with_dead)
}

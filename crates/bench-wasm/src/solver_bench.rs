//! Benchmark: queries per second on a recorded set of abstraction-like queries — the
//! implication checks `cube ⇒ WP(s, ±φ)` that C2BP's `F` strengthening asks (cubes of up to two
//! predicate literals from the cone of influence), over integer, pointer, array and list
//! statements in the style of the seeds' examples.

use solver::{Answer, BackendKind, Solver, SolverConfig};
use c_ir::{BinaryOp, Expr, ExprKind, Field, Program, StructDef, StructId, Type, Var, VarKind};
use web_time::Instant;

/// One recorded query: do the premises imply the conclusion?
#[derive(Clone, Debug)]
pub struct BenchQuery {
    pub premises: Vec<Expr>,
    pub conclusion: Expr,
}

/// The outcome of one benchmark run.
#[derive(Clone, Debug)]
pub struct BenchReport {
    pub backend: BackendKind,
    /// `true`: one incremental session for all queries (how abstraction uses the solver);
    /// `false`: a fresh solver per query.
    pub incremental: bool,
    pub queries: usize,
    pub valid: usize,
    pub seconds: f64,
    pub queries_per_second: f64,
    pub sat_calls: u64,
    pub clauses: u64,
}

impl std::fmt::Display for BenchReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:8} {:11} {:5} queries ({} valid) in {:.3} s: {:.0} queries/s, {} SAT calls, {} clauses",
            self.backend.name(),
            if self.incremental { "incremental" } else { "one-shot" },
            self.queries,
            self.valid,
            self.seconds,
            self.queries_per_second,
            self.sat_calls,
            self.clauses
        )
    }
}

fn add_var(program: &mut Program, name: &str, ty: Type, address_taken: bool) -> Expr {
    let id = program.add_var(Var {
        name: name.into(),
        source_name: name.into(),
        ty: ty.clone(),
        kind: VarKind::Global,
        span: diagnostics::Span::default(),
        address_taken,
    });
    program.globals.push(id);
    Expr::var(id, ty)
}

fn bin(op: BinaryOp, a: &Expr, b: &Expr) -> Expr {
    Expr::binary(op, a.clone(), b.clone())
}

fn int(v: i128) -> Expr {
    Expr::int(v, Type::INT)
}

/// The program, its statements (lhs, rhs) and its predicates.
#[allow(clippy::type_complexity)]
fn scenario() -> (Program, Vec<(Expr, Expr)>, Vec<Expr>) {
    use BinaryOp::*;
    let mut program = Program::default();
    let x = add_var(&mut program, "x", Type::INT, true);
    let y = add_var(&mut program, "y", Type::INT, true);
    let z = add_var(&mut program, "z", Type::INT, false);
    let n = add_var(&mut program, "n", Type::UINT, false);
    let i = add_var(&mut program, "i", Type::INT, false);
    let j = add_var(&mut program, "j", Type::INT, false);
    let v = add_var(&mut program, "v", Type::INT, false);
    let int_ptr = Type::pointer_to(Type::INT);
    let p = add_var(&mut program, "p", int_ptr.clone(), false);
    let q = add_var(&mut program, "q", int_ptr.clone(), false);
    let a = add_var(&mut program, "a", Type::Array(Box::new(Type::INT), 10), true);
    program.structs.push(StructDef { name: "cell".into(), is_union: false, fields: vec![Field { name: "val".into(), ty: Type::INT }] });
    let cell = Type::Struct(StructId(0));
    let cell_ptr = Type::pointer_to(cell.clone());
    program.structs[0].fields.push(Field { name: "next".into(), ty: cell_ptr.clone() });
    let curr = add_var(&mut program, "curr", cell_ptr.clone(), false);
    let prev = add_var(&mut program, "prev", cell_ptr.clone(), false);
    let newl = add_var(&mut program, "newl", cell_ptr.clone(), false);
    let field = |base: &Expr, index: u32, ty: Type| Expr::new(ExprKind::Field(Box::new(Expr::deref(base.clone())), index), ty);
    let val = |c: &Expr| field(c, 0, Type::INT);
    let next = |c: &Expr| field(c, 1, cell_ptr.clone());
    let elem = |k: &Expr| Expr::new(ExprKind::Index(Box::new(a.clone()), Box::new(k.clone())), Type::INT);
    let star = |e: &Expr| Expr::deref(e.clone());
    let null_cell = Expr::int(0, cell_ptr.clone());
    let predicates = vec![
        bin(Lt, &x, &int(5)),
        bin(Eq, &x, &int(2)),
        bin(Gt, &y, &x),
        bin(Eq, &z, &bin(Add, &x, &y)),
        bin(Le, &star(&p), &int(0)),
        bin(Eq, &x, &int(0)),
        bin(Eq, &p, &q),
        bin(Gt, &star(&q), &star(&p)),
        bin(Lt, &Expr::cast(i.clone(), Type::UINT), &n),
        bin(Eq, &elem(&i), &int(0)),
        bin(Eq, &i, &j),
        bin(Eq, &curr, &null_cell),
        bin(Gt, &val(&curr), &v),
        bin(Eq, &prev, &null_cell),
        bin(Gt, &val(&prev), &v),
        bin(Eq, &newl, &null_cell),
    ];
    let statements = vec![
        (x.clone(), bin(Add, &x, &int(1))),
        (y.clone(), x.clone()),
        (z.clone(), bin(Sub, &z, &int(1))),
        (star(&p), bin(Add, &star(&p), &x)),
        (p.clone(), q.clone()),
        (i.clone(), bin(Add, &i, &int(1))),
        (elem(&i), int(0)),
        (j.clone(), i.clone()),
        (prev.clone(), curr.clone()),
        (curr.clone(), next(&curr)),
        (newl.clone(), curr.clone()),
        (val(&curr), v.clone()),
        (x.clone(), bin(Mul, &y, &int(2))),
        (y.clone(), bin(Div, &y, &int(2))),
        (z.clone(), bin(BitAnd, &x, &int(7))),
        (n.clone(), bin(Shr, &n, &Expr::int(1, Type::UINT))),
    ];
    (program, statements, predicates)
}

/// The recorded queries: for every statement and predicate `φ` that the statement may affect,
/// the checks `c ⇒ WP(s, φ)` and `c ⇒ WP(s, ¬φ)` for every cube `c` of at most two literals
/// over the predicates in the cone of influence of the weakest precondition.
pub fn recorded_queries() -> (Program, Vec<BenchQuery>) {
    let (program, statements, predicates) = scenario();
    let alias = logic::TypeBasedMayAlias::new(&program);
    let mut queries = Vec::new();
    for (lhs, rhs) in &statements {
        for phi in &predicates {
            if logic::wp_assign_unsimplified(&program, &alias, lhs, rhs, phi) == *phi {
                continue;
            }
            for target in [phi.clone(), logic::negate(phi)] {
                let wp = logic::wp_assign(&program, &alias, lhs, rhs, &target);
                let cone = logic::cone_of_influence(&wp, &predicates);
                let literals: Vec<Expr> = cone.iter().flat_map(|&k| [predicates[k].clone(), logic::negate(&predicates[k])]).collect();
                for (a_index, a) in literals.iter().enumerate() {
                    queries.push(BenchQuery { premises: vec![a.clone()], conclusion: wp.clone() });
                    for b in literals.iter().skip((a_index / 2 + 1) * 2) {
                        queries.push(BenchQuery { premises: vec![a.clone(), b.clone()], conclusion: wp.clone() });
                    }
                }
            }
        }
    }
    (program, queries)
}

/// Runs `queries` with the given back end; the query cache is off so every query reaches SAT.
pub fn run(program: &Program, queries: &[BenchQuery], backend: BackendKind, incremental: bool) -> BenchReport {
    let config = SolverConfig { backend, cache: false, ..SolverConfig::c_semantics() };
    let start = Instant::now();
    let mut valid = 0;
    let mut sat_calls = 0;
    let mut clauses = 0;
    if incremental {
        let mut solver = Solver::new(program, &config);
        for q in queries {
            if solver.implies(&q.premises, &q.conclusion) == Answer::Yes {
                valid += 1;
            }
        }
        let st = solver.statistics();
        sat_calls = st.sat_calls;
        clauses = st.clauses;
    } else {
        for q in queries {
            let mut solver = Solver::new(program, &config);
            if solver.implies(&q.premises, &q.conclusion) == Answer::Yes {
                valid += 1;
            }
            let st = solver.statistics();
            sat_calls += st.sat_calls;
            clauses += st.clauses;
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    BenchReport {
        backend,
        incremental,
        queries: queries.len(),
        valid,
        seconds,
        queries_per_second: if seconds > 0.0 { queries.len() as f64 / seconds } else { 0.0 },
        sat_calls,
        clauses,
    }
}

/// Runs the recorded queries with both back ends, incrementally and one-shot (the first
/// `limit` queries, all when `None`).
pub fn run_all_limited(limit: Option<usize>) -> Vec<BenchReport> {
    let (program, mut queries) = recorded_queries();
    if let Some(l) = limit {
        queries.truncate(l);
    }
    let mut out = Vec::new();
    for incremental in [true, false] {
        for backend in [BackendKind::Batsat, BackendKind::Varisat] {
            out.push(run(&program, &queries, backend, incremental));
        }
    }
    out
}

/// Runs the whole benchmark and returns one line per configuration.
pub fn run_all() -> Vec<String> {
    run_all_limited(None).iter().map(|r| r.to_string()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn benchmark_runs_and_back_ends_agree() {
        let (_, queries) = recorded_queries();
        assert!(queries.len() > 1000, "recorded set has {} queries", queries.len());
        let reports = run_all_limited(Some(40));
        assert_eq!(reports.len(), 4);
        for r in &reports {
            assert_eq!(r.queries, 40);
            assert_eq!(r.valid, reports[0].valid, "{r}");
            assert!(r.to_string().contains("queries/s"));
        }
    }
}

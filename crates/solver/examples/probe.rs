//! Temporary probe.
fn main() {
    let (program, queries) = solver::bench::recorded_queries();
    let config = solver::SolverConfig { cache: false, ..solver::SolverConfig::c_semantics() };
    let qs: Vec<_> = queries.iter().step_by(7).collect();
    let t = std::time::Instant::now();
    for _ in 0..qs.len() { let _ = solver::Solver::new(&program, &config); }
    println!("new: {:?}", t.elapsed());
    let t = std::time::Instant::now();
    for q in &qs { let _ = logic::simplify(&q.conclusion); }
    println!("simplify: {:?}", t.elapsed());
    let t = std::time::Instant::now();
    let mut lits = 0;
    for q in &qs {
        let mut ctx = solver::Context::new(&program, &config);
        let f = solver::and_all(&[q.premises.clone(), vec![c_ir::Expr::not(q.conclusion.clone())]].concat());
        let _ = ctx.literal(&f);
        lits += ctx.num_clauses();
    }
    println!("encode: {:?} {lits}", t.elapsed());
    let t = std::time::Instant::now();
    for q in &qs {
        let mut ctx = solver::Context::new(&program, &config);
        let f = solver::and_all(&[q.premises.clone(), vec![c_ir::Expr::not(q.conclusion.clone())]].concat());
        let Ok(l) = ctx.literal(&f) else { println!("ERR {}", c_ir::display_expr(&program, &f)); continue };
        ctx.solve(&[l]);
    }
    println!("encode+solve: {:?}", t.elapsed());
}

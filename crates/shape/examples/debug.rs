//! Runs the analysis from the command line without the CLI crate: `cargo run -p shape --example debug -- FILE PROC BOUND AUTO PROPERTY [PRE]`.
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let req = shape::Request {
        source: std::fs::read_to_string(&a[1]).unwrap_or_default(),
        file_name: a[1].clone(),
        proc: a[2].clone(),
        bound: a[3].parse().unwrap_or(40),
        auto_hints: a[4] == "auto",
        properties: vec![a[5].clone()],
        preconditions: a.get(6).cloned().into_iter().filter(|s| !s.is_empty()).collect(),
        hints: a.get(7).map(|p| std::fs::read_to_string(p).unwrap_or_default()).unwrap_or_default(),
    };
    match shape::analyze(&req) {
        Ok(r) => {
            for run in &r.runs {
                println!("run: iterations {} converged {} preds {} pairs {} hints {}", run.iterations, run.converged, run.predicates.len(), run.pairs.len(), run.hints.len());
            }
            let run = r.runs.last().unwrap();
            for p in &run.predicates { println!("  {} <-> {}", p.boolean, p.predicate); }
            for a in &run.actions { println!("  {} -> {} [{}] {}   // {}", a.from, a.to, a.guard, a.assignments.join(", "), a.c_text); }
            for f in &run.families { println!("  family at {}: {:?} hint {:?} refuted {}", f.location, &f.members[..f.members.len().min(3)], f.suggested_hint, f.refuted); }
            for h in &run.hints { println!("  hint {} [{}]", h.text, h.origin); }
            if std::env::var("SHOW_PAIRS").is_ok() { for p in &run.pairs { println!("  pair {} {} @{} r{} {:?} parent {:?} edge {:?} {}", p.id, p.predicate, p.location, p.round, p.status, p.parent_pair, p.parent_edge, p.approximation.clone().unwrap_or_default()); } }
            if std::env::var("SHOW_BP").is_ok() { println!("{}", r.boolean_program); }
            if let Ok(path) = std::env::var("PML") { let _ = std::fs::write(path, r.promela.clone().unwrap_or_default()); }
            println!("{:?} {}", r.verdict, r.reason);
            if let Some(w) = &r.witness { println!("{:?}", w.heap); }
        }
        Err(ps) => for p in ps { println!("{:?}: {}", p.input, p.diagnostic.message) },
    }
}

//! Runs the CEGAR loop on one C file and prints the iterations and the verdict
//! (`cargo run -p cegar --example check_file -- FILE.c [wp|sp] [max-iterations]`).

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(file) = args.get(1) else {
        eprintln!("usage: check_file FILE.c [wp|sp] [max-iterations]");
        std::process::exit(2);
    };
    let source = match std::fs::read_to_string(file) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{file}: {e}");
            std::process::exit(2);
        }
    };
    let mut config = cegar::Config::default_for_cli();
    if let Some(m) = args.get(2).and_then(|m| cegar::RefinementMethod::from_name(m)) {
        config.refinement = m;
    }
    if let Some(n) = args.get(3).and_then(|n| n.parse().ok()) {
        config.max_iterations = n;
    }
    if let Some(n) = std::env::var("CEGAR_ALL_CONDITIONS").ok().and_then(|n| n.parse().ok()) {
        config.initial_predicates = cegar::InitialPredicates::AllConditionsUpTo(n);
    }
    let verbose = std::env::var("CEGAR_VERBOSE").is_ok();
    let outcome = cegar::check_source(&source, file, &config, &mut |e| {
        if verbose {
            eprintln!("[{:?} it={} solver={} preds={} {}ms]", e.phase, e.iteration, e.solver_calls, e.predicates, e.elapsed_ms)
        }
    }, &|| false);
    for d in &outcome.diagnostics {
        if verbose || d.is_error() {
            eprintln!("{}", d.message);
        }
    }
    let (program, _) = c_front::lower(&source, file, &c_front::LowerOptions::default());
    for it in &outcome.iterations {
        println!("== iteration {}: {} predicates; model check: {}", it.iteration, it.predicates_before.len(), it.model_check);
        if verbose {
            println!("{}", it.boolean_program);
            for l in &it.abstract_trace {
                println!("   {l}");
            }
        }
        if let Some(f) = &it.feasibility {
            println!("   path of {} steps, {} ({}): {}", f.path_length, f.method.name(), f.notes.join("; "), f.verdict);
            if verbose {
                for row in &f.table {
                    println!("     {:>4} {:<40} {}", row.step, row.statement, row.conditions.join(" | "));
                }
            }
        }
        for p in &it.new_predicates {
            let scope = match (&program, p.scope) {
                (Some(prog), Some(s)) => prog.proc(s).name.clone(),
                _ => "global".into(),
            };
            println!("   + {scope}: {}", p.text);
        }
        println!("   {:?}", it.statistics);
    }
    if let Some(cex) = &outcome.counterexample {
        println!("counterexample (inputs {:?}):", cex.inputs);
        for s in &cex.steps {
            println!("  line {:>4}: {:<40} {:?}", s.line, s.statement, s.values);
        }
    }
    for inv in &outcome.invariants {
        println!("invariant line {} ({:?}): {}", inv.line, inv.point, inv.text);
    }
    if let Some(r) = &outcome.reason {
        println!("reason: {r}");
    }
    println!("statistics: {:?}", outcome.statistics);
    println!("VERDICT: {}", outcome.verdict.name());
}

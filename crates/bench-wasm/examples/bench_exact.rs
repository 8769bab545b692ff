//! Exact strategy only, per benchmark program, with timings of the phases.

fn main() {
    let only = std::env::args().nth(1);
    for p in bench_wasm::abstraction_bench::programs() {
        if only.as_deref().is_some_and(|o| o != p.name) {
            continue;
        }
        let (program, _) = c_front::lower(p.source, &format!("{}.c", p.name), &c_front::LowerOptions::default());
        let program = program.expect("lowered");
        let (set, _) = c_front::parse_predicates(&program, p.predicates);
        for enforce in [false, true] {
            let mut config = abstraction::AbstractionConfig::new(abstraction::Strategy::Exact);
            config.enforce = enforce;
            let (a, _) = abstraction::abstract_program(&program, &set, &config);
            println!("{} enforce={enforce}: {:?}", p.name, a.statistics);
        }
    }
}

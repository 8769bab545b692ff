//! Prints the C2BP Table 2 style benchmark: `cargo run --profile native -p bench-wasm --example abstraction_bench`.

fn main() {
    let mut rows = Vec::new();
    for p in bench_wasm::abstraction_bench::programs() {
        let (program, diags) = c_front::lower(p.source, &format!("{}.c", p.name), &c_front::LowerOptions::default());
        let Some(program) = program.filter(|_| !diagnostics::has_errors(&diags)) else {
            eprintln!("{}: {diags:?}", p.name);
            continue;
        };
        let (set, _) = c_front::parse_predicates(&program, p.predicates);
        rows.extend(bench_wasm::abstraction_bench::measure(p.name, p.lines(), &program, &set));
        eprint!("{}", bench_wasm::abstraction_bench::format_table(&rows[rows.len() - 2..]));
    }
    print!("{}", bench_wasm::abstraction_bench::format_table(&rows));
}

//! Lowers a C file and prints the IR and diagnostics (a development aid; the CLI has `predabs lower`).

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: lower_file FILE.c [quiet]");
        std::process::exit(2);
    };
    let mode = std::env::args().nth(2).unwrap_or_default();
    let quiet = !mode.is_empty();
    let source = std::fs::read_to_string(&path).unwrap_or_default();
    let start = std::time::Instant::now();
    let (program, diagnostics) = c_front::lower(&source, &path, &c_front::LowerOptions::default());
    let elapsed = start.elapsed();
    if let (Some(p), false) = (&program, quiet) {
        print!("{}", c_ir::display_program(p));
    }
    eprint!("{}", diagnostics::render_all(&diagnostics, &path, &source));
    eprintln!("lowered in {elapsed:?}");
    if let (Some(p), "run") = (&program, mode.as_str()) {
        let result = c_ir::interp::run(p, &mut |_| 0, &c_ir::interp::Limits::default());
        println!("{:?} after {} steps", result.outcome, result.path.len());
    }
    if program.is_none() || diagnostics::has_errors(&diagnostics) {
        std::process::exit(1);
    }
}

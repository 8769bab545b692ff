fn main() {
    let args: Vec<String> = std::env::args().collect();
    let src = std::fs::read_to_string(&args[1]).unwrap();
    let abs = std::fs::read_to_string(&args[2]).unwrap();
    let mut a = hiding::Analysis::new(&src, &args[1], &abs, Default::default()).unwrap();
    a.closure();
    print!("{}", a.log_text());
    print!("{}", a.abstraction_file());
    print!("{}", a.warnings_text());
    let t = hiding::transform::transform(&a.program, &src, &a.hidden, Default::default());
    print!("{}", t.text);
}

//! A short bounded soundness fuzz of the whole engine: random list programs (straight-line and
//! one loop, over `x`, `y`, `t` with `=`, `->n` loads and stores, NULL and malloc) with a
//! random shape property; whenever the analysis says SAFE, the interpreter
//! (`shape::replay::search`, every heap of up to 3 cells) must find no violation, and an
//! UNSAFE verdict must come with a replayed witness. Seeded: 40 straight-line programs by
//! default; `SHAPE_FUZZ=N` runs N programs with loops too (slow: up to a minute each in the
//! test profile, model checking unconverged abstractions).

use shape::replay::{self, Replay};
use shape::report::Verdict;
use shape::Request;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[(self.next() % xs.len() as u64) as usize]
    }
}

fn statement(r: &mut Rng) -> String {
    let v = ["x", "y", "t"];
    let (a, b) = (r.pick(&v), r.pick(&v));
    match r.next() % 7 {
        0 => format!("{a} = {b};"),
        1 => format!("{a} = NULL;"),
        2 => format!("if ({b} != NULL) {a} = {b}->n;"),
        3 => format!("if ({a} != NULL) {a}->n = {b};"),
        4 => format!("if ({a} != NULL) {a}->n = NULL;"),
        5 => format!("{a} = (List) malloc(sizeof(Node)); {a}->n = NULL;"),
        _ => format!("if ({a} != NULL) if ({b} != NULL) {a}->n = {b}->n;"),
    }
}

fn program(r: &mut Rng, loops: bool) -> String {
    let mut body = String::new();
    let mut label = 1;
    let mut line = |s: String, body: &mut String| {
        *body += &format!("  l{label}: {s}\n");
        label += 1;
    };
    for _ in 0..(1 + r.next() % 3) {
        line(statement(r), &mut body);
    }
    if loops && r.next().is_multiple_of(2) {
        let v = r.pick(&["x", "y", "t"]);
        line(format!("while ({v} != NULL) {{ {} {v} = {v}->n; }}", statement(r)), &mut body);
    }
    format!(
        "#include <stdlib.h>\ntypedef struct node {{struct node *n; int data;}} Node;\ntypedef Node *List;\nList f(List x, List y) {{\n  List t;\n  t = NULL;\n  l0: t = t;\n{body}  le: return x;\n}}\n"
    )
}

#[test]
fn safe_verdicts_survive_every_small_heap_and_unsafe_ones_have_witnesses() {
    // the default run: 40 straight-line programs; SHAPE_FUZZ=N: N programs, half with a loop
    let long: Option<u64> = std::env::var("SHAPE_FUZZ").ok().and_then(|s| s.parse().ok());
    let cases = long.unwrap_or(40);
    let mut r = Rng(0x5eed_0004);
    let mut tally = [0usize; 3];
    for case in 0..cases {
        let source = program(&mut r, long.is_some());
        let v = r.pick(&["x", "y", "t"]);
        let (property, pre) = match r.next() % 3 {
            0 => (format!("!cyclic[n]({v})@le"), vec!["!cyclic[n](x)@l0".to_string(), "!cyclic[n](y)@l0".to_string()]),
            1 => ("forall k: reach[;n](x,k)@l0 => reach[;n](x,k)@le".to_string(), vec![]),
            _ => (format!("!dshared[n](x,{v})@le"), vec!["!dshared[n](x,y)@l0".to_string()]),
        };
        let req = Request { source: source.clone(), file_name: "fuzz.c".into(), proc: "f".into(), properties: vec![property.clone()], preconditions: pre, bound: 10, hints: String::new(), auto_hints: true };
        if std::env::var_os("SHAPE_FUZZ_PRINT").is_some() {
            eprintln!("case {case}: {property}\n{source}");
        }
        let clock = std::time::Instant::now();
        let Ok(report) = shape::analyze(&req) else { panic!("case {case}: refused\n{source}") };
        eprintln!("case {case}: {} in {:.1}s ({property})", report.verdict.word(), clock.elapsed().as_secs_f64());
        match report.verdict {
            Verdict::Safe => {
                let session = shape::prepare(&req).unwrap_or_else(|_| panic!("prepare"));
                match replay::search(&session, &source, 3) {
                    Replay::Violation(w) => panic!("case {case}: SAFE but the interpreter violates {property} at {}: {:?}\n{source}", w.location, w.heap),
                    Replay::NotFound { .. } => tally[0] += 1,
                    Replay::Failed(e) => panic!("case {case}: replay failed: {e}\n{source}"),
                }
            }
            Verdict::Unsafe => {
                assert!(report.witness.is_some(), "case {case}: UNSAFE without a witness");
                tally[1] += 1;
            }
            Verdict::Unknown => tally[2] += 1,
        }
    }
    assert!(tally[0] + tally[1] > 0, "no case was decided: {tally:?}");
    eprintln!("shape fuzz: {} safe (confirmed on small heaps), {} unsafe (replayed), {} unknown", tally[0], tally[1], tally[2]);
}

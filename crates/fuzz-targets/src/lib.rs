//! Bounded fuzzing of predabs's text entry points: C files (`c_front::lower`), predicate files
//! (`c_front::parse_predicates`) and boolean programs (`boolprog::parse`, then
//! `model_check::check` on the small ones). The contract of every entry point is that user
//! input never panics, aborts or hangs: every problem is a diagnostic with a span inside the
//! text (issue 33, "no crash on any input").
//!
//! Inputs are mutations of the repository's own test files (`tests/**`): character edits with
//! C's punctuation, deleted and duplicated ranges, swapped lines, truncations, and bursts of
//! deep nesting (`((((`, `{{{{`, `- - - -`, `+ x + x`) sized around `c_front::MAX_NESTING`.
//! Each input runs on a worker thread with a 1 MiB stack (wasm's main stack in the web worker)
//! under `catch_unwind`; a panic is a [`Failure`], and an input that takes longer than
//! [`HANG_LIMIT`] is reported as a hang. The pseudo-random generator is seeded, so a run is
//! reproducible from `(target, seed, cases)`.
//!
//! `tests/fuzz.rs` runs a few thousand inputs per target in the normal test suite;
//! `PREDABS_FUZZ_CASES=100000` runs more, `PREDABS_FUZZ_SEED` picks another seed and
//! `PREDABS_FUZZ_OUT=DIR` writes failing inputs to `DIR` (see `docs/fuzzing.md`).

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

/// wasm's default stack size: the web worker runs the engine on it.
pub const STACK: usize = 1 << 20;
/// An input that runs longer than this is a hang (the slowest legitimate input takes well under
/// a second; the model checker gets a budget of its own, [`MODEL_CHECK_MS`]).
pub const HANG_LIMIT: Duration = Duration::from_secs(30);
/// The model checker's time budget per boolean program.
pub const MODEL_CHECK_MS: u64 = 2_000;
/// Boolean programs with more variables than this are only parsed and validated.
pub const MAX_MODEL_CHECK_VARIABLES: usize = 64;

/// The entry points under test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// `c_front::lower` on mutated C files.
    CText,
    /// `c_front::parse_predicates` on mutated predicate files, against their program.
    Predicates,
    /// `boolprog::parse` on mutated boolean programs, then `model_check::check` on small valid ones.
    BoolProg,
}

impl Target {
    pub fn name(self) -> &'static str {
        match self {
            Target::CText => "c-text",
            Target::Predicates => "predicates",
            Target::BoolProg => "boolprog",
        }
    }
}

/// A pseudo-random generator (splitmix64): reproducible and dependency-free.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

/// One input of the corpus: the text to mutate, and for predicate files the C program they
/// belong to.
#[derive(Clone, Debug)]
pub struct Seed {
    pub name: String,
    pub text: String,
    pub program: Option<String>,
}

fn files_with(dir: &Path, extension: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| entries.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == extension)).collect())
        .unwrap_or_default();
    files.sort();
    files
}

fn read(path: &Path) -> Option<Seed> {
    let text = std::fs::read_to_string(path).ok()?;
    Some(Seed { name: path.display().to_string(), text, program: None })
}

/// The test files of the repository (`tests/` at the workspace root) that `target` reads.
pub fn corpus(target: Target, tests: &Path) -> Vec<Seed> {
    match target {
        Target::CText => ["c-front", "c-front/interp", "programs", "cegar"].iter().flat_map(|d| files_with(&tests.join(d), "c")).filter_map(|p| read(&p)).collect(),
        Target::Predicates => files_with(&tests.join("abstraction"), "preds")
            .into_iter()
            .filter_map(|p| {
                let stem = p.file_stem()?.to_str()?.to_string();
                let program = ["abstraction", "programs", "c-front"].iter().map(|d| tests.join(d).join(format!("{stem}.c"))).find(|c| c.exists())?;
                let mut seed = read(&p)?;
                seed.program = Some(std::fs::read_to_string(program).ok()?);
                Some(seed)
            })
            .collect(),
        Target::BoolProg => ["boolprog", "programs", "model-check"].iter().flat_map(|d| files_with(&tests.join(d), "bp")).filter_map(|p| read(&p)).collect(),
    }
}

const ALPHABET: &[&str] = &[
    "(", ")", "{", "}", "[", "]", ";", ",", "*", "&", "#", "\"", "'", "\\", "\n", " ", "x", "0", "9", "-", "+", "=", "<", ">", "!", "?", ":", ".", "/", "é", "\u{0}", "|", "^", "~", "%",
    "if", "else", "while", "goto", "return", "int", "unsigned", "struct", "->", "<<", ">>", "==", "&&", "||", "'", "0x7fffffff", "-2147483648", "sizeof", "#define X", "#if",
    "decl", "begin", "end", "fi", "od", "then", "do", "skip", "assume", "assert", "enforce", "constrain", "schoose", "*", "true", "false", "call",
];

/// A burst of nesting around the limit (half to twice `c_front::MAX_NESTING`).
fn nesting_burst(rng: &mut Rng) -> String {
    let n = c_front::MAX_NESTING / 2 + rng.below(c_front::MAX_NESTING * 3 / 2);
    match rng.below(6) {
        0 => format!("{}x{}", "(".repeat(n), ")".repeat(n)),
        1 => format!("{}x;{}", "{".repeat(n), "}".repeat(n)),
        2 => " + x".repeat(n),
        3 => "!".repeat(n),
        4 => "if (x) ".repeat(n),
        _ => " & x".repeat(n),
    }
}

/// `1..=4` random edits of `text`.
pub fn mutate(text: &str, rng: &mut Rng) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(chars.len() + 1);
        match rng.below(20) {
            0..=5 => {
                if at < chars.len() {
                    chars.remove(at);
                }
            }
            6..=11 => chars.splice(at..at, ALPHABET[rng.below(ALPHABET.len())].chars()).for_each(drop),
            12..=14 => {
                if at < chars.len() {
                    let symbol: Vec<char> = ALPHABET[rng.below(ALPHABET.len())].chars().collect();
                    chars.splice(at..at + 1, symbol).for_each(drop);
                }
            }
            15 => {
                let end = (at + rng.below(40)).min(chars.len());
                chars.drain(at..end);
            }
            16 => {
                let end = (at + rng.below(80)).min(chars.len());
                let copy: Vec<char> = chars[at..end].to_vec();
                let to = rng.below(chars.len() + 1);
                chars.splice(to..to, copy).for_each(drop);
            }
            17 => chars.truncate(at),
            18 => {
                let mut lines: Vec<String> = chars.iter().collect::<String>().lines().map(str::to_string).collect();
                if lines.len() > 1 {
                    let (a, b) = (rng.below(lines.len()), rng.below(lines.len()));
                    lines.swap(a, b);
                }
                chars = lines.join("\n").chars().collect();
            }
            _ => chars.splice(at..at, nesting_burst(rng).chars()).for_each(drop),
        }
    }
    chars.into_iter().collect()
}

/// What went wrong on one input.
#[derive(Clone, Debug)]
pub struct Failure {
    pub target: Target,
    pub input: String,
    /// The program a predicate file was parsed against.
    pub program: Option<String>,
    pub message: String,
}

/// Checks that a diagnostic list is well formed for `text`.
fn check_spans(diagnostics: &[diagnostics::Diagnostic], text: &str) -> Result<(), String> {
    for d in diagnostics {
        if d.span.start > d.span.end || d.span.end as usize > text.len() {
            return Err(format!("diagnostic `{}` has span {:?} outside the text ({} bytes)", d.message, d.span, text.len()));
        }
    }
    let _ = diagnostics::render_all(diagnostics, "input", text);
    Ok(())
}

/// Runs one input through the target's entry point (no panic guard: see [`run_guarded`]).
pub fn run_one(target: Target, input: &str, program: Option<&str>) -> Result<(), String> {
    match target {
        Target::CText => {
            let (lowered, diagnostics) = c_front::lower(input, "fuzz.c", &c_front::LowerOptions::default());
            check_spans(&diagnostics, input)?;
            if lowered.is_none() && !diagnostics::has_errors(&diagnostics) {
                return Err("no program and no error".into());
            }
            Ok(())
        }
        Target::Predicates => {
            let source = program.unwrap_or("int main() { return 0; }");
            let (lowered, _) = c_front::lower(source, "fuzz.c", &c_front::LowerOptions::default());
            let Some(lowered) = lowered else { return Ok(()) };
            let (set, diagnostics) = c_front::parse_predicates(&lowered, input);
            check_spans(&diagnostics, input)?;
            let all = set.global.iter().chain(set.local.iter().flat_map(|(_, p)| p.iter()));
            if let Some(p) = all.into_iter().find(|p| p.ty != c_ir::Type::Bool) {
                return Err(format!("a predicate of type {:?}", p.ty));
            }
            Ok(())
        }
        Target::BoolProg => {
            let (parsed, diagnostics) = boolprog::parse(input);
            check_spans(&diagnostics, input)?;
            let _ = boolprog::print_bebop(&parsed);
            let variables = parsed.globals.len() + parsed.procs.iter().map(|p| p.formals.len() + p.locals.len()).sum::<usize>();
            if !diagnostics::has_errors(&diagnostics) && !parsed.procs.is_empty() && variables <= MAX_MODEL_CHECK_VARIABLES {
                let config = model_check::Config { time_budget_ms: Some(MODEL_CHECK_MS), max_bdd_nodes: 200_000, ..model_check::Config::default() };
                let _ = model_check::check(&parsed, &config);
            }
            Ok(())
        }
    }
}

/// [`run_one`] under `catch_unwind`: a panic becomes an error message.
pub fn run_guarded(target: Target, input: &str, program: Option<&str>) -> Result<(), String> {
    match catch_unwind(AssertUnwindSafe(|| run_one(target, input, program))) {
        Ok(result) => result,
        Err(payload) => {
            let message = payload.downcast_ref::<&str>().map(|s| s.to_string()).or_else(|| payload.downcast_ref::<String>().cloned()).unwrap_or_default();
            Err(format!("panic: {message}"))
        }
    }
}

/// The figures of one fuzzing run.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub cases: usize,
    pub failures: Vec<Failure>,
    /// An input that did not finish within [`HANG_LIMIT`] (the run stops there).
    pub hang: Option<Failure>,
}

/// Runs `cases` mutated inputs of `corpus` through `target` on a 1 MiB worker thread.
/// Inputs are generated from `seed`; the run stops at the first hang.
pub fn fuzz(target: Target, corpus: &[Seed], seed: u64, cases: usize) -> Report {
    let mut report = Report::default();
    if corpus.is_empty() {
        return report;
    }
    let mut rng = Rng::new(seed);
    let inputs: Vec<(String, Option<String>)> = (0..cases)
        .map(|_| {
            let s = &corpus[rng.below(corpus.len())];
            (mutate(&s.text, &mut rng), s.program.clone())
        })
        .collect();
    let (to_main, from_worker) = mpsc::channel();
    let work = inputs.clone();
    let worker = std::thread::Builder::new().name(format!("fuzz-{}", target.name())).stack_size(STACK).spawn(move || {
        for (i, (input, program)) in work.iter().enumerate() {
            let result = run_guarded(target, input, program.as_deref());
            if to_main.send((i, result)).is_err() {
                return;
            }
        }
    });
    if worker.is_err() {
        report.hang = Some(Failure { target, input: String::new(), program: None, message: "could not start the worker thread".into() });
        return report;
    }
    // silence the default panic message per caught panic: failures are reported together
    for _ in 0..cases {
        match from_worker.recv_timeout(HANG_LIMIT) {
            Ok((i, result)) => {
                report.cases += 1;
                if let Err(message) = result {
                    report.failures.push(Failure { target, input: inputs[i].0.clone(), program: inputs[i].1.clone(), message });
                }
            }
            Err(_) => {
                let i = report.cases;
                report.hang = Some(Failure { target, input: inputs[i].0.clone(), program: inputs[i].1.clone(), message: format!("no answer within {} s", HANG_LIMIT.as_secs()) });
                break;
            }
        }
    }
    report
}

/// Writes each failure to `dir` as `TARGET-N.txt` (the input) and, for predicate files, `.c`
/// (their program). Returns the files written.
pub fn save_failures(report: &Report, dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir)?;
    let mut written = Vec::new();
    for (n, f) in report.failures.iter().chain(report.hang.iter()).enumerate() {
        let path = dir.join(format!("{}-{n}.txt", f.target.name()));
        std::fs::write(&path, &f.input)?;
        written.push(path.clone());
        if let Some(program) = &f.program {
            let c = path.with_extension("c");
            std::fs::write(&c, program)?;
            written.push(c);
        }
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mutation_is_reproducible() {
        let text = "int main() { int x = 1; return x + 2; }\n";
        let a: Vec<String> = (0..20).scan(Rng::new(7), |rng, _| Some(mutate(text, rng))).collect();
        let b: Vec<String> = (0..20).scan(Rng::new(7), |rng, _| Some(mutate(text, rng))).collect();
        assert_eq!(a, b);
        assert!(a.iter().any(|m| m != text));
    }

    #[test]
    fn a_panic_is_a_failure_not_an_abort() {
        let result = catch_unwind(|| -> Result<(), String> { panic!("boom") });
        assert!(result.is_err());
        let ok = run_guarded(Target::BoolProg, "decl x; void main() begin x := 1; end", None);
        assert_eq!(ok, Ok(()));
    }
}

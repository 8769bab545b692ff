//! Bounded fuzzing of predabs's text entry points: C files (`c_front::lower`), predicate files
//! (`c_front::parse_predicates`), boolean programs (`boolprog::parse`, then
//! `model_check::check` on the small ones), abstraction files of `predabs hide` (the whole
//! hiding pipeline: `hiding::Analysis`, steps to closure, log, why, points-to, `tr` in its three
//! spellings, the hidden program lowered), witnesses of `predabs validate`
//! (`witness::yaml::from_yaml`, then validation in the interpreter or instrumentation with the
//! invariants), share-link fragments (`playground_api::share`) and lab files, lab links and
//! lab submissions (`playground_api::lab`, with the answer parser). The contract of every entry
//! point is that user input never panics, aborts or hangs: every problem is a diagnostic with a
//! span inside the text (issue 33, "no crash on any input").
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
    /// `hiding::Analysis` on mutated abstraction files (and sometimes mutated C files), to
    /// closure, then every view of the result and `tr`.
    AbsFile,
    /// `witness::yaml::from_yaml` on mutated witnesses, then validation against their program.
    Witness,
    /// `playground_api::share::decode` on mutated sessions and damaged fragments.
    ShareFragment,
    /// `playground_api::lab`: mutated lab files and submissions, as files and as links, and
    /// every task checked with the mutated text as the answer.
    LabFile,
}

impl Target {
    pub fn name(self) -> &'static str {
        match self {
            Target::CText => "c-text",
            Target::Predicates => "predicates",
            Target::BoolProg => "boolprog",
            Target::AbsFile => "abs-file",
            Target::Witness => "witness",
            Target::ShareFragment => "share-fragment",
            Target::LabFile => "lab-file",
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
        Target::AbsFile => files_with(&tests.join("hiding"), "abs")
            .into_iter()
            .filter_map(|p| {
                let mut seed = read(&p)?;
                // The gallery's programs are kept once, in `tests/programs/hide_<stem>.c`.
                let stem = p.file_stem()?.to_str()?;
                let program = [p.with_extension("c"), tests.join("programs").join(format!("hide_{stem}.c"))].into_iter().find(|c| c.exists())?;
                seed.program = Some(std::fs::read_to_string(program).ok()?);
                Some(seed)
            })
            .collect(),
        Target::Witness => witness_corpus(tests),
        Target::ShareFragment => share_corpus(tests),
        Target::LabFile => lab_corpus(tests),
    }
}

/// The gallery's labs (`tests/labs/*.lab.json`), each also as one-line JSON, as a submission
/// with answers, and with its tasks reversed.
fn lab_corpus(tests: &Path) -> Vec<Seed> {
    use playground_api::lab::{Lab, Submission};
    let mut seeds = Vec::new();
    for path in files_with(&tests.join("labs"), "json") {
        let Some(seed) = read(&path) else { continue };
        let Ok(lab) = Lab::from_file(&seed.text) else {
            seeds.push(seed);
            continue;
        };
        let name = seed.name.clone();
        seeds.push(seed);
        seeds.push(Seed { name: format!("{name} (one line)"), text: serde_json::to_string(&lab).unwrap_or_default(), program: None });
        let mut submission = Submission::start(&lab);
        for i in 0..lab.tasks.len() {
            submission.answer(&lab, i, ["infeasible", "locked == 0", "{curr == NULL} || !{prev == NULL}", "SAFE", "because"][i % 5], None, Some("2026-11-27T10:00:00Z".into()));
        }
        seeds.push(Seed { name: format!("{name} (submission)"), text: submission.to_file(), program: None });
        let mut reversed = lab.clone();
        reversed.tasks.reverse();
        seeds.push(Seed { name: format!("{name} (reversed)"), text: reversed.to_file(), program: None });
    }
    seeds
}

/// The witnesses of `tests/witness/` with their programs, and for each program there a
/// correctness witness (an invariant at each loop) and a violation witness (each `if` taken, the
/// error call as the target) written by `witness::yaml::to_yaml`: well-formed starting points
/// whether or not they are valid.
fn witness_corpus(tests: &Path) -> Vec<Seed> {
    use witness::{Action, CorrectnessWitness, Invariant, InvariantKind, Location, Producer, ViolationWitness, Waypoint, WaypointKind, Witness};
    let dir = tests.join("witness");
    let mut seeds: Vec<Seed> = files_with(&dir, "yml")
        .into_iter()
        .filter_map(|p| {
            let mut seed = read(&p)?;
            let stem = p.file_name()?.to_str()?.split('.').next()?.to_string();
            seed.program = std::fs::read_to_string(dir.join(format!("{stem}.c"))).ok();
            Some(seed)
        })
        .collect();
    for p in files_with(&dir, "c") {
        let Ok(source) = std::fs::read_to_string(&p) else { continue };
        let file_name = p.file_name().and_then(|n| n.to_str()).unwrap_or("w.c").to_string();
        let producer = Producer { name: "fuzz".into(), version: "0".into(), configuration: None, command_line: None };
        let metadata = witness::metadata(producer, &file_name, source.as_bytes(), witness::DataModel::Ilp32, "2026-01-01T00:00:00Z".into());
        let at = |line: usize, text: &str, word: &str| Location { file_name: file_name.clone(), line: line as u32 + 1, column: text.find(word).map(|c| c as u32 + 1), function: Some("main".into()) };
        let mut invariants = Vec::new();
        let mut waypoints = Vec::new();
        for (n, line) in source.lines().enumerate() {
            for word in ["while", "for"] {
                if line.contains(&format!("{word} (")) {
                    invariants.push(Invariant { kind: InvariantKind::Loop, location: at(n, line, word), value: "i >= 0 && 1".into() });
                }
            }
            if line.contains("if (") {
                waypoints.push(Waypoint { kind: WaypointKind::Branching { taken: true }, action: Action::Follow, location: at(n, line, "if") });
            }
            if line.trim_start().starts_with("reach_error();") {
                waypoints.push(Waypoint { kind: WaypointKind::Target, action: Action::Follow, location: at(n, line, "reach_error") });
            }
        }
        let correctness = Witness::Correctness(CorrectnessWitness { metadata: metadata.clone(), invariants });
        let violation = Witness::Violation(ViolationWitness::from_waypoints(metadata, waypoints));
        for (kind, w) in [("correctness", correctness), ("violation", violation)] {
            seeds.push(Seed { name: format!("{} ({kind})", p.display()), text: witness::yaml::to_yaml(&w), program: Some(source.clone()) });
        }
    }
    seeds
}

/// Sessions (the JSON a share link carries) with the programs and predicate files of `tests/`.
fn share_corpus(tests: &Path) -> Vec<Seed> {
    let programs = files_with(&tests.join("programs"), "c");
    let predicates = files_with(&tests.join("abstraction"), "preds");
    let modes = ["Check", "Abstract", "ModelCheck", "Hide"];
    programs
        .iter()
        .enumerate()
        .take(24)
        .filter_map(|(k, p)| {
            let source = std::fs::read_to_string(p).ok()?;
            let preds = predicates.get(k % predicates.len().max(1)).and_then(|q| std::fs::read_to_string(q).ok()).unwrap_or_default();
            let session = serde_json::json!({
                "source": source,
                "predicates": preds,
                "boolean_program": "",
                "mode": modes[k % modes.len()],
                "options": { "int_width": k % 3 * 8, "strategy": "Exact", "max_iterations": 20 + k },
                "selected_iteration": if k % 2 == 0 { serde_json::json!(k) } else { serde_json::Value::Null },
                "example": if k % 3 == 0 { serde_json::json!("counting-loop") } else { serde_json::Value::Null },
                "abstraction": "main x\n(global) g\n",
                "hide_step": k % 5,
            });
            Some(Seed { name: format!("session of {}", p.display()), text: serde_json::to_string_pretty(&session).ok()?, program: None })
        })
        .collect()
}

/// What the share-fragment target decodes into: the web playground's session shape (its enums
/// and options are kept as JSON values, since their types live in the web crate).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct FuzzSession {
    pub source: String,
    pub predicates: String,
    pub boolean_program: String,
    pub mode: serde_json::Value,
    pub options: serde_json::Value,
    pub selected_iteration: Option<u32>,
    pub example: Option<String>,
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

const YAML_VALUES: &[&str] = &[
    "0", "-1", "1", "3", "7", "12", "4294967296", "99999999999999999999", "''", "x == 1", "\\result == 5", "i < n && s >= 0", "'((('", "true", "false", "follow", "avoid",
    "branching", "assumption", "target", "function_enter", "function_return", "loop_invariant", "location_invariant", "invariant_set", "violation_sequence", "c_expression",
    "ILP32", "LP64", "main", "reach_error", "unsafe_nondet.c", "é", "[]", "{}", "null", "'2.0'", "'x == 42'", "'s == 21'",
];

/// `1..=3` edits of the values of a YAML document (`key: value` lines keep their keys): the
/// document stays well formed, so the schema check and the validator see it.
pub fn mutate_values(text: &str, rng: &mut Rng) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let keyed: Vec<usize> = lines.iter().enumerate().filter(|(_, l)| l.contains(": ")).map(|(i, _)| i).collect();
    if keyed.is_empty() {
        return text.to_string();
    }
    for _ in 0..1 + rng.below(3) {
        // mostly the content (waypoints, invariants): metadata edits are rejected early
        let content = lines.iter().position(|l| l.trim_start().starts_with("content:")).unwrap_or(0);
        let in_content: Vec<usize> = keyed.iter().copied().filter(|&i| i > content).collect();
        let pool = if !in_content.is_empty() && rng.chance(85) { &in_content } else { &keyed };
        let i = pool[rng.below(pool.len())];
        let Some(colon) = lines[i].find(": ") else { continue };
        let key = lines[i][..colon].trim().trim_start_matches("- ");
        // mostly values of the right kind (the schema check rejects the rest early)
        let value = match key {
            "line" | "column" if rng.chance(80) => ["0", "1", "2", "5", "6", "7", "8", "9", "10", "11", "12", "13", "40", "-1", "4294967296"][rng.below(15)],
            "value" if rng.chance(80) => ["'x == 1'", "'i >= 0'", "'s == 21'", "'n == 6'", "'(((x'", "'x = 1'", "'f()'", "'i < n && s >= 0'", "'\\result == 5'", "'1'", "'y == 46'", "'x == 9999999999999999999999'"][rng.below(12)],
            _ => YAML_VALUES[rng.below(YAML_VALUES.len())],
        };
        lines[i] = format!("{}: {value}", &lines[i][..colon]);
    }
    lines.join("\n")
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
        Target::AbsFile => run_hiding(input, program.unwrap_or("int main(void) { return 0; }")),
        Target::Witness => run_witness(input, program.unwrap_or("int main(void) { return 0; }")),
        Target::ShareFragment => run_share(input),
        Target::LabFile => run_lab(input),
    }
}

/// The hiding pipeline on one abstraction file and C file.
fn run_hiding(abstraction: &str, source: &str) -> Result<(), String> {
    use hiding::transform::{transform, NondetStyle, TransformOptions};
    let options = hiding::InferOptions { array_nondet_index: abstraction.len() % 2 == 0 };
    let mut a = match hiding::Analysis::new(source, "fuzz.c", abstraction, options) {
        Ok(a) => a,
        Err(diagnostics) => {
            check_spans(&diagnostics, source)?;
            return if diagnostics::has_errors(&diagnostics) { Ok(()) } else { Err("no analysis and no error".into()) };
        }
    };
    check_spans(&a.c_diagnostics, source)?;
    check_spans(&a.abs_diagnostics, abstraction)?;
    a.step();
    let _ = a.log_text();
    a.closure();
    if !a.closed || !a.is_closed_set() {
        return Err("the closure is not closed".into());
    }
    let _ = (a.abstraction_file(), a.warnings_text(), a.size());
    for w in &a.warnings {
        if w.span.end as usize > source.len() {
            return Err(format!("warning `{}` has a span outside the C file", w.message));
        }
    }
    for inf in a.inferences.clone() {
        let _ = a.detail(&inf);
    }
    for v in a.hidden.iter().take(8) {
        let _ = (a.why_text(v), a.points_to(v));
    }
    for nondet in [NondetStyle::Token, NondetStyle::Macro, NondetStyle::Call] {
        let t = transform(&a.program, source, &a.hidden, TransformOptions { array_nondet_index: options.array_nondet_index, nondet });
        if t.edits.iter().any(|e| e.span.end as usize > source.len()) {
            return Err("an edit has a span outside the C file".into());
        }
        if nondet == NondetStyle::Call {
            let (_, diagnostics) = c_front::lower(&t.text, "hidden.c", &c_front::LowerOptions::default());
            check_spans(&diagnostics, &t.text)?;
        }
    }
    Ok(())
}

/// Parses a witness and validates it against its program the way `predabs validate` does
/// (violation: in the interpreter; correctness: the program instrumented with the invariants,
/// lowered).
fn run_witness(text: &str, source: &str) -> Result<(), String> {
    use witness::source::SourceIndex;
    let parsed = match witness::yaml::from_yaml(text) {
        Ok(w) => w,
        Err(reasons) => return if reasons.iter().any(|r| !r.is_empty()) { Ok(()) } else { Err("rejected without a reason".into()) },
    };
    let index = SourceIndex::new(source);
    let model = parsed.metadata().task.data_model;
    let Ok(program) = witness::lower(source, "fuzz.c", model) else { return Ok(()) };
    match parsed {
        witness::Witness::Violation(v) => {
            let report = witness::violation::validate_violation(&program, &index, &v);
            if report.validity != witness::Validity::Valid && report.reasons.is_empty() {
                return Err(format!("{} without a reason", report.validity.as_str()));
            }
        }
        witness::Witness::Correctness(c) => {
            let checks: Vec<(u32, String)> = c.invariants.iter().filter_map(|i| Some((index.offset_of(i.location.line, i.location.column)?, i.value.clone()))).collect();
            let (instrumented, _) = witness::correctness::instrument(&index, &checks);
            let (_, diagnostics) = c_front::lower(&instrumented, "instrumented.c", &c_front::LowerOptions::default());
            check_spans(&diagnostics, &instrumented)?;
            if let Ok((induction, _)) = witness::correctness::instrument_induction(&program, &index, &checks) {
                let (_, diagnostics) = c_front::lower(&induction, "induction.c", &c_front::LowerOptions::default());
                check_spans(&diagnostics, &induction)?;
            }
        }
    }
    Ok(())
}

/// A share fragment: the input as a fragment, the input's bytes carried by a well-formed
/// fragment (which must decode to them, or to "damaged" when they are not a session), and that
/// fragment truncated and with one character changed.
fn run_share(input: &str) -> Result<(), String> {
    use playground_api::share::{decode, decode_bytes, encode, encode_bytes, ShareError};
    let _ = decode::<FuzzSession>(input);
    let fragment = encode_bytes(input.as_bytes());
    if decode_bytes(&fragment) != Ok(Some(input.as_bytes().to_vec())) {
        return Err("a well-formed fragment does not give back its bytes".into());
    }
    match decode::<FuzzSession>(&format!("#{fragment}")) {
        Ok(Some(session)) => {
            if decode::<FuzzSession>(&encode(&session)) != Ok(Some(session)) {
                return Err("a decoded session does not round-trip".into());
            }
        }
        Err(ShareError::Unreadable) => {}
        other => return Err(format!("a well-formed fragment gave {other:?}")),
    }
    let cut = fragment.len() * 7 / 10;
    let _ = decode::<FuzzSession>(&fragment[..cut]);
    let mut damaged: Vec<char> = fragment.chars().collect();
    let at = PREFIX_LEN + input.len() % (damaged.len() - PREFIX_LEN).max(1);
    if at < damaged.len() {
        damaged[at] = if damaged[at] == 'A' { '_' } else { 'A' };
    }
    let _ = decode::<FuzzSession>(&damaged.into_iter().collect::<String>());
    Ok(())
}

const PREFIX_LEN: usize = playground_api::share::PREFIX.len();

/// A lab input: as a lab file, as the payload of a lab link (which must read the same as the
/// file, up to the error's wording), damaged links, as a submission; a lab that reads back
/// round-trips through its file and link, checks every task with the input as the answer and
/// reviews a submission of those answers.
fn run_lab(input: &str) -> Result<(), String> {
    use playground_api::lab::{normalise, Lab, LINK_PREFIX, RunSummary, Submission};
    use playground_api::share::encode_bytes;
    let as_file = Lab::from_file(input);
    let link = format!("#{LINK_PREFIX}{}", encode_bytes(input.as_bytes()));
    let as_link = Lab::from_link(&link);
    if as_file.is_ok() != as_link.is_ok() {
        return Err(format!("the file and the link disagree: {:?} / {:?}", as_file.as_ref().err(), as_link.as_ref().err()));
    }
    let cut = link.len() * 7 / 10;
    let _ = Lab::from_link(&link[..cut]);
    let mut damaged: Vec<char> = link.chars().collect();
    let at = 1 + LINK_PREFIX.len() + PREFIX_LEN + input.len() % (damaged.len() - 1 - LINK_PREFIX.len() - PREFIX_LEN).max(1);
    if at < damaged.len() {
        damaged[at] = if damaged[at] == 'A' { '_' } else { 'A' };
    }
    let _ = Lab::from_link(&damaged.into_iter().collect::<String>());
    if let Err(e) = &as_file {
        if e.to_string().is_empty() {
            return Err("an error without a message".into());
        }
    }
    let submission = Submission::from_file(input);
    if let Ok(s) = &submission {
        if Submission::from_file(&s.to_file()).as_ref() != Ok(s) {
            return Err("a submission does not round-trip".into());
        }
    }
    let Ok(lab) = as_file else { return Ok(()) };
    if Lab::from_file(&lab.to_file()).as_ref() != Ok(&lab) || Lab::from_link(&lab.to_link()).as_ref() != Ok(&lab) {
        return Err("a lab does not round-trip".into());
    }
    let run = RunSummary { source: input.to_string(), iterations: input.len() as u32 % 5, verdict: None };
    let mut answers = Submission::start(&lab);
    let answer: String = input.chars().rev().take(400).collect();
    for (i, task) in lab.tasks.iter().enumerate() {
        let _ = normalise(&task.question, &answer);
        let _ = task.hint_after(i as u32);
        answers.answer(&lab, i, &answer, Some(&run), None);
    }
    let review = lab.review(&answers).map_err(|e| format!("a lab refuses its own submission: {e}"))?;
    if review.rows.len() != lab.tasks.len() {
        return Err("the review has a row per task".into());
    }
    if let Ok(s) = submission {
        let _ = lab.review(&s);
    }
    Ok(())
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
            let input = if target == Target::Witness && rng.chance(60) { mutate_values(&s.text, &mut rng) } else { mutate(&s.text, &mut rng) };
            let program = match (&s.program, target) {
                (Some(p), Target::AbsFile) if rng.chance(30) => Some(mutate(p, &mut rng)),
                _ => s.program.clone(),
            };
            (input, program)
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

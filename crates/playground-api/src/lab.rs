//! Lab documents: exercises in the "predict, then reveal" style of issue 31, shared as a link or
//! a file with no server.
//!
//! A [`Lab`] is a small versioned document (`version: 1`): a program, its predicates, the
//! settings the lab assumes (and which of them the student may not change), and an ordered list
//! of [`Task`]s with hints. The questions are grounded in what the engine computes and the
//! papers explain:
//!
//! - [`Question::ImplyingCubes`]: which cubes imply `WP(s, φ)` (or its negation) — the
//!   strengthening `F` of C2BP §4.2 (`F(ψ)` is the disjunction of the minimal implying cubes);
//! - [`Question::Feasibility`]: is iteration N's abstract counterexample feasible (BOOP §7.2,
//!   the path formula of Fig 7.3);
//! - [`Question::NewPredicates`]: which predicates refinement adds at iteration N (BOOP §7.3);
//! - [`Question::InvariantAt`]: the reachable states at a label (C2BP §6, the invariant at `L`);
//! - [`Question::Verdict`], and the goals [`Question::ReachIteration`] and
//!   [`Question::MakeSafe`] (change the program until the verdict is SAFE), and free-text prompts.
//!
//! **Hidden answers and their limits.** A link or file carries, per task, only a salted SHA-256
//! of the normalised expected answer ([`SealedAnswer`]), so a glance at the link (or its JSON)
//! does not show it. This is not secrecy: the salt travels with the lab, so a determined student
//! can hash candidate answers (a yes/no or SAFE/UNSAFE question has two or three candidates, and
//! the predicates of a small program are few), or simply run the tool, which is what the lab
//! teaches anyway. The checks run in the student's browser; a submission's "right" marks are
//! re-checked when the teacher opens it, but a student who edits the file can claim anything for
//! goals and free text. Use labs for practice and self-assessment, not for grading that matters.
//!
//! Answers are compared after normalisation ([`normalise`]): formulas as canonical trees
//! (`&&`/`||` flattened and sorted, `a != b` as `!(a == b)` and `a <= b` as `!(a > b)`, braces of boolean variable names and
//! whitespace between symbols ignored), predicate lists as sets, yes/no and verdict words in
//! several spellings. Decoding ([`Lab::from_link`], [`Lab::from_file`]) validates every field and
//! returns a student-readable [`LabError`] naming the line or field; it never panics (the
//! `lab-file` fuzz target checks this).

use crate::explain::LatticeData;
use crate::share::{self, ShareError};
use crate::types::{FeasibilityKind, Mode, Options, Outcome, Request, Verdict};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// The lab format's version.
pub const VERSION: u32 = 1;
/// A lab link's fragment starts with this, then a share-link payload (`#lab=v1,...`).
pub const LINK_PREFIX: &str = "lab=";
/// What a submission file says it is.
pub const SUBMISSION_KIND: &str = "predabs-lab-submission";
/// Most tasks in a lab.
pub const MAX_TASKS: usize = 100;
/// Most hints per task.
pub const MAX_HINTS: usize = 10;
/// Longest prompt, hint, title or introduction (characters).
pub const MAX_TEXT: usize = 8_000;
/// Longest program or predicate file (bytes).
pub const MAX_SOURCE: usize = 512 << 10;
/// Longest answer a student can give (bytes; a fixed program for [`Question::MakeSafe`]).
pub const MAX_ANSWER: usize = 512 << 10;
/// Highest iteration a question may name.
pub const MAX_ITERATION: u32 = 1_000;

/// A lab: program, settings, tasks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lab {
    /// Always [`VERSION`].
    pub version: u32,
    /// Short name: lowercase letters, digits and `-` (e.g. `c2bp-partition`).
    pub id: String,
    pub title: String,
    /// Plain text shown above the tasks (rendered as text, never as HTML).
    #[serde(default)]
    pub introduction: String,
    pub mode: Mode,
    pub source: String,
    #[serde(default)]
    pub predicates: String,
    #[serde(default)]
    pub options: Options,
    /// What the student may not change while working on the lab.
    #[serde(default)]
    pub locked: Vec<Lockable>,
    /// Mixed into every answer's hash (visible: see the module doc for what it protects).
    pub salt: String,
    pub tasks: Vec<Task>,
}

/// A part of the request a lab can lock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Lockable {
    Mode,
    Program,
    Predicates,
    /// The portfolio's techniques.
    Techniques,
    /// wp or sp.
    Refinement,
    /// lattice or exact.
    Strategy,
    Integers,
    IterationBound,
}

impl Lockable {
    pub const ALL: [Lockable; 8] = [
        Lockable::Mode,
        Lockable::Program,
        Lockable::Predicates,
        Lockable::Techniques,
        Lockable::Refinement,
        Lockable::Strategy,
        Lockable::Integers,
        Lockable::IterationBound,
    ];
    pub fn label(self) -> &'static str {
        match self {
            Lockable::Mode => "mode",
            Lockable::Program => "program",
            Lockable::Predicates => "predicates",
            Lockable::Techniques => "techniques",
            Lockable::Refinement => "refinement (wp/sp)",
            Lockable::Strategy => "strategy (lattice/exact)",
            Lockable::Integers => "integers",
            Lockable::IterationBound => "iteration bound",
        }
    }
}

/// One step of a lab.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Task {
    /// What the student reads (plain text).
    pub prompt: String,
    pub question: Question,
    /// The expected answer's hash; `None` for goals and free text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<SealedAnswer>,
    /// Shown one more after each wrong answer.
    #[serde(default)]
    pub hints: Vec<String>,
}

/// What a task asks, in terms of the engine's results.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Question {
    /// Which cubes imply `WP(statement, predicate)` (`negated`: its negation) in iteration
    /// `iteration`'s abstraction; the answer is their disjunction, `F(ψ)` (C2BP §4.2).
    ImplyingCubes {
        iteration: u32,
        /// The C statement as the explain view prints it (`prev = curr;`).
        statement: String,
        /// The boolean variable (`{prev == NULL}`).
        predicate: String,
        #[serde(default)]
        negated: bool,
    },
    /// Is iteration `iteration`'s abstract counterexample feasible? (`feasible`/`infeasible`)
    Feasibility { iteration: u32 },
    /// Which predicates does refinement add at iteration `iteration`? (a set)
    NewPredicates { iteration: u32 },
    /// Which invariant holds at `location` (`at L`, `at entry`) of `procedure`? (a formula)
    InvariantAt { procedure: String, location: String },
    /// What is the verdict? (`SAFE`, `UNSAFE`, `UNKNOWN`)
    Verdict,
    /// A goal: run until iteration `iteration` is shown.
    ReachIteration { iteration: u32 },
    /// A goal: change the program so that the verdict is SAFE.
    MakeSafe,
    /// A prompt whose answer is recorded, not checked.
    FreeText,
}

impl Question {
    /// Whether the expected answer is sealed in the task.
    pub fn has_answer(&self) -> bool {
        !matches!(self, Question::ReachIteration { .. } | Question::MakeSafe | Question::FreeText)
    }
    /// The goals are checked against the student's run, not an answer.
    pub fn is_goal(&self) -> bool {
        matches!(self, Question::ReachIteration { .. } | Question::MakeSafe)
    }
    /// How the student should write an answer.
    pub fn answer_format(&self) -> &'static str {
        match self {
            Question::ImplyingCubes { .. } => "a disjunction of cubes, e.g. {a} || !{b} && {c} (false for none)",
            Question::Feasibility { .. } => "feasible or infeasible",
            Question::NewPredicates { .. } => "predicates separated by commas or lines (none for none)",
            Question::InvariantAt { .. } => "a formula over the predicates, with &&, || and !",
            Question::Verdict => "SAFE, UNSAFE or UNKNOWN",
            Question::ReachIteration { .. } => "run until the iteration is shown",
            Question::MakeSafe => "edit the program and run it until the verdict is SAFE",
            Question::FreeText => "free text",
        }
    }
    /// The iteration the question is about, if any.
    pub fn iteration(&self) -> Option<u32> {
        match self {
            Question::ImplyingCubes { iteration, .. }
            | Question::Feasibility { iteration }
            | Question::NewPredicates { iteration }
            | Question::ReachIteration { iteration } => Some(*iteration),
            _ => None,
        }
    }
}

/// The hex SHA-256 of salt, question and normalised answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SealedAnswer(pub String);

/// Why an answer could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnswerError(pub String);

impl std::fmt::Display for AnswerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Why a lab, link or submission cannot be read: a message naming the line and column (files)
/// or the field (`tasks[2].question.iteration`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabError {
    pub line: Option<u32>,
    pub column: Option<u32>,
    pub field: Option<String>,
    pub message: String,
}

impl LabError {
    fn field(field: impl Into<String>, message: impl Into<String>) -> LabError {
        LabError { line: None, column: None, field: Some(field.into()), message: message.into() }
    }
    fn plain(message: impl Into<String>) -> LabError {
        LabError { line: None, column: None, field: None, message: message.into() }
    }
    fn json(what: &str, error: &serde_json::Error) -> LabError {
        // serde_json's message ends with " at line L column C": keep the words, give the place apart
        let text = error.to_string();
        let words = text.split(" at line ").next().unwrap_or(&text).to_string();
        let message = match error.classify() {
            serde_json::error::Category::Eof => format!("{what} ends too early (is it complete?)"),
            serde_json::error::Category::Syntax => format!("{what} is not valid JSON: {words}"),
            _ => format!("{what} does not match the format: {words}"),
        };
        LabError { line: u32::try_from(error.line()).ok(), column: u32::try_from(error.column()).ok(), field: None, message }
    }
}

impl std::fmt::Display for LabError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.line, self.column, &self.field) {
            (Some(line), Some(column), _) if line > 0 => write!(f, "line {line}, column {column}: {}", self.message),
            (_, _, Some(field)) => write!(f, "{field}: {}", self.message),
            _ => f.write_str(&self.message),
        }
    }
}

/// The lab-link words for a share-link decoding error.
fn link_error(error: ShareError) -> LabError {
    LabError::plain(match error {
        ShareError::UnknownVersion => "This lab link was made by a newer or unknown version of predabs and cannot be opened.",
        ShareError::NotAShareLink => "This is not a predabs lab link (it should start with #lab=v1,).",
        ShareError::NotBase64 | ShareError::Truncated => {
            "This lab link is truncated or damaged; check that it was copied completely."
        }
        ShareError::Unreadable => "This lab link is damaged (its contents cannot be read).",
        ShareError::TooLong => "This lab link is too long to be a predabs lab link.",
    })
}

/// Hex of a SHA-256 over parts separated by NUL bytes.
fn sha256_hex(parts: &[&[u8]]) -> String {
    let mut hasher = Sha256::new();
    for part in parts {
        hasher.update(part);
        hasher.update([0u8]);
    }
    hasher.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// Seals an answer: the hash of the salt, the question and the normalised answer.
pub fn seal(salt: &str, question: &Question, answer: &str) -> Result<SealedAnswer, AnswerError> {
    let canonical = normalise(question, answer)?;
    let question = serde_json::to_string(question).unwrap_or_default();
    Ok(SealedAnswer(sha256_hex(&[salt.as_bytes(), question.as_bytes(), canonical.as_bytes()])))
}

// ---------------------------------------------------------------------------------------------
// Normalisation

/// A formula as a canonical tree.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Formula {
    Atom(String),
    Not(Box<Formula>),
    And(Vec<Formula>),
    Or(Vec<Formula>),
}

impl Formula {
    fn render(&self) -> String {
        match self {
            Formula::Atom(a) => a.clone(),
            Formula::Not(f) => format!("!({})", f.render()),
            Formula::And(fs) => format!("({})", fs.iter().map(Formula::render).collect::<Vec<_>>().join("&&")),
            Formula::Or(fs) => format!("({})", fs.iter().map(Formula::render).collect::<Vec<_>>().join("||")),
        }
    }
    fn not(f: Formula) -> Formula {
        match f {
            Formula::Not(inner) => *inner,
            Formula::Atom(a) if a == "true" => Formula::Atom("false".into()),
            Formula::Atom(a) if a == "false" => Formula::Atom("true".into()),
            other => Formula::Not(Box::new(other)),
        }
    }
    /// `&&` (`and`) or `||` of parts, flattened, sorted, without duplicates and units.
    fn join(and: bool, parts: Vec<Formula>) -> Formula {
        let (unit, zero) = if and { ("true", "false") } else { ("false", "true") };
        let mut flat = Vec::new();
        for part in parts {
            match part {
                Formula::And(inner) if and => flat.extend(inner),
                Formula::Or(inner) if !and => flat.extend(inner),
                Formula::Atom(a) if a == unit => {}
                Formula::Atom(a) if a == zero => return Formula::Atom(zero.into()),
                other => flat.push(other),
            }
        }
        flat.sort();
        flat.dedup();
        match flat.len() {
            0 => Formula::Atom(unit.into()),
            1 => flat.pop().unwrap_or(Formula::Atom(unit.into())),
            _ if and => Formula::And(flat),
            _ => Formula::Or(flat),
        }
    }
}

/// Whitespace dropped except a single space between two word characters (`unsigned int`).
fn squeeze(text: &str) -> String {
    let mut out = String::new();
    let mut pending_space = false;
    for c in text.chars() {
        if c.is_whitespace() {
            pending_space = true;
            continue;
        }
        let word = |c: char| c.is_alphanumeric() || c == '_' || c == '\'';
        if pending_space && out.chars().last().is_some_and(word) && word(c) {
            out.push(' ');
        }
        pending_space = false;
        out.push(c);
    }
    out
}

/// Splits at every top-level occurrence of `separator` (outside `()`, `{}`, `[]`).
fn split_top(text: &str, separator: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'(' | b'{' | b'[' => depth += 1,
            b')' | b'}' | b']' => depth -= 1,
            _ => {}
        }
        if depth == 0 && bytes[i..].starts_with(separator.as_bytes()) {
            parts.push(text[start..i].to_string());
            i += separator.len();
            start = i;
            continue;
        }
        i += 1;
    }
    parts.push(text[start..].to_string());
    parts
}

/// `inner` when `text` is `open inner close` with the two brackets matching each other.
fn strip_group(text: &str, open: u8, close: u8) -> Option<&str> {
    let bytes = text.as_bytes();
    if bytes.len() < 2 || bytes[0] != open || bytes[bytes.len() - 1] != close {
        return None;
    }
    let mut depth = 0i32;
    for (i, &b) in bytes.iter().enumerate() {
        if b == open {
            depth += 1;
        } else if b == close {
            depth -= 1;
            if depth == 0 && i != bytes.len() - 1 {
                return None;
            }
        }
    }
    (depth == 0).then(|| &text[1..text.len() - 1])
}

/// Parses a squeezed formula. Depth-limited: deeper nesting is an error, not a stack overflow.
fn parse_formula(text: &str, depth: u32) -> Result<Formula, AnswerError> {
    if depth > 64 {
        return Err(AnswerError("the formula is nested too deeply".into()));
    }
    if text.is_empty() {
        return Err(AnswerError("an operand of && or || is missing".into()));
    }
    let ors = split_top(text, "||");
    if ors.len() > 1 {
        return Ok(Formula::join(false, ors.iter().map(|p| parse_formula(p, depth + 1)).collect::<Result<_, _>>()?));
    }
    let ands = split_top(text, "&&");
    if ands.len() > 1 {
        return Ok(Formula::join(true, ands.iter().map(|p| parse_formula(p, depth + 1)).collect::<Result<_, _>>()?));
    }
    if let Some(inner) = strip_group(text, b'(', b')') {
        return parse_formula(inner, depth + 1);
    }
    if let Some(rest) = text.strip_prefix('!') {
        if !rest.starts_with('=') {
            return Ok(Formula::not(parse_formula(rest, depth + 1)?));
        }
    }
    if let Some(inner) = strip_group(text, b'{', b'}') {
        return parse_formula(inner, depth + 1);
    }
    // a negated comparison is the negation of its complement: `a != b` is `!(a == b)`
    for (operator, complement) in [("!=", "=="), ("<=", ">"), (">=", "<")] {
        let sides = split_top(text, operator);
        if sides.len() == 2 && !sides.iter().any(String::is_empty) {
            return Ok(Formula::not(Formula::Atom(format!("{}{complement}{}", sides[0], sides[1]))));
        }
    }
    let balanced = text.chars().fold(0i32, |d, c| match c {
        '(' | '{' | '[' => d + 1,
        ')' | '}' | ']' => d - 1,
        _ => d,
    });
    if balanced != 0 {
        return Err(AnswerError(format!("unbalanced brackets in `{text}`")));
    }
    Ok(Formula::Atom(match text {
        // Bebop prints the constants as 0 and 1
        "0" | "FALSE" => "false".to_string(),
        "1" | "TRUE" => "true".to_string(),
        _ => text.to_string(),
    }))
}

/// A formula's canonical text; an empty answer, `none` or `false` is `false`.
fn canonical_formula(answer: &str) -> Result<String, AnswerError> {
    let text = squeeze(answer);
    if text.is_empty() || text.eq_ignore_ascii_case("none") {
        return Ok("false".into());
    }
    Ok(parse_formula(&text, 0)?.render())
}

/// A set of predicates' canonical text: each predicate canonical, sorted, one a line.
fn canonical_predicates(answer: &str) -> Result<String, AnswerError> {
    let mut items = Vec::new();
    for line in answer.lines() {
        for part in split_top(line, ",").into_iter().flat_map(|p| split_top(&p, ";")) {
            let text = squeeze(&part);
            if text.is_empty() || text.eq_ignore_ascii_case("none") {
                continue;
            }
            items.push(parse_formula(&text, 0)?.render());
        }
    }
    items.sort();
    items.dedup();
    Ok(items.join("\n"))
}

/// The canonical form of an answer to `question` (what [`seal`] hashes).
pub fn normalise(question: &Question, answer: &str) -> Result<String, AnswerError> {
    if answer.len() > MAX_ANSWER {
        return Err(AnswerError("the answer is too long".into()));
    }
    let word = answer.trim().trim_end_matches('.').to_ascii_lowercase();
    match question {
        Question::ImplyingCubes { .. } | Question::InvariantAt { .. } => canonical_formula(answer),
        Question::NewPredicates { .. } => canonical_predicates(answer),
        Question::Feasibility { .. } => match word.as_str() {
            "feasible" | "yes" | "real" | "true" | "y" => Ok("feasible".into()),
            "infeasible" | "no" | "spurious" | "false" | "n" => Ok("infeasible".into()),
            _ => Err(AnswerError("answer feasible or infeasible".into())),
        },
        Question::Verdict => match word.as_str() {
            "safe" => Ok("SAFE".into()),
            "unsafe" => Ok("UNSAFE".into()),
            "unknown" => Ok("UNKNOWN".into()),
            _ => Err(AnswerError("answer SAFE, UNSAFE or UNKNOWN".into())),
        },
        Question::ReachIteration { .. } | Question::MakeSafe | Question::FreeText => Ok(answer.trim().to_string()),
    }
}

/// Checks an answer given in clear against the engine's answer in clear (the playground's
/// predict-then-reveal exercises, where nothing is sealed): both normalised as [`normalise`]
/// reads answers to `question`, `Right` when they agree. An unreadable `given` is
/// `Unreadable`; an unreadable `expected` (the engine's own text) is `Unreadable` too, naming it.
pub fn same_answer(question: &Question, given: &str, expected: &str) -> Mark {
    let given = match normalise(question, given) {
        Ok(g) => g,
        Err(e) => return Mark::Unreadable { message: e.0 },
    };
    match normalise(question, expected) {
        Ok(e) if e == given => Mark::Right,
        Ok(_) => Mark::Wrong,
        Err(e) => Mark::Unreadable { message: format!("the engine's answer cannot be read: {}", e.0) },
    }
}

/// The atoms of a formula (`!`, `&&`, `||`, braces of boolean variables and parentheses
/// dropped; `a != b` read as the atom `a == b`, `a <= b` as `a > b`, as [`normalise`] reads
/// them), each in its canonical text, without duplicates, in the order of the canonical tree;
/// `true` and `false` are not atoms. A formula that does not parse has none.
pub fn atoms(formula: &str) -> Vec<String> {
    fn collect(f: &Formula, out: &mut Vec<String>) {
        match f {
            Formula::Atom(a) if a == "true" || a == "false" => {}
            Formula::Atom(a) => {
                if !out.contains(a) {
                    out.push(a.clone());
                }
            }
            Formula::Not(inner) => collect(inner, out),
            Formula::And(fs) | Formula::Or(fs) => fs.iter().for_each(|g| collect(g, out)),
        }
    }
    let mut out = Vec::new();
    if let Ok(f) = parse_formula(&squeeze(formula), 0) {
        collect(&f, &mut out);
    }
    out
}

// ---------------------------------------------------------------------------------------------
// The engine's answers

/// What the student's (or teacher's) run showed: enough to check the goals.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct RunSummary {
    pub source: String,
    pub iterations: u32,
    pub verdict: Option<Verdict>,
}

impl RunSummary {
    pub fn new(source: &str, outcome: &Outcome) -> RunSummary {
        RunSummary {
            source: source.to_string(),
            iterations: u32::try_from(outcome.iterations.len()).unwrap_or(u32::MAX),
            verdict: (!outcome.cancelled).then_some(outcome.verdict),
        }
    }
}

fn cubes_answer(lattice: &LatticeData) -> String {
    if lattice.goal_result.trim().is_empty() {
        "false".into()
    } else {
        lattice.goal_result.clone()
    }
}

/// The engine's answer to `question` in `outcome`, as the tool prints it: `Ok(None)` for goals
/// and free text, `Err` when the outcome does not contain what the question names.
pub fn engine_answer(question: &Question, outcome: &Outcome) -> Result<Option<String>, String> {
    let iteration = |n: u32| {
        outcome.iterations.get((n as usize).wrapping_sub(1)).ok_or_else(|| {
            format!("the run has {} iteration(s), the question names iteration {n}", outcome.iterations.len())
        })
    };
    match question {
        Question::ImplyingCubes { iteration: n, statement, predicate, negated } => {
            let it = iteration(*n)?;
            let explanation = it.explanation.as_ref().ok_or("the run recorded no explanations (turn them on in Settings)")?;
            let wanted = squeeze(statement);
            let explained = explanation
                .statements
                .iter()
                .filter(|s| squeeze(&s.c_statement) == wanted)
                .flat_map(|s| &s.predicates)
                .find(|p| squeeze(&p.predicate) == squeeze(predicate))
                .ok_or_else(|| format!("iteration {n} explains no predicate {predicate} at `{statement}`"))?;
            let lattice = &explained.positive;
            Ok(Some(if *negated {
                if lattice.negated_goal_result.trim().is_empty() { "false".into() } else { lattice.negated_goal_result.clone() }
            } else {
                cubes_answer(lattice)
            }))
        }
        Question::Feasibility { iteration: n } => match iteration(*n)?.feasibility_kind {
            FeasibilityKind::Feasible => Ok(Some("feasible".into())),
            FeasibilityKind::Infeasible => Ok(Some("infeasible".into())),
            FeasibilityKind::None | FeasibilityKind::Unknown => {
                Err(format!("iteration {n} has no abstract counterexample whose feasibility was decided"))
            }
        },
        Question::NewPredicates { iteration: n } => Ok(Some(iteration(*n)?.new_predicates.join("\n"))),
        Question::InvariantAt { procedure, location } => outcome
            .invariants
            .iter()
            .find(|i| i.procedure == *procedure && i.location == *location)
            .map(|i| Some(i.formula.clone()))
            .ok_or_else(|| format!("the run shows no invariant {location} in {procedure}")),
        Question::Verdict => Ok(Some(outcome.verdict.as_str().to_string())),
        Question::ReachIteration { .. } | Question::MakeSafe | Question::FreeText => Ok(None),
    }
}

// ---------------------------------------------------------------------------------------------
// Checking

/// The result of checking one answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "mark", rename_all = "snake_case")]
pub enum Mark {
    Right,
    Wrong,
    /// Free text: kept, not checked.
    Recorded,
    /// A goal the run has not reached yet.
    NotYet,
    /// The answer could not be read (the message says how to write it).
    Unreadable { message: String },
}

impl Mark {
    pub fn is_right(&self) -> bool {
        matches!(self, Mark::Right)
    }
    /// `Some(true)` right, `Some(false)` wrong, `None` not checked.
    pub fn right(&self) -> Option<bool> {
        match self {
            Mark::Right => Some(true),
            Mark::Wrong | Mark::NotYet => Some(false),
            Mark::Recorded | Mark::Unreadable { .. } => None,
        }
    }
}

impl Task {
    /// The hint after `wrong` wrong answers (the first after one, the last one after more).
    pub fn hint_after(&self, wrong: u32) -> Option<&str> {
        if wrong == 0 {
            return None;
        }
        let index = (wrong as usize - 1).min(self.hints.len().checked_sub(1)?);
        self.hints.get(index).map(String::as_str)
    }
}

/// Whitespace-insensitive program text (a fix must change more than spacing).
fn program_words(source: &str) -> String {
    squeeze(source)
}

impl Lab {
    /// Checks an answer to task `index` (goals look at `run`, the student's last run).
    pub fn check(&self, index: usize, answer: &str, run: Option<&RunSummary>) -> Mark {
        let Some(task) = self.tasks.get(index) else {
            return Mark::Unreadable { message: format!("this lab has no task {}", index + 1) };
        };
        match &task.question {
            Question::FreeText => {
                if answer.trim().is_empty() {
                    Mark::Unreadable { message: "write an answer first".into() }
                } else {
                    Mark::Recorded
                }
            }
            Question::ReachIteration { iteration } => match run {
                Some(run) if run.iterations >= *iteration => Mark::Right,
                _ => Mark::NotYet,
            },
            Question::MakeSafe => match run {
                Some(run) if run.verdict == Some(Verdict::Safe) && program_words(&run.source) != program_words(&self.source) => {
                    Mark::Right
                }
                _ => Mark::NotYet,
            },
            question => {
                let Some(expected) = &task.answer else {
                    return Mark::Unreadable { message: "this task has no expected answer".into() };
                };
                match seal(&self.salt, question, answer) {
                    Ok(sealed) if sealed == *expected => Mark::Right,
                    Ok(_) => Mark::Wrong,
                    Err(e) => Mark::Unreadable { message: e.0 },
                }
            }
        }
    }

    /// A short digest identifying this exact lab (submissions name it).
    pub fn digest(&self) -> String {
        let json = serde_json::to_vec(self).unwrap_or_default();
        sha256_hex(&[&json]).chars().take(16).collect()
    }

    pub fn key(&self) -> LabKey {
        LabKey { id: self.id.clone(), digest: self.digest() }
    }

    /// Sets the locked parts of `request` back to the lab's.
    pub fn enforce(&self, request: &mut Request) {
        for lock in &self.locked {
            match lock {
                Lockable::Mode => request.mode = self.mode,
                Lockable::Program => request.source = self.source.clone(),
                Lockable::Predicates => request.predicates = self.predicates.clone(),
                Lockable::Techniques => request.options.techniques = self.options.techniques.clone(),
                Lockable::Refinement => request.options.refine = self.options.refine,
                Lockable::Strategy => request.options.strategy = self.options.strategy,
                Lockable::Integers => request.options.integers = self.options.integers,
                Lockable::IterationBound => request.options.max_iterations = self.options.max_iterations,
            }
        }
    }

    /// The request that opens the lab.
    pub fn request(&self) -> Request {
        Request {
            mode: self.mode,
            source: self.source.clone(),
            file_name: "input.c".into(),
            predicates: self.predicates.clone(),
            options: self.options.clone(),
        }
    }

    /// The link fragment (without `#`): `lab=v1,...`.
    pub fn to_link(&self) -> String {
        format!("{LINK_PREFIX}{}", share::encode(self))
    }

    /// The lab file (pretty JSON).
    pub fn to_file(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Whether a fragment (with or without `#`) is a lab link.
    pub fn is_link(fragment: &str) -> bool {
        fragment.strip_prefix('#').unwrap_or(fragment).starts_with(LINK_PREFIX)
    }

    /// Reads and validates a lab link fragment (with or without `#`).
    pub fn from_link(fragment: &str) -> Result<Lab, LabError> {
        let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
        let Some(payload) = fragment.strip_prefix(LINK_PREFIX) else {
            return Err(link_error(ShareError::NotAShareLink));
        };
        let bytes = share::decode_bytes(payload).map_err(link_error)?.ok_or_else(|| link_error(ShareError::NotAShareLink))?;
        let lab: Lab = serde_json::from_slice(&bytes).map_err(|e| {
            // a link's JSON is one long line: name the problem, not its column
            let LabError { message, .. } = LabError::json("The lab link", &e);
            LabError::plain(message)
        })?;
        lab.validate()?;
        Ok(lab)
    }

    /// Reads and validates a lab file.
    pub fn from_file(text: &str) -> Result<Lab, LabError> {
        if text.len() > share::MAX_JSON_BYTES {
            return Err(LabError::plain("The lab file is too large (more than 4 MiB)."));
        }
        check_version(text, "lab file")?;
        let lab: Lab = serde_json::from_str(text).map_err(|e| LabError::json("The lab file", &e))?;
        lab.validate()?;
        Ok(lab)
    }

    /// Every field within its limits; the first problem, named by its field.
    pub fn validate(&self) -> Result<(), LabError> {
        if self.version != VERSION {
            return Err(LabError::field("version", format!("this lab is version {}; this predabs reads version {VERSION}", self.version)));
        }
        if self.id.is_empty() || self.id.len() > 64 || !self.id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-') {
            return Err(LabError::field("id", "use 1 to 64 lowercase letters, digits and -"));
        }
        text_field("title", &self.title, MAX_TEXT)?;
        if self.title.trim().is_empty() {
            return Err(LabError::field("title", "the lab needs a title"));
        }
        text_field("introduction", &self.introduction, MAX_TEXT)?;
        text_field("source", &self.source, MAX_SOURCE)?;
        text_field("predicates", &self.predicates, MAX_SOURCE)?;
        if self.salt.len() < 8 || self.salt.len() > 64 {
            return Err(LabError::field("salt", "the salt has 8 to 64 characters"));
        }
        validate_options(&self.options)?;
        let mut seen = Vec::new();
        for lock in &self.locked {
            if seen.contains(lock) {
                return Err(LabError::field("locked", format!("{} is locked twice", lock.label())));
            }
            seen.push(*lock);
        }
        if self.tasks.is_empty() {
            return Err(LabError::field("tasks", "the lab has no tasks"));
        }
        if self.tasks.len() > MAX_TASKS {
            return Err(LabError::field("tasks", format!("at most {MAX_TASKS} tasks")));
        }
        for (i, task) in self.tasks.iter().enumerate() {
            let at = |f: &str| format!("tasks[{i}].{f}");
            text_field(&at("prompt"), &task.prompt, MAX_TEXT)?;
            if task.prompt.trim().is_empty() {
                return Err(LabError::field(at("prompt"), "the task has no prompt"));
            }
            if task.hints.len() > MAX_HINTS {
                return Err(LabError::field(at("hints"), format!("at most {MAX_HINTS} hints")));
            }
            for (h, hint) in task.hints.iter().enumerate() {
                text_field(&at(&format!("hints[{h}]")), hint, MAX_TEXT)?;
            }
            if let Some(n) = task.question.iteration() {
                if n == 0 || n > MAX_ITERATION {
                    return Err(LabError::field(at("question.iteration"), format!("iterations count from 1 to {MAX_ITERATION}")));
                }
            }
            match &task.question {
                Question::ImplyingCubes { statement, predicate, .. } => {
                    text_field(&at("question.statement"), statement, MAX_TEXT)?;
                    text_field(&at("question.predicate"), predicate, MAX_TEXT)?;
                }
                Question::InvariantAt { procedure, location } => {
                    text_field(&at("question.procedure"), procedure, MAX_TEXT)?;
                    text_field(&at("question.location"), location, MAX_TEXT)?;
                }
                _ => {}
            }
            match (&task.answer, task.question.has_answer()) {
                (None, true) => return Err(LabError::field(at("answer"), "this question needs its sealed answer")),
                (Some(_), false) => return Err(LabError::field(at("answer"), "goals and free-text prompts have no answer")),
                (Some(SealedAnswer(hash)), true) if hash.len() != 64 || !hash.chars().all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase()) => {
                    return Err(LabError::field(at("answer"), "a sealed answer is 64 lowercase hex digits"));
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Re-checks a submission against this lab (never trusting its own marks).
    pub fn review(&self, submission: &Submission) -> Result<Review, LabError> {
        if submission.lab.id != self.id {
            return Err(LabError::field("lab.id", format!("this submission is for the lab `{}`, not `{}`", submission.lab.id, self.id)));
        }
        let same_version = submission.lab.digest == self.digest();
        let mut rows = Vec::new();
        for (index, task) in self.tasks.iter().enumerate() {
            let given = submission.answers.iter().find(|a| a.task as usize == index);
            let answer = given.map(|a| a.answer.clone()).unwrap_or_default();
            let claimed = given.and_then(|a| a.right);
            let mark = match (&task.question, given) {
                (_, None) => Mark::NotYet,
                // a goal was met in the student's run; the file can only say so
                (q, Some(_)) if q.is_goal() => {
                    if claimed == Some(true) { Mark::Right } else { Mark::NotYet }
                }
                (_, Some(_)) => self.check(index, &answer, None),
            };
            rows.push(ReviewRow {
                task: index as u32,
                prompt: task.prompt.clone(),
                answer,
                attempts: given.map(|a| a.attempts).unwrap_or(0),
                claimed,
                agrees: match &mark {
                    Mark::Right | Mark::Wrong => task.question.is_goal() || claimed == mark.right(),
                    _ => true,
                },
                goal: task.question.is_goal(),
                mark,
            });
        }
        let right = rows.iter().filter(|r| r.mark.is_right()).count() as u32;
        let checked = self.tasks.iter().filter(|t| t.question.has_answer() || t.question.is_goal()).count() as u32;
        Ok(Review { same_version, rows, right, checked })
    }
}

fn text_field(name: &str, value: &str, max: usize) -> Result<(), LabError> {
    if value.len() > max {
        return Err(LabError::field(name, format!("longer than {max} bytes")));
    }
    if value.chars().any(|c| c.is_control() && c != '\n' && c != '\t' && c != '\r') {
        return Err(LabError::field(name, "contains control characters"));
    }
    Ok(())
}

fn validate_options(options: &Options) -> Result<(), LabError> {
    if ![0, 8, 16, 32, 64].contains(&options.int_width) {
        return Err(LabError::field("options.int_width", "0 (C's widths), 8, 16, 32 or 64"));
    }
    if !options.data_model.eq_ignore_ascii_case("LP64") && !options.data_model.eq_ignore_ascii_case("ILP32") {
        return Err(LabError::field("options.data_model", "LP64 or ILP32"));
    }
    if options.max_iterations == 0 || options.max_iterations > MAX_ITERATION {
        return Err(LabError::field("options.max_iterations", format!("1 to {MAX_ITERATION}")));
    }
    if options.techniques.is_empty() {
        return Err(LabError::field("options.techniques", "at least one technique"));
    }
    for (name, value) in [("options.entry", &options.entry), ("options.error_label", &options.error_label)] {
        text_field(name, value, 256)?;
    }
    Ok(())
}

/// Refuses another version before serde complains about its fields.
fn check_version(text: &str, what: &str) -> Result<(), LabError> {
    #[derive(Deserialize)]
    struct Versioned {
        version: Option<u32>,
    }
    if let Ok(Versioned { version: Some(v) }) = serde_json::from_str::<Versioned>(text) {
        if v != VERSION {
            return Err(LabError::field("version", format!("this {what} is version {v}; this predabs reads version {VERSION}")));
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Authoring

/// A task as the teacher writes it: with its answer in clear.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct TaskDraft {
    pub prompt: String,
    pub question: Question,
    pub answer: String,
    pub hints: Vec<String>,
}

impl Default for TaskDraft {
    fn default() -> TaskDraft {
        TaskDraft { prompt: String::new(), question: Question::FreeText, answer: String::new(), hints: Vec::new() }
    }
}

/// Everything but the tasks, as the teacher sets it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct LabDraft {
    pub id: String,
    pub title: String,
    pub introduction: String,
    pub request: Request,
    pub locked: Vec<Lockable>,
    pub salt: String,
    pub tasks: Vec<TaskDraft>,
}

impl LabDraft {
    /// Seals the answers and validates the lab.
    pub fn seal(&self) -> Result<Lab, LabError> {
        let mut tasks = Vec::new();
        for (i, draft) in self.tasks.iter().enumerate() {
            let answer = if draft.question.has_answer() {
                Some(seal(&self.salt, &draft.question, &draft.answer).map_err(|e| LabError::field(format!("tasks[{i}].answer"), e.0))?)
            } else {
                None
            };
            tasks.push(Task { prompt: draft.prompt.clone(), question: draft.question.clone(), answer, hints: draft.hints.clone() });
        }
        let lab = Lab {
            version: VERSION,
            id: self.id.clone(),
            title: self.title.clone(),
            introduction: self.introduction.clone(),
            mode: self.request.mode,
            source: self.request.source.clone(),
            predicates: self.request.predicates.clone(),
            options: self.request.options.clone(),
            locked: self.locked.clone(),
            salt: self.salt.clone(),
            tasks,
        };
        lab.validate()?;
        Ok(lab)
    }

    /// Fills every answer the engine can give from `outcome` (the lab's own run); the tasks whose
    /// question the run cannot answer are listed with the reason.
    pub fn fill_answers(&mut self, outcome: &Outcome) -> Vec<(usize, String)> {
        let mut missing = Vec::new();
        for (i, task) in self.tasks.iter_mut().enumerate() {
            match engine_answer(&task.question, outcome) {
                Ok(Some(answer)) => task.answer = answer,
                Ok(None) => {}
                Err(reason) => missing.push((i, reason)),
            }
        }
        missing
    }
}

/// A salt from a seed (the UI passes time and randomness; tests a constant).
pub fn salt_from(seed: &[u8]) -> String {
    sha256_hex(&[seed]).chars().take(16).collect()
}

// ---------------------------------------------------------------------------------------------
// Progress and submissions

/// Which lab a progress record or submission belongs to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct LabKey {
    pub id: String,
    /// [`Lab::digest`]: another version of the lab with the same id has another digest.
    pub digest: String,
}

/// A student's answer to one task.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
pub struct SubmittedAnswer {
    /// 0-based task index.
    pub task: u32,
    pub answer: String,
    /// Whether the student's check said right (`None`: free text, or not checked).
    pub right: Option<bool>,
    pub attempts: u32,
    /// When the last answer was given (ISO 8601, optional).
    pub at: Option<String>,
}

/// The student's progress (kept in local storage) and, exported, the submission file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Submission {
    pub kind: String,
    pub version: u32,
    pub lab: LabKey,
    #[serde(default)]
    pub title: String,
    #[serde(default)]
    pub student: String,
    #[serde(default)]
    pub answers: Vec<SubmittedAnswer>,
}

impl Submission {
    /// An empty record for `lab`.
    pub fn start(lab: &Lab) -> Submission {
        Submission { kind: SUBMISSION_KIND.into(), version: VERSION, lab: lab.key(), title: lab.title.clone(), student: String::new(), answers: Vec::new() }
    }

    /// Records an answer and its mark; returns the mark (wrong answers count their attempts).
    pub fn answer(&mut self, lab: &Lab, task: usize, answer: &str, run: Option<&RunSummary>, at: Option<String>) -> Mark {
        let mark = lab.check(task, answer, run);
        if matches!(mark, Mark::Unreadable { .. }) {
            return mark;
        }
        let index = match self.answers.iter().position(|a| a.task as usize == task) {
            Some(i) => i,
            None => {
                self.answers.push(SubmittedAnswer { task: task as u32, ..SubmittedAnswer::default() });
                self.answers.len() - 1
            }
        };
        let entry = &mut self.answers[index];
        if entry.right != Some(true) || mark.is_right() {
            entry.answer = answer.to_string();
            entry.right = mark.right();
        }
        entry.attempts = entry.attempts.saturating_add(1);
        entry.at = at;
        mark
    }

    /// Wrong answers so far to `task` (what [`Task::hint_after`] takes).
    pub fn wrong(&self, task: usize) -> u32 {
        self.answers
            .iter()
            .find(|a| a.task as usize == task)
            .map(|a| if a.right == Some(true) { a.attempts.saturating_sub(1) } else { a.attempts })
            .unwrap_or(0)
    }

    pub fn get(&self, task: usize) -> Option<&SubmittedAnswer> {
        self.answers.iter().find(|a| a.task as usize == task)
    }

    pub fn to_file(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Reads and validates a submission file.
    pub fn from_file(text: &str) -> Result<Submission, LabError> {
        if text.len() > share::MAX_JSON_BYTES {
            return Err(LabError::plain("The submission file is too large (more than 4 MiB)."));
        }
        check_version(text, "submission")?;
        let submission: Submission = serde_json::from_str(text).map_err(|e| LabError::json("The submission file", &e))?;
        if submission.kind != SUBMISSION_KIND {
            return Err(LabError::field("kind", format!("this is not a predabs lab submission (kind should be {SUBMISSION_KIND})")));
        }
        if submission.answers.len() > MAX_TASKS {
            return Err(LabError::field("answers", format!("at most {MAX_TASKS} answers")));
        }
        for (i, a) in submission.answers.iter().enumerate() {
            if a.task as usize >= MAX_TASKS {
                return Err(LabError::field(format!("answers[{i}].task"), "no such task"));
            }
            text_field(&format!("answers[{i}].answer"), &a.answer, MAX_ANSWER)?;
        }
        text_field("student", &submission.student, 256)?;
        Ok(submission)
    }
}

/// One task of a reviewed submission.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReviewRow {
    pub task: u32,
    pub prompt: String,
    pub answer: String,
    pub attempts: u32,
    /// What the submission says.
    pub claimed: Option<bool>,
    /// The teacher's check.
    pub mark: Mark,
    /// Whether the claim and the check agree (a disagreeing row was edited or checked against
    /// another version of the lab).
    pub agrees: bool,
    /// A goal: the mark is the student's claim (the teacher's check cannot re-run the program).
    pub goal: bool,
}

/// A submission checked against its lab.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Review {
    /// The submission names this exact lab (not another version with the same id).
    pub same_version: bool,
    pub rows: Vec<ReviewRow>,
    pub right: u32,
    /// Tasks with a right answer (free text excluded).
    pub checked: u32,
}

// ---------------------------------------------------------------------------------------------
// The gallery's labs

/// The labs shipped in the gallery: sealed files, generated from [`gallery_drafts`] with the
/// answers the engine gives (`tests/it/lab.rs` checks that they still agree with the engine).
pub const GALLERY: &[(&str, &str)] = &[
    ("c2bp-partition", include_str!("../../../tests/labs/c2bp-partition.lab.json")),
    ("boop-testdev", include_str!("../../../tests/labs/boop-testdev.lab.json")),
];

/// A gallery lab by id.
pub fn gallery_lab(id: &str) -> Option<Result<Lab, LabError>> {
    GALLERY.iter().find(|(i, _)| *i == id).map(|(_, text)| Lab::from_file(text))
}

fn draft(prompt: &str, question: Question, hints: &[&str]) -> TaskDraft {
    TaskDraft { prompt: prompt.into(), question, answer: String::new(), hints: hints.iter().map(|h| h.to_string()).collect() }
}

/// The gallery labs' drafts, without answers: [`LabDraft::fill_answers`] takes them from a run.
/// For testdev the last task's fix is BOOP's (`tests/programs/testdev_fixed.c`).
pub fn gallery_drafts() -> Vec<LabDraft> {
    use crate::examples;
    use crate::types::{Strategy, Technique};
    let partition = examples::by_id("partition").map(|e| (e.source, e.predicates)).unwrap_or_default();
    let mut partition_request = Request {
        mode: Mode::Abstract,
        source: partition.0.into(),
        file_name: "partition.c".into(),
        predicates: partition.1.into(),
        options: Options::default(),
    };
    partition_request.options.strategy = Strategy::Lattice;
    let cubes = |statement: &str, predicate: &str, negated: bool| Question::ImplyingCubes {
        iteration: 1,
        statement: statement.into(),
        predicate: predicate.into(),
        negated,
    };
    let partition_lab = LabDraft {
        id: "c2bp-partition".into(),
        title: "C2BP: abstracting partition".into(),
        introduction: "C2BP's running example (Fig. 1): list partition abstracted with four predicates. \
Run it in Abstract mode (Ctrl+Enter), then answer each question before you open the explain views. \
Write boolean variables as the tool prints them, e.g. {curr == NULL}; negation is !, conjunction &&, disjunction ||."
            .into(),
        request: partition_request,
        locked: vec![Lockable::Mode, Lockable::Program, Lockable::Predicates, Lockable::Strategy],
        salt: salt_from(b"c2bp-partition lab, version 1"),
        tasks: vec![
            draft(
                "The statement prev = curr; assigns {prev == NULL}. Its weakest precondition is curr == NULL. Which cubes over the predicates imply it? Give their disjunction F(WP).",
                cubes("prev = curr;", "{prev == NULL}", false),
                &["Only the predicates in the cone of influence of curr == NULL matter: which predicate mentions curr alone?", "The smallest implying cube is a single predicate: {curr == NULL} implies curr == NULL."],
            ),
            draft(
                "Same statement: which cubes imply the negation of the weakest precondition, curr != NULL?",
                cubes("prev = curr;", "{prev == NULL}", true),
                &["Negate the cube of the previous answer.", "Write the negation of a boolean variable with !, e.g. !{curr == NULL}."],
            ),
            draft(
                "The statement curr = nextCurr; assigns {curr == NULL}. Which cubes imply its weakest precondition nextCurr == NULL? (Answer false if none does.)",
                cubes("curr = nextCurr;", "{curr == NULL}", false),
                &["Is any predicate about nextCurr?", "No predicate mentions nextCurr, so no cube implies nextCurr == NULL: the new value is unknown (*)."],
            ),
            draft(
                "Predict the invariant at label L in partition: the reachable states of the boolean program there, as a formula over the predicates.",
                Question::InvariantAt { procedure: "partition".into(), location: "at L".into() },
                &["L is inside the loop (so curr != NULL) and in the branch curr->val > v.", "What does the loop know about prev: either it is NULL or its value is at most v."],
            ),
            draft(
                "C2BP §6: does the boolean program show that the code between the loop head and L keeps the invariant? What does this say about the C program?",
                Question::FreeText,
                &[],
            ),
        ],
    };

    let testdev = examples::by_id("testdev").map(|e| e.source).unwrap_or_default();
    let mut testdev_request = Request { mode: Mode::Check, source: testdev.into(), file_name: "testdev.c".into(), predicates: String::new(), options: Options::default() };
    testdev_request.options.techniques = vec![Technique::Cegar];
    let testdev_lab = LabDraft {
        id: "boop-testdev".into(),
        title: "BOOP: three iterations to the testdev bug".into(),
        introduction: "BOOP ch. 3 and 7: a Linux driver whose use count is incremented even when open fails. \
The lab runs the textbook CEGAR loop alone (techniques: CEGAR only, refinement wp). \
Predict each step before you look at it; use Step or click the iterations in the timeline."
            .into(),
        request: testdev_request,
        locked: vec![Lockable::Mode, Lockable::Techniques, Lockable::Refinement],
        salt: salt_from(b"boop-testdev lab, version 1"),
        tasks: vec![
            draft(
                "Iteration 1 knows only the predicate of the error condition (usecount == 0). Is its abstract counterexample feasible?",
                Question::Feasibility { iteration: 1 },
                &["With one predicate, every branch on locked or on the return value is a nondeterministic choice in the boolean program.", "Read the feasibility table of iteration 1: a condition becomes false along the path."],
            ),
            draft(
                "Iteration 2's counterexample is infeasible too. Which predicate does its refinement add? (Write it as a C expression.)",
                Question::NewPredicates { iteration: 2 },
                &["The path opens the device twice; the second open succeeds only if the lock was free.", "It is the condition on the lock, written as the tool prints it: a comparison with 0."],
            ),
            draft("Run the loop until iteration 3 is shown.", Question::ReachIteration { iteration: 3 }, &["Press Run (Ctrl+Enter) or Step until the timeline shows iteration 3."]),
            draft(
                "Is iteration 3's abstract counterexample feasible?",
                Question::Feasibility { iteration: 3 },
                &["Does the feasibility check of iteration 3 find a contradiction?", "Look at the verdict and the concrete trace."],
            ),
            draft(
                "What is the verdict of the run?",
                Question::Verdict,
                &["A feasible abstract counterexample is a real error trace."],
            ),
            draft(
                "Fix the driver: change testdev_open so that a failed open does not leave the use count incremented, and run until the verdict is SAFE.",
                Question::MakeSafe,
                &["BOOP's fix moves MOD_INC_USE_COUNT after locked = TRUE.", "Only a successful open (the one that sets locked) may increment usecount."],
            ),
            draft("In one or two sentences: why did the first two counterexamples fail, and what did the loop learn?", Question::FreeText, &[]),
        ],
    };
    vec![partition_lab, testdev_lab]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canon(q: &Question, a: &str) -> String {
        normalise(q, a).unwrap_or_else(|e| format!("error: {e}"))
    }

    #[test]
    fn formulas_compare_as_canonical_trees() {
        let q = Question::InvariantAt { procedure: "p".into(), location: "at L".into() };
        let tool = "!{curr == NULL} && {curr->val > v} && (!{prev->val > v} || {prev == NULL})";
        for student in [
            "{curr->val>v} && ({prev==NULL} || !{prev->val > v}) && {curr != NULL}",
            "curr != NULL && curr->val > v && (prev == NULL || !(prev->val > v))",
            "{curr != NULL} && {curr->val > v} && ({prev->val <= v} || {prev == NULL})",
            "(({curr!=NULL}) && {curr->val > v}) && (!{prev->val > v} || {prev == NULL})",
            "!!{curr != NULL} && {curr->val > v} && (!{prev->val > v} || {prev == NULL}) && true",
        ] {
            assert_eq!(canon(&q, student), canon(&q, tool), "{student}");
        }
        assert_ne!(canon(&q, "{curr == NULL} && {curr->val > v}"), canon(&q, tool));
        assert_ne!(canon(&q, "{curr->val > v} || {curr != NULL}"), canon(&q, "{curr->val > v} && {curr != NULL}"));
        assert_eq!(canon(&q, "none"), "false");
        assert_eq!(canon(&q, "  "), "false");
        assert_eq!(canon(&q, "0"), "false", "Bebop's constant");
        assert_eq!(canon(&q, "{a} && 1"), "{a}".trim_matches(|c| c == '{' || c == '}'));
        assert!(canon(&q, "{a && (b").starts_with("error"));
        assert!(canon(&q, "a &&").starts_with("error"));
        assert_eq!(canon(&q, "y && x == é"), "(x==é&&y)", "multi-byte text splits at its operators");
        // word tokens keep their space; symbols lose it
        assert_eq!(canon(&q, "(unsigned  int) x == 1"), "(unsigned int)x==1");
        // deep nesting is an error, not a stack overflow
        let deep = format!("{}x{}", "(".repeat(10_000), ")".repeat(10_000));
        assert!(canon(&q, &deep).contains("too deeply"));
    }

    #[test]
    fn predicate_sets_ignore_order_spacing_and_duplicates() {
        let q = Question::NewPredicates { iteration: 2 };
        assert_eq!(canon(&q, "locked == 0"), canon(&q, " locked==0 \n"));
        assert_eq!(canon(&q, "a == 1, b == 2"), canon(&q, "b==2\na==1; a == 1"));
        assert_ne!(canon(&q, "a == 1"), canon(&q, "a == 1, b == 2"));
        assert_eq!(canon(&q, "none"), "");
        assert_eq!(canon(&q, "f(a, b) == 0"), "f(a,b)==0", "commas inside calls do not split");
    }

    #[test]
    fn words_have_several_spellings() {
        let f = Question::Feasibility { iteration: 1 };
        assert_eq!(canon(&f, "No"), "infeasible");
        assert_eq!(canon(&f, " spurious. "), "infeasible");
        assert_eq!(canon(&f, "Feasible"), "feasible");
        assert!(canon(&f, "maybe").starts_with("error"));
        assert_eq!(canon(&Question::Verdict, "unsafe"), "UNSAFE");
    }

    fn sample() -> Lab {
        let mut draft = LabDraft {
            id: "sample".into(),
            title: "A <b>sample</b>".into(),
            request: Request { source: "int main(void) { return 0; }".into(), ..Request::default() },
            locked: vec![Lockable::Techniques],
            salt: salt_from(b"test"),
            ..LabDraft::default()
        };
        draft.tasks = vec![
            TaskDraft { prompt: "feasible?".into(), question: Question::Feasibility { iteration: 1 }, answer: "infeasible".into(), hints: vec!["h1".into(), "h2".into()] },
            TaskDraft { prompt: "new?".into(), question: Question::NewPredicates { iteration: 2 }, answer: "locked == 0".into(), hints: vec![] },
            TaskDraft { prompt: "go".into(), question: Question::ReachIteration { iteration: 3 }, ..TaskDraft::default() },
            TaskDraft { prompt: "fix".into(), question: Question::MakeSafe, ..TaskDraft::default() },
            TaskDraft { prompt: "why?".into(), question: Question::FreeText, ..TaskDraft::default() },
        ];
        draft.seal().expect("a valid lab")
    }

    #[test]
    fn links_and_files_round_trip_and_hide_the_answers() {
        let lab = sample();
        let link = lab.to_link();
        assert!(Lab::is_link(&format!("#{link}")));
        assert_eq!(Lab::from_link(&format!("#{link}")), Ok(lab.clone()));
        assert_eq!(Lab::from_file(&lab.to_file()), Ok(lab.clone()));
        let file = lab.to_file();
        assert!(!file.contains("locked == 0") && !file.contains("\"infeasible\""), "{file}");
        // the same answer to the same question in another lab has another hash
        let q = Question::Feasibility { iteration: 1 };
        assert_ne!(seal("salt-one", &q, "no"), seal("salt-two", &q, "no"));
    }

    #[test]
    fn answers_are_checked_with_hints_after_wrong_ones() {
        let lab = sample();
        assert_eq!(lab.check(0, "no", None), Mark::Right);
        assert_eq!(lab.check(0, "feasible", None), Mark::Wrong);
        assert!(matches!(lab.check(0, "perhaps", None), Mark::Unreadable { .. }));
        assert_eq!(lab.check(1, "locked==0", None), Mark::Right);
        assert_eq!(lab.check(1, "locked == 1", None), Mark::Wrong);
        assert!(matches!(lab.check(9, "x", None), Mark::Unreadable { .. }));
        assert_eq!(lab.tasks[0].hint_after(0), None);
        assert_eq!(lab.tasks[0].hint_after(1), Some("h1"));
        assert_eq!(lab.tasks[0].hint_after(7), Some("h2"));
        assert_eq!(lab.tasks[1].hint_after(3), None);
        // goals look at the run
        let run = |iterations, verdict, source: &str| RunSummary { source: source.into(), iterations, verdict: Some(verdict) };
        assert_eq!(lab.check(2, "", Some(&run(2, Verdict::Unknown, &lab.source))), Mark::NotYet);
        assert_eq!(lab.check(2, "", Some(&run(3, Verdict::Unsafe, &lab.source))), Mark::Right);
        assert_eq!(lab.check(3, "", Some(&run(1, Verdict::Safe, "int  main(void)  { return 0; }"))), Mark::NotYet, "spacing is no fix");
        assert_eq!(lab.check(3, "", Some(&run(1, Verdict::Safe, "int main(void) { return 1; }"))), Mark::Right);
        assert_eq!(lab.check(4, "because", None), Mark::Recorded);
    }

    #[test]
    fn locked_settings_are_enforced() {
        let lab = sample();
        let mut request = lab.request();
        request.options.techniques = vec![crate::types::Technique::Bmc];
        request.options.refine = crate::types::RefineMethod::Sp;
        lab.enforce(&mut request);
        assert_eq!(request.options.techniques, lab.options.techniques, "techniques are locked");
        assert_eq!(request.options.refine, crate::types::RefineMethod::Sp, "refinement is not");
    }

    #[test]
    fn submissions_record_progress_and_are_reviewed() {
        let lab = sample();
        let mut s = Submission::start(&lab);
        assert_eq!(s.answer(&lab, 0, "feasible", None, None), Mark::Wrong);
        assert_eq!(s.wrong(0), 1);
        assert_eq!(lab.tasks[0].hint_after(s.wrong(0)), Some("h1"));
        assert_eq!(s.answer(&lab, 0, "infeasible", None, Some("2026-11-27T10:00:00Z".into())), Mark::Right);
        assert_eq!(s.answer(&lab, 0, "feasible", None, None), Mark::Wrong, "a later wrong answer is marked");
        assert_eq!(s.get(0).map(|a| (a.answer.as_str(), a.right)), Some(("infeasible", Some(true))), "but keeps the right one");
        assert!(matches!(s.answer(&lab, 0, "???", None, None), Mark::Unreadable { .. }));
        s.answer(&lab, 1, "locked == 1", None, None);
        s.answer(&lab, 4, "the lock", None, None);
        let file = s.to_file();
        let back = Submission::from_file(&file).expect("reads back");
        let review = lab.review(&back).expect("same lab");
        assert!(review.same_version);
        assert_eq!(review.right, 1);
        assert_eq!(review.checked, 4);
        assert_eq!(review.rows[1].mark, Mark::Wrong);
        assert_eq!(review.rows[4].mark, Mark::Recorded);
        assert!(review.rows.iter().all(|r| r.agrees), "{:?}", review.rows);
        // an edited claim is caught
        let mut forged = back.clone();
        forged.answers[1].right = Some(true);
        let review = lab.review(&forged).expect("same lab");
        assert_eq!(review.rows[1].mark, Mark::Wrong);
        assert!(!review.rows[1].agrees);
        // another lab's submission is refused
        forged.lab.id = "other".into();
        assert!(lab.review(&forged).unwrap_err().to_string().contains("other"));
    }

    #[test]
    fn damaged_labs_give_readable_errors() {
        let lab = sample();
        let file = lab.to_file();
        let err = |text: &str| Lab::from_file(text).unwrap_err().to_string();
        assert!(err(&file[..file.len() / 2]).contains("ends too early"), "{}", err(&file[..file.len() / 2]));
        let e = err(&file.replace("\"version\": 1", "\"version\": 7"));
        assert!(e.starts_with("version:") && e.contains("version 7"), "{e}");
        let e = err(&file.replace("\"kind\": \"feasibility\"", "\"kind\": \"telepathy\""));
        assert!(e.starts_with("line ") && e.contains("telepathy"), "{e}");
        let e = err(&file.replace("\"iteration\": 2", "\"iteration\": 0"));
        assert_eq!(e, "tasks[1].question.iteration: iterations count from 1 to 1000");
        let e = err(&file.replace("\"title\"", "\"titel\""));
        assert!(e.contains("titel"), "{e}");
        let hash = lab.tasks[0].answer.clone().map(|a| a.0).unwrap_or_default();
        let e = err(&file.replace(&hash, "abc"));
        assert_eq!(e, "tasks[0].answer: a sealed answer is 64 lowercase hex digits");
        let mut bad = lab.clone();
        bad.options.int_width = 3;
        assert!(err(&bad.to_file()).starts_with("options.int_width"));
        bad = lab.clone();
        bad.tasks[4].answer = bad.tasks[0].answer.clone();
        assert!(err(&bad.to_file()).starts_with("tasks[4].answer"));
        // links
        let link = lab.to_link();
        let e = Lab::from_link(&link[..link.len() / 2]).unwrap_err().to_string();
        assert!(e.contains("lab link is truncated"), "{e}");
        assert!(Lab::from_link("#v1,abc").unwrap_err().to_string().contains("#lab=v1,"));
        assert!(Lab::from_link("#lab=v2,abc").unwrap_err().to_string().contains("version"));
        let e = Lab::from_link(&format!("lab={}", share::encode_bytes(b"{\"version\":1}"))).unwrap_err().to_string();
        assert!(e.contains("missing field"), "{e}");
        assert!(!e.contains("line"), "a link's error names no line: {e}");
        // submissions
        let e = Submission::from_file("{\"kind\":\"x\",\"version\":1,\"lab\":{\"id\":\"a\",\"digest\":\"b\"}}").unwrap_err().to_string();
        assert!(e.starts_with("kind:"), "{e}");
        assert!(Submission::from_file("[]").is_err());
    }

    #[test]
    fn answers_in_clear_are_compared_as_normalised_answers() {
        let cubes = Question::ImplyingCubes { iteration: 1, statement: "prev = curr;".into(), predicate: "{prev == NULL}".into(), negated: false };
        let expected = "{curr == NULL} && !{prev == NULL} || {a}";
        assert_eq!(same_answer(&cubes, "{a} || !{prev==NULL} && {curr == NULL}", expected), Mark::Right);
        assert_eq!(same_answer(&cubes, "{a}", expected), Mark::Wrong);
        assert!(matches!(same_answer(&cubes, "({a}", expected), Mark::Unreadable { .. }));
        let preds = Question::NewPredicates { iteration: 2 };
        assert_eq!(same_answer(&preds, "y > 0\nlocked == 0", "locked==0, y>0"), Mark::Right);
        assert_eq!(same_answer(&preds, "locked != 0", "locked == 0"), Mark::Wrong);
        let feasible = Question::Feasibility { iteration: 1 };
        assert_eq!(same_answer(&feasible, "spurious", "infeasible"), Mark::Right);
        assert_eq!(same_answer(&feasible, "feasible", "infeasible"), Mark::Wrong);
        assert!(matches!(same_answer(&feasible, "feasible", ""), Mark::Unreadable { .. }));
    }

    #[test]
    fn atoms_of_conditions_in_canonical_text() {
        assert_eq!(atoms("!(locked != 0) && (x <= y || {curr == NULL}) && locked == 0"), vec!["locked==0", "curr==NULL", "x>y"]);
        assert_eq!(atoms("true"), Vec::<String>::new());
        assert_eq!(atoms("(a"), Vec::<String>::new(), "an unreadable formula has no atoms");
    }
}

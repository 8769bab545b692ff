//! Predict, then reveal (issue 31, "exercises"): with the Predict toggle on, the playground asks
//! instead of telling at four points of an ordinary run, and checks the student's answer
//! against the engine's, with a hint after a wrong one and a score.
//!
//! - Before Step's reveal shows an iteration's feasibility: *is this abstract counterexample
//!   feasible?* (BOOP §7.2, the path formula of Fig 7.3). After Run the same questions come
//!   with the walk through its iterations ([`crate::reveal::Reveal::walk`]): Run computes them
//!   all, and each is revealed phase by phase (the student may pick one in the timeline).
//! - Before it shows the new predicates: *which predicates will refinement add?* (BOOP §7.3),
//!   a multiple choice among the atoms of the path's WP conditions (the feasibility table) and
//!   the predicates the engine added.
//! - In the cube lattice: *which cubes imply WP(s, φ)?* (C2BP §4.2: `F(ψ)` is the disjunction
//!   of the implying cubes), among the cubes the strengthening asked the solver about.
//! - In the invariants view: *which of these hold at L?* (C2BP §2.2), among the predicates of
//!   the invariant at a C label and their negations.
//!
//! The questions are the lab module's kinds ([`playground_api::lab::Question`]) and answers are
//! compared as labs compare them ([`playground_api::lab::same_answer`]: normalised formulas and
//! predicate sets), except "which hold", a set of choices each decided by the worker. The
//! expected answers are the engine's, computed in the worker: feasibility and new predicates
//! arrive in the iteration's record, the lattice in its explanation (Check mode asks the worker
//! for it), and each "holds at L" by `playground_api::query::answers` on a worker request
//! (`ToWorker::ExerciseQueries`); this module only compares texts, so the UI bundle links no
//! engine code. The score counts each question once, by its first answer.

use crate::formula::negate;
use crate::reveal::Phase;
use crate::state::AppState;
use playground_api as api;
use playground_api::explain::LatticeData;
use playground_api::lab::{self, Mark, Question};
use playground_api::query::{QueryAnswer, QueryVerdict};
use playground_api::{FeasibilityKind, IterationSnapshot};

/// Most choices a multiple-choice question offers (the engine's answers always among them).
pub const MAX_CHOICES: usize = 12;
/// Most cubes the lattice question lists; larger lattices are shown, not asked about.
pub const MAX_CUBES: usize = 40;

/// One question of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Key {
    /// Is iteration `iteration`'s (1-based) abstract counterexample feasible?
    Feasibility { iteration: u32 },
    /// Which predicates will refinement add at iteration `iteration`?
    NewPredicates { iteration: u32 },
    /// Which cubes imply `WP(s, φ)` for statement `statement` (index into the iteration's
    /// explanation) and boolean variable `predicate`?
    Cubes { iteration: u32, statement: usize, predicate: String },
    /// Which of the choices hold at C label `label`?
    Holds { label: String },
}

impl Key {
    /// The name in the page (`data-kind`).
    pub fn kind(&self) -> &'static str {
        match self {
            Key::Feasibility { .. } => "feasibility",
            Key::NewPredicates { .. } => "predicates",
            Key::Cubes { .. } => "cubes",
            Key::Holds { .. } => "holds",
        }
    }

    /// The lab's question of the same kind (its answers are read the same way).
    fn question(&self, statement: &str) -> Question {
        match self {
            Key::Feasibility { iteration } => Question::Feasibility { iteration: *iteration },
            Key::NewPredicates { iteration } => Question::NewPredicates { iteration: *iteration },
            Key::Cubes { iteration, predicate, .. } => {
                Question::ImplyingCubes { iteration: *iteration, statement: statement.to_string(), predicate: predicate.clone(), negated: false }
            }
            Key::Holds { label } => Question::InvariantAt { procedure: String::new(), location: format!("at {label}") },
        }
    }
}

/// One choice of a multiple-choice question.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// What is checked (a predicate, a cube as a formula, a C expression).
    pub answer: String,
    /// What the student reads.
    pub text: String,
}

/// The student's latest answer to one question and its mark.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answered {
    pub key: Key,
    /// The chosen answers (`feasible`/`infeasible`, or [`Choice::answer`]s).
    pub given: Vec<String>,
    pub mark: Mark,
    pub hint: Option<String>,
    pub attempts: u32,
}

/// "Which of these hold at L?" sent to the worker, waiting for its answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HoldsAsk {
    pub label: String,
    pub choices: Vec<Choice>,
    pub given: Vec<String>,
    /// The predicates the invariant is computed with.
    pub predicates: String,
    /// Tells two askings apart (asking again sends again).
    pub serial: u32,
}

/// The exercises of the playground: the toggle, this run's answers, the score.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Exercises {
    pub enabled: bool,
    pub answers: Vec<Answered>,
    /// Questions the student chose to see the answer of (the lattice or invariant shown).
    pub revealed: Vec<Key>,
    /// Questions answered right at the first try, and questions answered (the score).
    pub right: u32,
    pub asked: u32,
    /// The invariant question in the worker.
    pub holds_ask: Option<HoldsAsk>,
    /// The engine's answers to the last [`HoldsAsk`] (the views show its verdicts).
    pub holds_answers: Vec<QueryAnswer>,
}

/// What the student does.
#[derive(Clone, Debug, PartialEq)]
pub enum ExerciseAction {
    SetEnabled(bool),
    /// Answer a question whose engine answer the state holds (feasibility, predicates, cubes).
    Answer { key: Key, given: Vec<String> },
    /// Answer "which hold at L": the worker decides each choice.
    AskHolds { label: String, choices: Vec<Choice>, given: Vec<String>, predicates: String },
    /// Show what the question hides without (more) answering.
    Reveal(Key),
}

impl Exercises {
    pub fn answer(&self, key: &Key) -> Option<&Answered> {
        self.answers.iter().find(|a| a.key == *key)
    }

    /// Whether the student has seen the engine's answer: answered right, or revealed.
    pub fn settled(&self, key: &Key) -> bool {
        self.revealed.contains(key) || self.answer(key).is_some_and(|a| a.mark.is_right())
    }

    /// A new run: its questions are new (the score stays).
    pub fn run_started(&mut self) {
        self.answers.clear();
        self.revealed.clear();
        self.holds_ask = None;
        self.holds_answers.clear();
    }

    /// Records a checked answer (the first answer to a question counts in the score).
    fn record(&mut self, key: Key, given: Vec<String>, mark: Mark, hint: Option<String>) {
        if matches!(mark, Mark::Unreadable { .. }) {
            // an answer that cannot be read is not an attempt, and leaves a right one standing
            if !self.answer(&key).is_some_and(|a| a.mark.is_right()) {
                let attempts = self.answer(&key).map_or(0, |a| a.attempts);
                self.upsert(Answered { key, given, mark, hint, attempts });
            }
            return;
        }
        let attempts = self.answer(&key).map_or(0, |a| a.attempts);
        if attempts == 0 {
            self.asked += 1;
            self.right += u32::from(mark.is_right());
        }
        self.upsert(Answered { key, given, mark, hint, attempts: attempts + 1 });
    }

    fn upsert(&mut self, answered: Answered) {
        match self.answers.iter_mut().find(|a| a.key == answered.key) {
            Some(slot) => *slot = answered,
            None => self.answers.push(answered),
        }
    }

    /// "2 of 3 right at the first try".
    pub fn score(&self) -> String {
        format!("{} of {} right at the first try", self.right, self.asked)
    }
}

fn iteration(s: &AppState, n: u32) -> Option<&IterationSnapshot> {
    s.run.iterations.iter().find(|it| it.index == n)
}

/// The reveal's question before its next phase, if Predict is on and it is not settled.
pub fn reveal_question(s: &AppState) -> Option<Key> {
    if !s.exercises.enabled {
        return None;
    }
    let (index, _) = s.reveal.current?;
    let it = s.run.iterations.get(index)?;
    let key = match s.reveal.next_phase(&s.run.iterations)? {
        Phase::Feasibility if matches!(it.feasibility_kind, FeasibilityKind::Feasible | FeasibilityKind::Infeasible) => {
            Key::Feasibility { iteration: it.index }
        }
        Phase::Predicates if !it.new_predicates.is_empty() => Key::NewPredicates { iteration: it.index },
        _ => return None,
    };
    Some(key)
}

/// The engine's answer to a feasibility question.
fn feasibility_answer(it: &IterationSnapshot) -> &'static str {
    if it.feasibility_kind == FeasibilityKind::Feasible {
        "feasible"
    } else {
        "infeasible"
    }
}

/// Where the path became infeasible, as the hints name it (`step 5, line 37: locked = 0;`).
fn infeasible_at(it: &IterationSnapshot) -> Option<String> {
    let step = it.infeasible_step?;
    let row = it.feasibility_table.iter().find(|r| r.step == step);
    Some(match row {
        Some(r) => match r.c_line {
            Some(line) => format!("step {step}, line {line}: {}", r.statement.trim()),
            None => format!("step {step}: {}", r.statement.trim()),
        },
        None => format!("step {step}"),
    })
}

/// The choices of "which predicates will refinement add?": the predicates the engine added and
/// the other atoms of the path's conditions (one choice per atom), sorted, at most
/// [`MAX_CHOICES`] with the engine's all among them. The engine's read as the table does, over
/// the source's names (`main::n == 0` for `n_main == 0`, [`playground_api::PredicateData::shown`]),
/// so that the same predicate is not offered twice.
pub fn predicate_choices(it: &IterationSnapshot) -> Vec<Choice> {
    let mut covered: Vec<String> = Vec::new();
    let mut choices: Vec<Choice> = Vec::new();
    for (i, p) in it.new_predicates.iter().enumerate() {
        let shown = it.added_predicates.get(i).map(|a| a.shown.clone()).filter(|s| !s.is_empty()).unwrap_or_else(|| p.clone());
        covered.extend(lab::atoms(p));
        covered.extend(lab::atoms(&shown));
        choices.push(Choice { answer: p.clone(), text: shown });
    }
    // the engine prints the atoms ([`playground_api::FeasibilityRow::atoms`]); their canonical
    // texts only tell which predicates are the same
    let mut others: Vec<Choice> = Vec::new();
    for atom in it.feasibility_table.iter().flat_map(|row| &row.atoms) {
        let canonical = lab::atoms(atom);
        if !canonical.is_empty() && !canonical.iter().all(|c| covered.contains(c)) {
            covered.extend(canonical);
            others.push(Choice { text: atom.clone(), answer: atom.clone() });
        }
    }
    others.truncate(MAX_CHOICES.saturating_sub(choices.len()));
    choices.extend(others);
    choices.sort_by(|a, b| a.text.cmp(&b.text));
    choices
}

/// A cube as a formula the lab's normalisation reads (`{a} && !{b}`; `true` when empty).
fn cube_formula(literals: &[(String, bool)]) -> String {
    if literals.is_empty() {
        return "true".into();
    }
    literals.iter().map(|(name, positive)| if *positive { name.clone() } else { format!("!{name}") }).collect::<Vec<_>>().join(" && ")
}

/// The cubes the lattice question is about: those the strengthening asked the solver about (a
/// cube whose sub-cube already implies is pruned, never asked) over the cone's first layer
/// (C2BP §5.2: the predicates sharing a variable with WP(s, φ) itself; all of the cone when the
/// engine recorded no layer), in the lattice's order.
fn asked_cubes(data: &LatticeData) -> impl Iterator<Item = &playground_api::explain::CubeData> {
    data.cubes.iter().filter(|c| {
        matches!(c.outcome.as_str(), "implies" | "implies_negation" | "neither")
            && (data.near_cone.is_empty() || c.literals.iter().all(|(name, _)| data.near_cone.contains(name)))
    })
}

/// The choices of "which cubes imply WP(s, φ)?" ([`asked_cubes`]); `None` when there are none
/// or more than [`MAX_CUBES`].
pub fn cube_choices(data: &LatticeData) -> Option<Vec<Choice>> {
    let asked: Vec<Choice> =
        asked_cubes(data).map(|c| Choice { answer: cube_formula(&c.literals), text: crate::lattice::cube_label(&c.literals) }).collect();
    (!asked.is_empty() && asked.len() <= MAX_CUBES && data.exact.is_none()).then_some(asked)
}

/// The engine's answer over the asked cubes: the disjunction of those that imply WP(s, φ).
fn implying_cubes(data: &LatticeData) -> String {
    let cubes: Vec<String> = asked_cubes(data).filter(|c| c.outcome == "implies").map(|c| cube_formula(&c.literals)).collect();
    if cubes.is_empty() {
        "false".into()
    } else {
        cubes.join(" || ")
    }
}

/// The lattice question of the explained statement and predicate, if Predict is on, the
/// lattice can be asked about and the question is not settled.
pub fn lattice_question(s: &AppState) -> Option<(Key, Vec<Choice>)> {
    if !s.exercises.enabled {
        return None;
    }
    let it = s.selected_iteration()?;
    let statement = s.explain.statement?;
    let p = s.explained_predicate()?;
    let choices = cube_choices(&p.positive)?;
    let key = Key::Cubes { iteration: it.index, statement, predicate: p.predicate.clone() };
    (!s.exercises.settled(&key)).then_some((key, choices))
}

/// Whether `label` labels a statement in the C source (`L:` after `;`, `{`, `}` or at the start
/// of a line; not `case L:`, `a ? L : b` or `L::`). The model checker also reports the boolean
/// program's own labels, which no C question can name.
pub fn is_c_label(source: &str, label: &str) -> bool {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    if label.is_empty() || !label.chars().all(word) {
        return false;
    }
    source.match_indices(label).any(|(at, _)| {
        let before = source[..at].trim_end_matches([' ', '\t']);
        let after = source[at + label.len()..].trim_start_matches([' ', '\t']);
        let whole = !source[..at].ends_with(word) && !source[at + label.len()..].starts_with(word);
        let starts = before.is_empty() || before.ends_with(['\n', ';', '{', '}']);
        whole && starts && after.starts_with(':') && !after.starts_with("::")
    })
}

/// The invariants at C labels (`at L` rows whose label is in `source`): label and the
/// predicates the invariant mentions ([`api::InvariantData::predicates`]).
pub fn labels(invariants: &[api::InvariantData], source: &str) -> Vec<(String, Vec<String>)> {
    invariants
        .iter()
        .filter_map(|inv| {
            let label = inv.location.strip_prefix("at ")?;
            is_c_label(source, label).then(|| (label.to_string(), inv.predicates.clone()))
        })
        .collect()
}

/// The C labels whose "which of these hold?" question is open, with their invariants' predicates.
pub fn open_labels(s: &AppState) -> Vec<(String, Vec<String>)> {
    if !s.exercises.enabled {
        return Vec::new();
    }
    let invariants = s.run.outcome.as_ref().map(|o| o.invariants.as_slice()).unwrap_or_default();
    labels(invariants, s.run_source()).into_iter().filter(|(l, _)| !s.exercises.settled(&Key::Holds { label: l.clone() })).collect()
}

/// The choices of "which of these hold at L?": each predicate of the invariant at L (as the
/// engine printed it) and its negation, as C expressions.
pub fn holds_choices(predicates: &[String]) -> Vec<Choice> {
    let mut choices = Vec::new();
    for predicate in predicates.iter().take(MAX_CHOICES / 2) {
        let negated = negate(predicate);
        choices.push(Choice { answer: predicate.clone(), text: predicate.clone() });
        choices.push(Choice { answer: negated.clone(), text: negated });
    }
    choices
}

/// Whether the invariants view hides the invariant at `location` (`at L`: its question is open).
pub fn hides_invariant(s: &AppState, location: &str) -> bool {
    location.strip_prefix("at ").is_some_and(|l| open_labels(s).iter().any(|(open, _)| open == l))
}

fn count(n: usize, what: &str) -> String {
    crate::model::plural(n, what)
}

/// `(chosen but not the engine's, the engine's but not chosen)`.
fn differences(given: &[String], expected: &[String]) -> (usize, usize) {
    let extra = given.iter().filter(|g| !expected.contains(g)).count();
    let missing = expected.iter().filter(|e| !given.contains(e)).count();
    (extra, missing)
}

/// Checks an answer to a question whose engine answer is in the state; `None` when the state
/// no longer has what the question is about.
fn check(s: &AppState, key: &Key, given: &[String]) -> Option<(Mark, Option<String>)> {
    match key {
        Key::Feasibility { iteration: n } => {
            let it = iteration(s, *n)?;
            let expected = feasibility_answer(it);
            let answer = given.first().map(String::as_str).unwrap_or("");
            let mark = lab::same_answer(&key.question(""), answer, expected);
            let hint = (mark == Mark::Wrong).then(|| {
                if expected == "infeasible" {
                    let at = infeasible_at(it).map(|a| format!(" ({a})")).unwrap_or_default();
                    format!("Not quite: the boolean program can take this path, but C cannot. Follow the weakest precondition of the error back along the path: it becomes unsatisfiable{at}. The branches the boolean program chooses freely contradict what C computed before them.")
                } else {
                    "Not quite: the conditions along this path can all hold together in C, so the path is real. Look for C values that take every branch of the counterexample: the engine finds inputs that reach the error.".to_string()
                }
            });
            Some((mark, hint))
        }
        Key::NewPredicates { iteration: n } => {
            let it = iteration(s, *n)?;
            let mark = lab::same_answer(&key.question(""), &given.join("\n"), &it.new_predicates.join("\n"));
            let hint = (mark == Mark::Wrong).then(|| {
                let (extra, missing) = differences(given, &it.new_predicates);
                let at = infeasible_at(it).map(|a| format!(" ({a})")).unwrap_or_default();
                format!(
                    "Not quite: {} of yours {} not added and {} the engine adds {} missing. Refinement takes the atoms of the weakest-precondition condition where the path became infeasible{at}: the facts that show the contradiction.",
                    count(extra, "choice"),
                    if extra == 1 { "is" } else { "are" },
                    count(missing, "predicate"),
                    if missing == 1 { "is" } else { "are" },
                )
            });
            Some((mark, hint))
        }
        Key::Cubes { iteration: n, statement, predicate } => {
            let it = iteration(s, *n)?;
            let st = it.explanation.as_ref()?.statements.get(*statement)?;
            let p = st.predicates.iter().find(|p| p.predicate == *predicate)?;
            let answer = if given.is_empty() { "false".to_string() } else { given.join(" || ") };
            let expected = implying_cubes(&p.positive);
            let mark = lab::same_answer(&key.question(&st.c_statement), &answer, &expected);
            let hint = (mark == Mark::Wrong).then(|| {
                let engine: Vec<String> = asked_cubes(&p.positive).filter(|c| c.outcome == "implies").map(|c| cube_formula(&c.literals)).collect();
                let (extra, missing) = differences(given, &engine);
                format!(
                    "Not quite: {} of yours {} not imply WP(s, φ) = {} (some state satisfies the cube but not the WP), and {} that {} {} missing. A cube implies the WP when cube ∧ ¬WP is unsatisfiable; only predicates in the WP's cone of influence can help.",
                    count(extra, "cube"),
                    if extra == 1 { "does" } else { "do" },
                    p.positive.target,
                    count(missing, "cube"),
                    if missing == 1 { "implies it" } else { "imply it" },
                    if missing == 1 { "is" } else { "are" },
                )
            });
            Some((mark, hint))
        }
        Key::Holds { .. } => None,
    }
}

/// Grades "which hold at L" with the worker's answers to its choices.
fn grade_holds(ask: &HoldsAsk, answers: &[QueryAnswer]) -> (Mark, Option<String>) {
    if answers.len() != ask.choices.len() {
        return (Mark::Unreadable { message: "the engine answered another question".into() }, None);
    }
    if let Some(a) = answers.iter().find(|a| a.verdict == QueryVerdict::Error) {
        return (Mark::Unreadable { message: format!("the engine could not ask `{}`: {}", a.expression, a.reason) }, None);
    }
    let holding: Vec<String> =
        ask.choices.iter().zip(answers).filter(|(_, a)| a.verdict == QueryVerdict::Holds).map(|(c, _)| c.answer.clone()).collect();
    let (extra, missing) = differences(&ask.given, &holding);
    if extra == 0 && missing == 0 {
        return (Mark::Right, None);
    }
    let hint = format!(
        "Not quite: {} of yours {} not follow from the invariant at {}, and {} that {} {} missing. A fact holds at {} when every state the boolean program can be in there satisfies it; a predicate the invariant leaves open holds in neither polarity.",
        count(extra, "choice"),
        if extra == 1 { "does" } else { "do" },
        ask.label,
        count(missing, "fact"),
        if missing == 1 { "holds" } else { "hold" },
        if missing == 1 { "is" } else { "are" },
        ask.label,
    );
    (Mark::Wrong, Some(hint))
}

/// The reducer's part for [`ExerciseAction`]s.
pub fn reduce(s: &mut AppState, action: ExerciseAction) {
    match action {
        ExerciseAction::SetEnabled(on) => {
            s.exercises.enabled = on;
            // the feasibility and predicate questions come with Step's phase-by-phase reveal,
            // and with the walk through a Run's iterations (crate::reveal::Reveal::walk)
            if on {
                s.reveal.enabled = true;
            } else if s.reveal.walk {
                s.reveal.show_all();
            }
        }
        ExerciseAction::Answer { key, given } => {
            if let Some((mark, hint)) = check(s, &key, &given) {
                s.exercises.record(key, given, mark, hint);
            }
        }
        ExerciseAction::AskHolds { label, choices, given, predicates } => {
            let serial = s.exercises.holds_ask.as_ref().map_or(0, |a| a.serial + 1);
            s.exercises.holds_answers.clear();
            s.exercises.holds_ask = Some(HoldsAsk { label, choices, given, predicates, serial });
        }
        ExerciseAction::Reveal(key) => {
            if !s.exercises.revealed.contains(&key) {
                s.exercises.revealed.push(key);
            }
        }
    }
}

/// The worker's answers to the open [`HoldsAsk`].
pub fn holds_answered(s: &mut AppState, answers: Vec<QueryAnswer>) {
    let Some(ask) = s.exercises.holds_ask.clone() else { return };
    let (mark, hint) = grade_holds(&ask, &answers);
    s.exercises.holds_answers = answers;
    s.exercises.record(Key::Holds { label: ask.label }, ask.given, mark, hint);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::share::Session;
    use playground_api::explain::{CubeData, ExplanationData, PredicateExplanation, StatementExplanation};
    use playground_api::FeasibilityRow;

    fn spurious() -> IterationSnapshot {
        let mut it = crate::reveal::tests::spurious(1);
        it.feasibility_kind = FeasibilityKind::Infeasible;
        it.infeasible_step = Some(2);
        it.new_predicates = vec!["locked == 0".into()];
        // a row at line step + 2 whose thread 1 is `condition`, with the atoms the engine printed
        let row = |step: u32, statement: &str, condition: &str, contradiction: bool, atoms: &[&str]| FeasibilityRow {
            step,
            c_line: Some(step + 2),
            statement: statement.into(),
            columns: vec![("1".into(), condition.into())],
            contradiction,
            atoms: atoms.iter().map(|a| a.to_string()).collect(),
        };
        it.feasibility_table =
            vec![row(1, "x = 1;", "x > 0 && locked != 0", false, &["x > 0", "locked != 0"]), row(2, "locked = 0;", "!(y <= 2) || locked == 0", true, &["y <= 2", "locked == 0"])];
        it
    }

    fn state(its: Vec<IterationSnapshot>) -> AppState {
        let mut s = AppState::new(Session::default(), None);
        s.run.iterations = its;
        s.selected = Some(0);
        s
    }

    fn answer(s: &mut AppState, key: Key, given: &[&str]) -> Answered {
        reduce(s, ExerciseAction::Answer { key: key.clone(), given: given.iter().map(|g| g.to_string()).collect() });
        s.exercises.answer(&key).cloned().expect("recorded")
    }

    #[test]
    fn the_reveal_asks_before_feasibility_and_before_new_predicates() {
        let mut s = state(vec![spurious()]);
        reduce(&mut s, ExerciseAction::SetEnabled(true));
        assert!(s.reveal.enabled, "Predict turns phase by phase on");
        s.reveal.iteration_arrived(0, true);
        assert_eq!(reveal_question(&s), None, "the counterexample is not a question");
        s.reveal.advance(&s.run.iterations);
        assert_eq!(reveal_question(&s), Some(Key::Feasibility { iteration: 1 }));
        s.reveal.advance(&s.run.iterations);
        assert_eq!(reveal_question(&s), Some(Key::NewPredicates { iteration: 1 }));
        reduce(&mut s, ExerciseAction::SetEnabled(false));
        assert_eq!(reveal_question(&s), None);
    }

    #[test]
    fn feasibility_wrong_then_right_scores_the_first_answer_with_a_hint_naming_the_step() {
        let mut s = state(vec![spurious()]);
        let key = Key::Feasibility { iteration: 1 };
        let wrong = answer(&mut s, key.clone(), &["feasible"]);
        assert_eq!(wrong.mark, Mark::Wrong);
        assert!(wrong.hint.as_deref().unwrap_or("").contains("step 2, line 4: locked = 0;"), "{:?}", wrong.hint);
        let right = answer(&mut s, key.clone(), &["infeasible"]);
        assert_eq!((right.mark, right.hint, right.attempts), (Mark::Right, None, 2));
        assert_eq!((s.exercises.right, s.exercises.asked), (0, 1), "scored by the first answer");
        assert!(s.exercises.settled(&key));
    }

    #[test]
    fn predicate_choices_are_the_conditions_atoms_and_the_engines_predicates() {
        let it = spurious();
        let choices = predicate_choices(&it);
        let texts: Vec<&str> = choices.iter().map(|c| c.text.as_str()).collect();
        assert_eq!(texts, ["locked == 0", "x > 0", "y <= 2"], "one choice per atom (locked != 0 is locked == 0), as the engine printed them");
        let mut s = state(vec![it]);
        let key = Key::NewPredicates { iteration: 1 };
        let wrong = answer(&mut s, key.clone(), &["x>0", "locked == 0"]);
        assert_eq!(wrong.mark, Mark::Wrong);
        assert!(wrong.hint.as_deref().unwrap_or("").contains("1 choice of yours is not added and 0 predicates the engine adds are missing"), "{:?}", wrong.hint);
        assert_eq!(answer(&mut s, key, &["locked == 0"]).mark, Mark::Right);
    }

    /// The engine prints the atoms; the choices show them as printed, whatever their operators
    /// (re-spacing a normalised `x>>2>y` gave `x>>2 > y`).
    #[test]
    fn predicate_choices_show_the_engines_atoms_verbatim() {
        let mut it = spurious();
        let atoms = ["x >> 2 > y", "a << 1 != b - c", "p->next == q", "a[i + 1] <= 0", "m % 3 >= n * 2", "(x >> 2 > y) == r"];
        it.feasibility_table[0].atoms = atoms.iter().map(|a| a.to_string()).collect();
        it.new_predicates = vec!["x >> 2 > y".into()];
        let choices = predicate_choices(&it);
        let texts: Vec<&str> = choices.iter().map(|c| c.text.as_str()).collect();
        for atom in atoms {
            assert_eq!(texts.iter().filter(|t| **t == atom).count(), 1, "{atom} once in {texts:?}");
        }
        assert_eq!(texts.len(), atoms.len() + 2, "and the second row's y <= 2 and locked == 0: {texts:?}");
        let mut s = state(vec![it]);
        let key = Key::NewPredicates { iteration: 1 };
        assert_eq!(answer(&mut s, key.clone(), &["x >> 2 > y", "a << 1 != b - c"]).mark, Mark::Wrong);
        assert_eq!(answer(&mut s, key, &["x >> 2 > y"]).mark, Mark::Right, "the printed atom is the engine's predicate");
    }

    fn lattice() -> LatticeData {
        let cube = |literals: &[(&str, bool)], outcome: &str| CubeData {
            literals: literals.iter().map(|(n, p)| (n.to_string(), *p)).collect(),
            outcome: outcome.into(),
            query: String::new(),
            answer: String::new(),
            micros: 0.0,
            order: 0,
        };
        LatticeData {
            target: "curr == NULL".into(),
            cubes: vec![
                cube(&[("{curr == NULL}", true)], "implies"),
                cube(&[("{curr == NULL}", false)], "implies_negation"),
                cube(&[("{prev == NULL}", true)], "neither"),
                cube(&[("{curr == NULL}", true), ("{prev == NULL}", true)], "pruned"),
            ],
            goal_result: "{curr == NULL}".into(),
            ..LatticeData::default()
        }
    }

    #[test]
    fn a_renamed_predicate_is_one_choice_in_the_sources_terms() {
        let mut it = spurious();
        it.new_predicates = vec!["locked_main == 0".into()];
        it.added_predicates = vec![api::PredicateData {
            scope: "main".into(),
            text: "locked_main == 0".into(),
            origin: api::PredicateOrigin::User,
            shown: "main::locked == 0".into(),
        }];
        it.feasibility_table[0].columns = vec![("1".into(), "x > 0 && main::locked != 0".into())];
        it.feasibility_table[0].atoms = vec!["x > 0".into(), "main::locked != 0".into()];
        it.feasibility_table[1].columns = vec![("1".into(), "main::locked != 0".into())];
        it.feasibility_table[1].atoms = vec!["main::locked != 0".into()];
        let choices = predicate_choices(&it);
        let engine: Vec<&Choice> = choices.iter().filter(|c| c.text.contains("locked")).collect();
        assert_eq!(engine.len(), 1, "not offered twice: {choices:?}");
        assert_eq!((engine[0].text.as_str(), engine[0].answer.as_str()), ("main::locked == 0", "locked_main == 0"));
        let mut s = state(vec![it]);
        assert_eq!(answer(&mut s, Key::NewPredicates { iteration: 1 }, &["locked_main == 0"]).mark, Mark::Right);
    }

    #[test]
    fn the_lattice_question_keeps_to_the_cones_first_layer_and_is_graded_on_it() {
        let mut data = lattice();
        // {prev == NULL} shares no variable with curr == NULL: its cubes are not asked about
        data.cone = vec!["{curr == NULL}".into(), "{prev == NULL}".into()];
        data.near_cone = vec!["{curr == NULL}".into()];
        let texts: Vec<String> = cube_choices(&data).expect("choices").into_iter().map(|c| c.text).collect();
        assert_eq!(texts, ["{curr == NULL}", "!{curr == NULL}"]);
        // a cube outside the first layer that implies is not part of the expected answer
        data.cubes.push(CubeData { literals: vec![("{prev == NULL}".into(), false)], outcome: "implies".into(), query: String::new(), answer: String::new(), micros: 0.0, order: 9 });
        assert_eq!(implying_cubes(&data), "{curr == NULL}");
        data.near_cone.clear();
        assert_eq!(cube_choices(&data).map(|c| c.len()), Some(4), "without a recorded layer: every asked cube");
    }

    #[test]
    fn the_lattice_asks_about_the_cubes_it_queried_and_the_engines_implying_cubes_decide() {
        let mut it = spurious();
        it.explanation = Some(ExplanationData {
            statements: vec![StatementExplanation {
                c_statement: "prev = curr;".into(),
                predicates: vec![PredicateExplanation { predicate: "{prev == NULL}".into(), positive: lattice(), ..PredicateExplanation::default() }],
                ..StatementExplanation::default()
            }],
            ..ExplanationData::default()
        });
        let mut s = state(vec![it]);
        s.explain.statement = Some(0);
        assert_eq!(lattice_question(&s), None, "only with Predict on");
        s.exercises.enabled = true;
        let (key, choices) = lattice_question(&s).expect("a question");
        assert_eq!(choices.len(), 3, "pruned cubes are not asked about");
        assert_eq!(choices[0].text, "{curr == NULL}");
        let wrong = answer(&mut s, key.clone(), &["{curr == NULL}", "{prev == NULL}"]);
        assert_eq!(wrong.mark, Mark::Wrong);
        assert!(wrong.hint.as_deref().unwrap_or("").contains("1 cube of yours does not imply"), "{:?}", wrong.hint);
        assert!(lattice_question(&s).is_some(), "still open after a wrong answer");
        assert_eq!(answer(&mut s, key.clone(), &["{curr == NULL}"]).mark, Mark::Right);
        assert_eq!(lattice_question(&s), None, "settled");
        assert_eq!(answer(&mut s, key, &[]).mark, Mark::Wrong, "none is an answer (false)");
    }

    fn verdict(v: QueryVerdict) -> QueryAnswer {
        QueryAnswer {
            label: "L".into(),
            expression: String::new(),
            verdict: v,
            reason: String::new(),
            invariant: String::new(),
            solver_query: String::new(),
            integers: String::new(),
            text: String::new(),
        }
    }

    #[test]
    fn holds_choices_are_the_invariants_predicates_both_ways_and_the_worker_decides() {
        let predicates: Vec<String> = ["curr == NULL", "curr->val > v", "prev->val > v", "prev == NULL"].map(String::from).to_vec();
        let choices = holds_choices(&predicates);
        let texts: Vec<&str> = choices.iter().map(|c| c.text.as_str()).collect();
        assert_eq!(texts.len(), 8);
        assert!(texts.contains(&"curr == NULL") && texts.contains(&"curr != NULL") && texts.contains(&"prev->val <= v"), "{texts:?}");
        let shifts: Vec<String> = holds_choices(&["x >> 2 > y".to_string()]).into_iter().map(|c| c.text).collect();
        assert_eq!(shifts, ["x >> 2 > y", "x >> 2 <= y"], "as the engine printed the predicate");
        let mut s = state(vec![]);
        s.exercises.enabled = true;
        s.session.source = "int main(void) {\n  int x = 0;\nL:\n  x++;\n}\n".into();
        let inv = |location: &str| api::InvariantData { procedure: "main".into(), c_line: None, location: location.into(), formula: "{a}".into(), predicates: vec!["a".into()] };
        s.run.outcome = Some(Box::new(api::Outcome {
            verdict: api::Verdict::Safe,
            sv_comp: String::new(),
            reason: String::new(),
            diagnostics: Vec::new(),
            iterations: Vec::new(),
            final_predicates: String::new(),
            invariants: vec![inv("at L"), inv("at entry")],
            invariant_source: String::new(),
            trace: Vec::new(),
            inputs: Vec::new(),
            input_sources: Vec::new(),
            runtime_error: None,
            statistics: api::Statistics::default(),
            elapsed_ms: 0.0,
            decided_by: None,
            next_step: String::new(),
            predicates: Vec::new(),
            cancelled: false,
        }));
        assert!(hides_invariant(&s, "at L"));
        assert!(!hides_invariant(&s, "at entry"));
        let two = vec![choices[0].clone(), choices[1].clone()];
        let given = vec![two[0].answer.clone()];
        reduce(&mut s, ExerciseAction::AskHolds { label: "L".into(), choices: two.clone(), given: given.clone(), predicates: String::new() });
        holds_answered(&mut s, vec![verdict(QueryVerdict::DoesNotHold), verdict(QueryVerdict::Holds)]);
        let key = Key::Holds { label: "L".into() };
        let wrong = s.exercises.answer(&key).cloned().expect("graded");
        assert_eq!(wrong.mark, Mark::Wrong);
        assert!(wrong.hint.unwrap_or_default().contains("1 choice of yours does not follow from the invariant at L, and 1 fact that holds is missing"));
        reduce(&mut s, ExerciseAction::AskHolds { label: "L".into(), choices: two.clone(), given: vec![two[1].answer.clone()], predicates: String::new() });
        holds_answered(&mut s, vec![verdict(QueryVerdict::DoesNotHold), verdict(QueryVerdict::Holds)]);
        assert_eq!(s.exercises.answer(&key).map(|a| a.mark.clone()), Some(Mark::Right));
        assert!(!hides_invariant(&s, "at L"));
        assert_eq!(s.exercises.score(), "0 of 1 right at the first try");
        holds_answered(&mut s, vec![verdict(QueryVerdict::Error)]);
        assert_eq!(s.exercises.answer(&key).map(|a| a.mark.clone()), Some(Mark::Right), "a mismatched answer is not graded");
        assert_eq!(s.exercises.asked, 1);
    }

    #[test]
    fn labels_are_the_c_labels_of_the_invariants() {
        let source = "void p(int a) {\n  int x = a ? L2 : 1;\n  switch (a) { case L3: break; }\nL: x = 1;\n  { M: ; }\n}\n";
        for (label, is) in [("L", true), ("M", true), ("L2", false), ("L3", false), ("L1", false), ("x", false), ("", false)] {
            assert_eq!(is_c_label(source, label), is, "{label}");
        }
        let inv = |location: &str| api::InvariantData { procedure: "p".into(), c_line: None, location: location.into(), formula: "{a}".into(), predicates: vec!["a".into()] };
        assert_eq!(labels(&[inv("at entry"), inv("at L"), inv("at L1"), inv("at loop head")], source), vec![("L".to_string(), vec!["a".to_string()])]);
    }
}

//! Phase-by-phase reveal of a stepped CEGAR run (issue 31, "step-by-step reveal"): after Step
//! computes one iteration, its phases — the boolean program (C2BP's abstraction), the abstract
//! counterexample (BEBOP's model checking), its feasibility (BOOP §7.3, WP along the path) and
//! the new predicates (refinement) — are shown one at a time as the student asks, in the order
//! of the loop (BOOP Fig 3.1); the verdict stays hidden until the last phase is shown.
//!
//! With Predict on, a Run's iterations are walked through the same way ([`Reveal::walk`]):
//! Run computes them all, the reveal starts at the first, and after an iteration's last phase
//! the next one begins; picking a later iteration in the timeline jumps there. Later
//! iterations and the verdict stay hidden (they would give the answers away).

use playground_api::IterationSnapshot;

/// A phase of one CEGAR iteration, in the loop's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Phase {
    BooleanProgram,
    Counterexample,
    Feasibility,
    Predicates,
}

impl Phase {
    pub const ALL: [Phase; 4] = [Phase::BooleanProgram, Phase::Counterexample, Phase::Feasibility, Phase::Predicates];

    pub fn label(self) -> &'static str {
        match self {
            Phase::BooleanProgram => "boolean program",
            Phase::Counterexample => "abstract counterexample",
            Phase::Feasibility => "feasibility",
            Phase::Predicates => "new predicates",
        }
    }

    /// The name in links (`phase=feasibility`).
    pub fn key(self) -> &'static str {
        match self {
            Phase::BooleanProgram => "boolean-program",
            Phase::Counterexample => "counterexample",
            Phase::Feasibility => "feasibility",
            Phase::Predicates => "predicates",
        }
    }

    pub fn from_key(key: &str) -> Option<Phase> {
        Phase::ALL.into_iter().find(|p| p.key() == key)
    }

    /// Whether `it` has this phase: a safe boolean program has no counterexample, a loop that
    /// stopped has no feasibility check, a feasible path no new predicates.
    pub fn present_in(self, it: &IterationSnapshot) -> bool {
        match self {
            Phase::BooleanProgram => true,
            Phase::Counterexample => !it.abstract_trace.is_empty(),
            Phase::Feasibility => !it.feasibility.is_empty() || !it.feasibility_table.is_empty(),
            Phase::Predicates => !it.new_predicates.is_empty(),
        }
    }

    /// The phases of `it`, in order.
    pub fn of(it: &IterationSnapshot) -> Vec<Phase> {
        Phase::ALL.into_iter().filter(|p| p.present_in(it)).collect()
    }
}

/// Which phases are shown.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Reveal {
    /// The student asked for phases one at a time (the timeline's "phase by phase").
    pub enabled: bool,
    /// The iteration (index into the run's iterations) being revealed and its last phase
    /// shown; `None`: everything is shown.
    pub current: Option<(usize, Phase)>,
    /// Walking through a Run's iterations (Predict after Run): after an iteration's last phase
    /// the next iteration follows, not the verdict.
    pub walk: bool,
}

impl Reveal {
    /// Whether `phase` of iteration `index` is shown.
    pub fn shows(&self, index: usize, phase: Phase) -> bool {
        match self.current {
            Some((i, shown)) if i == index => phase <= shown,
            Some((i, _)) => index < i,
            None => true,
        }
    }

    /// The verdict waits until the newest iteration is shown in full.
    pub fn hides_verdict(&self) -> bool {
        self.current.is_some()
    }

    /// A stepped run finished iteration `index`: start showing it from its boolean program.
    /// While walking, a Run's later iterations wait behind the one being revealed.
    pub fn iteration_arrived(&mut self, index: usize, stepped: bool) {
        if self.walk {
            return;
        }
        self.current = (self.enabled && stepped).then_some((index, Phase::BooleanProgram));
    }

    /// Starts walking through a Run's iterations at `index` (Predict after Run).
    pub fn walk_from(&mut self, index: usize) {
        self.current = Some((index, Phase::BooleanProgram));
        self.walk = true;
    }

    /// The student picked iteration `index` in the timeline: while walking, a later iteration
    /// is revealed from its boolean program (the ones before it are then shown in full).
    pub fn pick(&mut self, index: usize) {
        if let (true, Some((i, _))) = (self.walk, self.current) {
            if index > i {
                self.current = Some((index, Phase::BooleanProgram));
            }
        }
    }

    /// While walking: the iteration after the one being revealed, once it is shown in full.
    pub fn next_iteration(&self, iterations: &[IterationSnapshot]) -> Option<usize> {
        let (i, _) = self.current.filter(|_| self.walk)?;
        (self.next_phase(iterations).is_none() && i + 1 < iterations.len()).then_some(i + 1)
    }

    /// The next phase of the iteration being revealed (`None` when it is shown in full).
    pub fn next_phase(&self, iterations: &[IterationSnapshot]) -> Option<Phase> {
        let (i, shown) = self.current?;
        Phase::of(iterations.get(i)?).into_iter().find(|&p| p > shown)
    }

    /// Shows one more phase; after the last, everything (and the verdict). While walking, the
    /// last phase is shown on its own, then the next iteration follows.
    pub fn advance(&mut self, iterations: &[IterationSnapshot]) {
        let next_iteration = self.next_iteration(iterations);
        self.current = match (self.current, self.next_phase(iterations)) {
            (Some((i, _)), Some(p)) if self.walk || Phase::of(&iterations[i]).last() != Some(&p) => Some((i, p)),
            _ => next_iteration.map(|n| (n, Phase::BooleanProgram)),
        };
        if self.current.is_none() {
            self.walk = false;
        }
    }

    pub fn show_all(&mut self) {
        self.current = None;
        self.walk = false;
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use playground_api::AbstractStep;

    /// A spurious iteration `index` with a one-step counterexample and a new predicate (also
    /// the deep links' test fixture).
    pub(crate) fn spurious(index: u32) -> IterationSnapshot {
        IterationSnapshot {
            index,
            abstract_trace: vec![AbstractStep {
                procedure: "main".into(),
                bp_line: Some(4),
                c_line: Some(7),
                statement: "skip;".into(),
                kind: String::new(),
                valuation: Vec::new(),
            }],
            feasibility: "infeasible".into(),
            new_predicates: vec!["x == 0".into()],
            ..IterationSnapshot::default()
        }
    }

    #[test]
    fn phases_come_one_at_a_time_in_the_loops_order_then_the_verdict() {
        let its = vec![spurious(1), spurious(2)];
        let mut reveal = Reveal { enabled: true, ..Reveal::default() };
        reveal.iteration_arrived(1, true);
        assert!(reveal.shows(0, Phase::Predicates), "earlier iterations are shown in full");
        assert!(reveal.shows(1, Phase::BooleanProgram));
        assert!(!reveal.shows(1, Phase::Counterexample));
        assert!(reveal.hides_verdict());
        let mut seen = vec![Phase::BooleanProgram];
        while let Some(p) = reveal.next_phase(&its) {
            reveal.advance(&its);
            seen.push(p);
        }
        assert_eq!(seen, Phase::ALL.to_vec());
        assert!(!reveal.hides_verdict());
        assert!(reveal.shows(1, Phase::Predicates));
    }

    #[test]
    fn a_safe_boolean_program_has_one_phase_and_unstepped_runs_show_everything() {
        let safe = vec![IterationSnapshot::default()];
        let mut reveal = Reveal { enabled: true, ..Reveal::default() };
        reveal.iteration_arrived(0, true);
        assert_eq!(reveal.next_phase(&safe), None, "nothing but the boolean program");
        reveal.iteration_arrived(0, false);
        assert_eq!(reveal.current, None, "Run shows iterations whole");
        let mut off = Reveal::default();
        off.iteration_arrived(0, true);
        assert_eq!(off.current, None);
    }

    #[test]
    fn a_walk_goes_through_a_runs_iterations_phase_by_phase_and_jumps_to_a_picked_one() {
        let its = vec![spurious(1), spurious(2), spurious(3)];
        let mut reveal = Reveal::default();
        reveal.walk_from(0);
        reveal.iteration_arrived(1, false);
        reveal.iteration_arrived(2, false);
        assert_eq!(reveal.current, Some((0, Phase::BooleanProgram)), "later iterations wait");
        assert!(!reveal.shows(1, Phase::BooleanProgram) && reveal.hides_verdict());
        let mut seen = Vec::new();
        while reveal.current.is_some_and(|(i, _)| i == 0) {
            reveal.advance(&its);
            seen.extend(reveal.current);
        }
        assert_eq!(
            seen,
            [(0, Phase::Counterexample), (0, Phase::Feasibility), (0, Phase::Predicates), (1, Phase::BooleanProgram)],
            "the last phase on its own, then the next iteration"
        );
        reveal.pick(0);
        assert_eq!(reveal.current, Some((1, Phase::BooleanProgram)), "an earlier pick changes nothing");
        reveal.pick(2);
        assert_eq!(reveal.current, Some((2, Phase::BooleanProgram)));
        assert!(reveal.shows(1, Phase::Predicates), "those before the picked one are shown in full");
        while reveal.current.is_some() {
            reveal.advance(&its);
        }
        assert!(!reveal.walk && !reveal.hides_verdict(), "after the last iteration: the verdict");
    }

    #[test]
    fn phase_keys_round_trip() {
        for p in Phase::ALL {
            assert_eq!(Phase::from_key(p.key()), Some(p));
        }
        assert_eq!(Phase::from_key("verdict"), None);
    }
}

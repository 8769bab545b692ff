//! The gallery's labs against the engine: every sealed answer is the answer the engine gives
//! under the lab's own settings, and every goal is reachable (issue 31: lab and tool cannot
//! disagree). `PREDABS_WRITE_LABS=1` rewrites `tests/labs/*.lab.json` from
//! `lab::gallery_drafts` with the engine's answers (review the diff: the hints name them).

use playground_api::lab::{self, engine_answer, Lab, Mark, Question, RunSummary, Submission};
use playground_api::{examples, run, Outcome, Request};

fn run_request(request: &Request) -> Outcome {
    let mut request = request.clone();
    request.options.timeout_ms = 120_000;
    run(&request, &mut |_| {}, &|| false)
}

#[test]
fn gallery_labs_agree_with_the_engine() {
    let drafts = lab::gallery_drafts();
    assert_eq!(drafts.len(), lab::GALLERY.len());
    for draft in drafts {
        let outcome = run_request(&draft.request);
        let mut filled = draft.clone();
        let missing = filled.fill_answers(&outcome);
        assert!(missing.is_empty(), "{}: the run cannot answer {missing:?}", draft.id);
        let sealed = filled.seal().unwrap_or_else(|e| panic!("{}: {e}", draft.id));
        let path = format!("{}/../../tests/labs/{}.lab.json", env!("CARGO_MANIFEST_DIR"), draft.id);
        if std::env::var_os("PREDABS_WRITE_LABS").is_some() {
            std::fs::write(&path, sealed.to_file() + "\n").expect("write the lab");
            for task in &filled.tasks {
                eprintln!("{}: {:?} -> {:?}", draft.id, task.question, task.answer);
            }
        }
        let shipped = lab::gallery_lab(&draft.id).expect("in the gallery").unwrap_or_else(|e| panic!("{}: {e}", draft.id));
        assert_eq!(shipped, sealed, "{path} is not its draft sealed with the engine's answers (PREDABS_WRITE_LABS=1 rewrites it)");
        // the shipped lab's own run, with its locks applied, answers every task right
        let mut request = shipped.request();
        shipped.enforce(&mut request);
        let mut expected = draft.request.clone();
        expected.file_name = request.file_name.clone();
        assert_eq!(request, expected, "{}: the lab's request", draft.id);
        let summary = RunSummary::new(&shipped.source, &outcome);
        let mut progress = Submission::start(&shipped);
        for (i, task) in shipped.tasks.iter().enumerate() {
            let mark = match &task.question {
                Question::MakeSafe => continue,
                Question::FreeText => progress.answer(&shipped, i, "an answer", None, None),
                q => {
                    let answer = engine_answer(q, &outcome).expect("answered").unwrap_or_default();
                    progress.answer(&shipped, i, &answer, Some(&summary), None)
                }
            };
            assert!(matches!(mark, Mark::Right | Mark::Recorded), "{} task {}: {mark:?}", draft.id, i + 1);
        }
        let review = shipped.review(&Submission::from_file(&progress.to_file()).expect("reads back")).expect("its own lab");
        assert!(review.rows.iter().all(|r| r.agrees));
        // the link opens the same lab
        assert_eq!(Lab::from_link(&shipped.to_link()).as_ref(), Ok(&shipped));
    }
}

#[test]
fn testdev_lab_is_three_iterations_to_the_bug_then_the_fix() {
    let lab = lab::gallery_lab("boop-testdev").expect("shipped").expect("valid");
    let outcome = run_request(&lab.request());
    assert_eq!(outcome.iterations.len(), 3, "{}", outcome.reason);
    let fix = lab.tasks.iter().position(|t| t.question == Question::MakeSafe).expect("a fix task");
    // the unchanged program is no fix; BOOP's fixed driver is
    assert_eq!(lab.check(fix, "", Some(&RunSummary::new(&lab.source, &outcome))), Mark::NotYet);
    let mut fixed = lab.request();
    fixed.source = examples::TESTDEV_FIXED.to_string();
    let fixed_outcome = run_request(&fixed);
    assert_eq!(lab.check(fix, "", Some(&RunSummary::new(&fixed.source, &fixed_outcome))), Mark::Right, "{}", fixed_outcome.reason);
    // a wrong prediction of iteration 2's predicate gets a hint
    let new = lab.tasks.iter().position(|t| matches!(t.question, Question::NewPredicates { iteration: 2 })).expect("a refinement task");
    assert_eq!(lab.check(new, "usecount == 1", None), Mark::Wrong);
    assert!(lab.tasks[new].hint_after(1).is_some());
}

#[test]
fn partition_lab_asks_about_the_lattice_and_the_invariant_at_l() {
    let lab = lab::gallery_lab("c2bp-partition").expect("shipped").expect("valid");
    let outcome = run_request(&lab.request());
    let invariant = lab.tasks.iter().position(|t| matches!(t.question, Question::InvariantAt { .. })).expect("an invariant task");
    let at_l = engine_answer(&lab.tasks[invariant].question, &outcome).expect("an invariant at L").unwrap_or_default();
    assert_eq!(lab.check(invariant, &at_l, None), Mark::Right);
    // the same invariant in the paper's spelling (C2BP Fig 1: curr != NULL, prev->val <= v)
    let mut reordered: Vec<&str> = at_l.split(" && ").collect();
    reordered.reverse();
    assert_eq!(lab.check(invariant, &reordered.join(" && "), None), Mark::Right, "{at_l}");
    let paper = "{curr != NULL} && {curr->val > v} && ({prev->val <= v} || {prev == NULL})";
    assert_eq!(lab.check(invariant, paper, None), Mark::Right, "{at_l}");
    assert_eq!(lab.check(invariant, "{curr == NULL}", None), Mark::Wrong);
    let cube_tasks = lab.tasks.iter().filter(|t| matches!(t.question, Question::ImplyingCubes { .. })).count();
    assert!(cube_tasks >= 2);
}

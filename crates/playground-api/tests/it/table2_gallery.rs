//! C2BP Table 2 (§6.2) in the gallery: kmp, qsort, listfind and reverse (Fig. 3's `mark` with
//! the `h`/`hnext` instrumentation and the paper's 7 predicates). Each lab note lists the
//! paper's row beside this tool's rows; every row quoted for this tool is recomputed here under
//! the settings it names, so the note is the golden file: a note cannot drift from the tool (on
//! a mismatch the message prints the row the tool gives).

use super::example_request;
use playground_api::{examples, run, Outcome, Precision, Strategy, Verdict};

/// C2BP Table 2 as printed: program, lines, predicates, theorem prover calls, seconds.
const TABLE_2: [(&str, u32, u32, u32, u32); 4] =
    [("kmp", 75, 4, 286, 7), ("qsort", 45, 2, 199, 5), ("listfind", 37, 6, 4412, 172), ("reverse", 73, 7, 26769, 747)];

/// The settings a row of ours names (besides the entry's own).
#[derive(Clone, Copy)]
enum Run<'a> {
    /// The entry as it opens: strategy exact, its predicates.
    Entry,
    Lattice,
    BooleanPrecision,
    /// The entry with other predicates (a block the note quotes).
    Predicates(&'a str),
}

fn example(id: &str) -> &'static examples::Example {
    examples::by_id(id).unwrap_or_else(|| panic!("no example {id}"))
}

fn outcome(id: &str, settings: Run) -> Outcome {
    let mut req = example_request(example(id));
    match settings {
        Run::Entry => {}
        Run::Lattice => req.options.strategy = Strategy::Lattice,
        Run::BooleanPrecision => req.options.precision = Precision::Boolean,
        Run::Predicates(p) => req.predicates = p.to_string(),
    }
    run(&req, &mut |_| {}, &|| false)
}

/// Lines as `bench_wasm::abstraction_bench` counts them: not blank, not a `//` comment.
fn lines(source: &str) -> usize {
    source.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with("//")).count()
}

fn verdict_word(v: Verdict) -> &'static str {
    match v {
        Verdict::Safe => "SAFE",
        Verdict::Unsafe => "UNSAFE",
        Verdict::Unknown => "UNKNOWN",
    }
}

/// Runs `id` under `settings`, checks that its note quotes the row `label` with the tool's
/// numbers, and returns the outcome for further checks.
fn check_row(id: &str, label: &str, settings: Run) -> Outcome {
    let e = example(id);
    let o = outcome(id, settings);
    let s = &o.iterations.first().unwrap_or_else(|| panic!("{id} {label}: no iteration")).statistics;
    let row = format!(
        "- {label}: {} lines, {} predicates, {} prover calls, {} cache hits: {}.",
        lines(e.source),
        s.predicates,
        s.solver_queries,
        s.solver_cache_hits,
        verdict_word(o.verdict)
    );
    assert!(e.lab_note.lines().any(|l| l == row), "{id}: the lab note should quote the tool's row\n{row}\n---\n{}", e.lab_note);
    o
}

/// The paper's row, and the paper's predicate count, which the entry's predicate file has.
fn check_paper_row(id: &str) {
    let e = example(id);
    let &(_, lines, predicates, calls, seconds) = TABLE_2.iter().find(|r| r.0 == id).expect("a Table 2 program");
    let row = format!("- C2BP, Table 2: {lines} lines, {predicates} predicates, {calls} prover calls, {seconds} s: ");
    assert!(e.lab_note.lines().any(|l| l.starts_with(&row)), "{id}: no paper row `{row}`");
    // the predicates the note names are the entry's, one per line of the predicate file
    let listed: Vec<&str> = e.predicates.lines().map(|l| l.trim().trim_end_matches(',')).filter(|l| !l.is_empty() && !l.contains('{') && *l != "}").collect();
    assert_eq!(listed.len(), predicates as usize, "{id}: Table 2's predicate count");
    for p in listed {
        assert!(e.lab_note.contains(&format!("`{p}`")), "{id}: the note names the predicate `{p}`");
    }
}

fn program_text(o: &Outcome) -> &str {
    &o.iterations[0].boolean_program.text
}

fn error_reachable(id: &str, o: &Outcome) {
    assert_eq!(o.verdict, Verdict::Unknown, "{id}: {}", o.reason);
    assert!(o.reason.contains("error is reachable in the boolean program"), "{id}: {}", o.reason);
}

/// The predicate file a note quotes in one line of inline code, for pasting.
fn quoted_predicates<'n>(note: &'n str, procedure: &str) -> &'n str {
    let start = note.find(&format!("`{procedure} {{")).expect("a quoted predicate file") + 1;
    let len = note[start..].find('`').expect("the quote's end");
    &note[start..start + len]
}

/// Called from `lab_notes_agree_with_the_tool_under_their_settings`.
pub(crate) fn table_2_notes_agree() {
    for (id, ..) in TABLE_2 {
        check_paper_row(id);
    }

    // kmp: the bounds check of str[i] with index >= 0, index < length
    let kmp = check_row("kmp", "predabs, exact", Run::Entry);
    assert_eq!(kmp.verdict, Verdict::Safe, "{}", kmp.reason);
    assert!(kmp.invariants.iter().any(|i| i.formula == "{0 <= i} && {i < n}"), "{:?}", kmp.invariants);
    check_row("kmp", "predabs, lattice", Run::Lattice);

    // qsort: Table 2's two predicates leave the error reachable; the note's 7 prove it, each needed
    let qsort = check_row("qsort", "predabs, exact", Run::Entry);
    error_reachable("qsort", &qsort);
    assert!(program_text(&qsort).contains("{i < j} := *;"), "{}", program_text(&qsort));
    let block = quoted_predicates(example("qsort").lab_note, "qsort_partition");
    let safe = check_row("qsort", "predabs, exact, 7 predicates", Run::Predicates(block));
    assert_eq!(safe.verdict, Verdict::Safe, "{}", safe.reason);
    let inner = block.trim_start_matches("qsort_partition {").trim_end_matches('}');
    let seven: Vec<&str> = inner.split(',').map(str::trim).collect();
    assert_eq!(seven.len(), 7);
    for left_out in &seven {
        let rest: Vec<&str> = seven.iter().copied().filter(|p| p != left_out).collect();
        let file = format!("qsort_partition {{\n  {}\n}}\n", rest.join(",\n  "));
        let o = outcome("qsort", Run::Predicates(&file));
        assert_eq!(o.verdict, Verdict::Unknown, "qsort without {left_out}: {}", o.reason);
    }

    // listfind: found = curr copies the predicates on curr; the invariant before the assertion
    let listfind = check_row("listfind", "predabs, exact", Run::Entry);
    assert_eq!(listfind.verdict, Verdict::Safe, "{}", listfind.reason);
    let copy = "{found == NULL}, {found->val == v}, {found == curr} := {curr == NULL}, {curr->val == v}, 1;";
    assert!(program_text(&listfind).contains(copy), "{}", program_text(&listfind));
    assert!(
        listfind.invariants.iter().any(|i| {
            let conjuncts: Vec<&str> = i.formula.split(" && ").collect();
            conjuncts.contains(&"!{found == NULL}") && conjuncts.contains(&"{found->val == v}")
        }),
        "{:?}",
        listfind.invariants
    );
    let lattice = check_row("listfind", "predabs, lattice", Run::Lattice);
    let s = &lattice.iterations[0].statistics;
    assert!(s.solver_queries + s.solver_cache_hits < 4412 && s.solver_cache_hits > s.solver_queries, "{s:?}");

    // reverse (mark in its paper form): the error stays reachable, and the three statements the
    // note names lose what the proof needs
    let reverse = check_row("reverse", "predabs, exact", Run::Entry);
    error_reachable("reverse", &reverse);
    let text = program_text(&reverse);
    for line in [
        "{this == h}, {this->next == hnext}, {prev == this} := *, *, *;",
        "assume({h == NULL} => !{prev == h});",
        ":= *, choose(!{this == h} & {h->next == hnext}, !{this == h} & !{h->next == hnext}), ",
    ] {
        assert!(text.contains(line), "reverse: `{line}` in\n{text}");
    }
    let at_line = |c: u32, needle: &str| reverse.iterations[0].abstract_trace.iter().any(|s| s.c_line == Some(c) && s.statement.contains(needle));
    assert!(at_line(20, "{this == h}, {this->next == hnext}, {prev == this} := *, *, *;"), "the counterexample passes line 20");
    assert!(at_line(38, "assume(!{h->next == hnext})"), "the counterexample fails the assertion at line 38");
    let lattice = check_row("reverse", "predabs, lattice", Run::Lattice);
    error_reachable("reverse (lattice)", &lattice);
    let s = &lattice.iterations[0].statistics;
    assert!(s.solver_queries + s.solver_cache_hits > 26769, "{s:?}");
    let boolean = check_row("reverse", "predabs, exact, boolean precision", Run::BooleanPrecision);
    error_reachable("reverse (boolean precision)", &boolean);
}

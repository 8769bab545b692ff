//! The allocation-site value analysis (`cegar::heap`) against concrete runs: list programs it
//! must prove, programs whose error is reachable (through aliasing, summary cells, memory never
//! written, a bad value stored under a branch) that it must not prove, and random list programs
//! whose SAFE answers and invariants are checked on random executions.

use crate::bmc::lower;
use c_ir::interp::{run_observed, Limits, Outcome};
use c_ir::Program;
use analyses::heap::{analyze, HeapResult};

use proptest::prelude::*;

const LIST: &str = "#include <stdlib.h>\nstruct node { int h; struct node *n; };\n";

/// Runs the program `runs` times with inputs from `next`: every invariant holds whenever its
/// statement is reached, and no run reaches the error when the analysis says SAFE. Returns
/// whether some run reaches the error.
fn agree_with_runs(program: &Program, result: &HeapResult, source: &str, runs: u64) -> bool {
    let mut reached = false;
    for seed in 0..runs {
        let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut next = |_: &c_ir::Type| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            // loop conditions stop after a few rounds; data values are small
            (state % 4) as i128
        };
        let mut violations = Vec::new();
        let mut observe = |at: c_ir::StmtRef, st: &c_ir::interp::State| {
            for inv in result.invariants.iter().filter(|i| i.at == at) {
                if st.eval(&inv.formula) == Some(0) {
                    violations.push(inv.text.clone());
                }
            }
        };
        let run = run_observed(program, &mut next, &Limits::new(100_000), &mut observe);
        assert!(violations.is_empty(), "run {seed}: invariants violated {violations:?}:\n{source}");
        reached |= run.outcome == Outcome::ReachedError;
    }
    assert!(!(result.safe && reached), "the analysis says SAFE, a run reaches the error:\n{source}");
    reached
}

fn analyzed(body: &str) -> (Program, Option<HeapResult>, String) {
    let source = format!("{LIST}{body}");
    let program = lower(&source);
    let result = analyze(&program, &|| false);
    (program, result, source)
}

fn proved(body: &str) -> HeapResult {
    let (program, result, source) = analyzed(body);
    let result = result.unwrap_or_else(|| panic!("the analysis gives up:\n{source}"));
    assert!(result.safe, "not proved:\n{source}");
    assert!(!agree_with_runs(&program, &result, &source, 300));
    result
}

/// The error is reachable (some run shows it): the analysis must not say SAFE.
fn not_proved(body: &str) {
    let (program, result, source) = analyzed(body);
    if let Some(result) = result {
        assert!(agree_with_runs(&program, &result, &source, 300), "no run reaches the error; the test program is wrong:\n{source}");
        assert!(!result.safe, "SAFE, but the error is reachable:\n{source}");
    }
}

#[test]
fn lists_built_forwards_and_backwards_are_proved() {
    // forwards through a tail pointer: the previous node's link is written after the next
    // node is allocated (the second-newest cell keeps it a strong update)
    let forwards = "int main() {
        struct node *head = malloc(sizeof(struct node)); if (!head) return 0;
        struct node *tail = head, *fresh;
        while (__VERIFIER_nondet_uchar()) {
          tail->h = 7; fresh = malloc(sizeof(struct node)); if (!fresh) return 0;
          tail->n = fresh; tail = tail->n;
        }
        tail->h = 7; tail->n = 0;
        for (struct node *it = head; it; it = it->n) if (it->h != 7) reach_error();
        return 0; }";
    let result = proved(forwards);
    assert!(result.invariants.iter().any(|i| i.text.contains("->h == 7")), "{:?}", result.invariants.iter().map(|i| &i.text).collect::<Vec<_>>());
    // backwards: each new node becomes the head
    proved(
        "int main() {
        struct node *list = 0, *cell;
        while (__VERIFIER_nondet_uchar()) {
          cell = malloc(sizeof(struct node)); if (cell == 0) return 1;
          cell->h = 3; cell->n = list; list = cell;
        }
        while (list != 0) { if (list->h != 3) reach_error(); cell = list->n; free(list); list = cell; }
        return 0; }",
    );
}

#[test]
fn data_from_input_helpers_and_two_fields_are_proved() {
    // values chosen by input within a range, nodes made by a helper, two data fields
    proved(
        "struct pair { int lo; int hi; struct pair *next; };
        struct pair *make(struct pair *next, int v) {
          struct pair *p = malloc(sizeof(struct pair)); if (!p) abort();
          p->lo = v; p->hi = v + 10; p->next = next; return p; }
        int main() {
          struct pair *l = 0;
          while (__VERIFIER_nondet_uchar()) {
            int v = __VERIFIER_nondet_uchar(); if (v > 5) v = 5;
            l = make(l, v);
          }
          while (l) { if (l->lo > 5 || l->hi < 10 || l->hi > 15) reach_error(); l = l->next; }
          return 0; }",
    );
}

#[test]
fn reachable_errors_are_not_proved() {
    // a node gets a bad value on some iterations
    not_proved(
        "int main() {
        struct node *l = 0, *c;
        while (__VERIFIER_nondet_uchar()) {
          c = malloc(sizeof(struct node)); if (!c) return 0;
          c->h = __VERIFIER_nondet_uchar() == 2 ? 2 : 1; c->n = l; l = c;
        }
        while (l) { if (l->h != 1) reach_error(); l = l->n; }
        return 0; }",
    );
    // aliasing: a write through another pointer to the same cell
    not_proved(
        "int main() {
        struct node *p = malloc(sizeof(struct node)); if (!p) return 0;
        struct node *q = p; p->h = 1;
        if (__VERIFIER_nondet_uchar()) q->h = 2;
        if (p->h != 1) reach_error();
        return 0; }",
    );
    // a write to an older cell (in the summary) must not be lost
    not_proved(
        "int main() {
        struct node *l = 0, *c;
        for (int i = 0; i < 4; i++) {
          c = malloc(sizeof(struct node)); if (!c) return 0;
          c->h = 1; c->n = l; l = c;
        }
        l->n->n->n->h = 9;
        for (c = l; c; c = c->n) if (c->h != 1) reach_error();
        return 0; }",
    );
    // a write into the summary changes one of its cells: the others keep their value
    not_proved(
        "int main() {
        struct node *l = 0, *c;
        for (int i = 0; i < 4; i++) {
          c = malloc(sizeof(struct node)); if (!c) return 0;
          c->h = 1; c->n = l; l = c;
        }
        l->n->n->h = 9;
        if (l->n->n->n->h == 1) reach_error();
        return 0; }",
    );
    // a cell never written: reading it must not be assumed to give anything in particular
    // (the interpreter reads 0)
    not_proved(
        "int main() {
        struct node *p = malloc(sizeof(struct node)); if (!p) return 0;
        struct node *q = malloc(sizeof(struct node)); if (!q) return 0;
        p->h = 1; p->n = q;
        if (p->n->h != 1) reach_error();
        return 0; }",
    );
    // the value joins over both branches of a loop's first and later iterations
    not_proved(
        "int main() {
        struct node *a = malloc(sizeof(struct node)); if (!a) return 0;
        struct node *p = a, *t; int first = 1;
        while (__VERIFIER_nondet_uchar()) {
          p->h = first ? 5 : 6; first = 0;
          t = malloc(sizeof(struct node)); if (!t) return 0; p->n = t; p = t;
        }
        p->h = 5; p->n = 0;
        for (p = a; p; p = p->n) if (p->h != 5) reach_error();
        return 0; }",
    );
}

#[test]
fn unsupported_programs_get_no_answer() {
    // `&` of a variable and pointer arithmetic are outside the analysis
    let (_, result, _) = analyzed("int main() { int x = 1; int *p = &x; *p = 2; if (x != 2) reach_error(); return 0; }");
    assert!(result.is_none());
    let (_, result, _) = analyzed(
        "int main() { int *a = malloc(4 * sizeof(int)); if (!a) return 0; int *b = a + 1; *b = 3; *a = 1; if (*b != 3) reach_error(); return 0; }",
    );
    assert!(result.map_or(true, |r| !r.safe));
}

/// A statement of a random list program over pointers `p`, `q` (and the list `l`).
#[derive(Clone, Debug)]
enum Step {
    Push(i32),
    Store(&'static str, i32),
    Advance(&'static str),
    Reset(&'static str),
    Copy(&'static str, &'static str),
    Check(&'static str, bool, i32),
    Loop(Vec<Step>),
    Branch(Vec<Step>, Vec<Step>),
}

fn pointer() -> impl Strategy<Value = &'static str> {
    prop_oneof![Just("p"), Just("q")]
}

fn step() -> impl Strategy<Value = Step> {
    let leaf = prop_oneof![
        (0..3i32).prop_map(Step::Push),
        (pointer(), 0..3i32).prop_map(|(x, v)| Step::Store(x, v)),
        pointer().prop_map(Step::Advance),
        pointer().prop_map(Step::Reset),
        (pointer(), pointer()).prop_map(|(a, b)| Step::Copy(a, b)),
        (pointer(), any::<bool>(), 0..3i32).prop_map(|(x, equal, v)| Step::Check(x, equal, v)),
    ];
    leaf.prop_recursive(2, 12, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 1..4).prop_map(Step::Loop),
            (proptest::collection::vec(inner.clone(), 1..3), proptest::collection::vec(inner, 0..3)).prop_map(|(a, b)| Step::Branch(a, b)),
        ]
    })
}

fn render_steps(steps: &[Step], out: &mut String) {
    for s in steps {
        match s {
            Step::Push(v) => out.push_str(&format!(
                "c = malloc(sizeof(struct node)); if (!c) return 0; c->h = {v}; c->n = l; l = c;\n"
            )),
            Step::Store(x, v) => out.push_str(&format!("if ({x}) {x}->h = {v};\n")),
            Step::Advance(x) => out.push_str(&format!("if ({x}) {x} = {x}->n;\n")),
            Step::Reset(x) => out.push_str(&format!("{x} = l;\n")),
            Step::Copy(a, b) => out.push_str(&format!("{a} = {b};\n")),
            Step::Check(x, equal, v) => {
                let op = if *equal { "==" } else { "!=" };
                out.push_str(&format!("if ({x} && {x}->h {op} {v}) reach_error();\n"))
            }
            Step::Loop(body) => {
                out.push_str("while (__VERIFIER_nondet_uchar()) {\n");
                render_steps(body, out);
                out.push_str("}\n");
            }
            Step::Branch(a, b) => {
                out.push_str("if (__VERIFIER_nondet_uchar()) {\n");
                render_steps(a, out);
                out.push_str("} else {\n");
                render_steps(b, out);
                out.push_str("}\n");
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, .. ProptestConfig::default() })]

    /// Random list programs: a SAFE answer means no random run reaches the error, and the
    /// invariants hold on every run.
    #[test]
    fn random_list_programs_agree_with_concrete_runs(steps in proptest::collection::vec(step(), 1..8)) {
        // a list of some length first, so that the pointers reach summarised cells
        let mut body = String::from("int main() { struct node *l = 0, *c, *p, *q;\n");
        render_steps(&[Step::Loop(vec![Step::Push(1)])], &mut body);
        body.push_str("p = l; q = l;\n");
        render_steps(&steps, &mut body);
        body.push_str("return 0; }\n");
        let (program, result, source) = analyzed(&body);
        if let Some(result) = result {
            agree_with_runs(&program, &result, &source, 200);
        }
    }
}

#[test]
fn conditions_refine_pointers_through_conversions() {
    // `(void *)0 != l` is a conversion of `l`: inside the loop `l` is not null
    proved(
        "int main() {
        struct node *l = 0, *c;
        while (__VERIFIER_nondet_uchar()) {
          c = malloc(sizeof(struct node)); if (!c) return 0;
          c->h = 1; c->n = l; l = c;
        }
        while ((void *)0 != l) { if ((void *)0 == l) reach_error(); if ((long)l->h != 1L) reach_error(); l = l->n; }
        return 0; }",
    );
}

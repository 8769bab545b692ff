//! The paper's two worked examples (appendix log step by step, the `tr` fragment) and
//! golden files for the other examples.

use crate::{analysis, fixture, no_space, read_fixture, squeeze};
use expect_test::{expect, expect_file};
use hiding::transform::{transform, NondetStyle, TransformOptions};

/// The appendix log, exactly as the paper prints it (up to padding).
const PAPER_STEPS: [&str; 4] = [
    "line 6: move xx <--- move d
line 6: move yy <--- move d
line 16: (global) i <--- move d",
    "line 7: move r <--- move xx, move yy
line 8: move r <--- (global) i, (global) i
line 8: (global) nametab <--- (global) i, (global) i
line 14: main p <--- (global) i
line 14: (global) nametab <--- (global) i
line 15: (global) nametab <--- (global) i, (global) i",
    "line 9: (global) move <--- move r
line 16: move q <--- main p
line 17: main nullstr <--- main p",
    "line 16: main newp <--- (global) move",
];

#[test]
fn appendix_log_step_by_step_matches_the_paper() {
    let mut a = analysis("appendix.c", "appendix.abs");
    for (k, expected) in PAPER_STEPS.iter().enumerate() {
        let step = a.step();
        assert!(!step.is_empty(), "step {} inferred nothing", k + 1);
        let width = 0;
        let text: Vec<String> = step.iter().map(|i| a.log_line(i, width)).collect();
        assert_eq!(squeeze(&text.join("\n")), *expected, "step {}", k + 1);
    }
    assert!(a.step().is_empty(), "step 5 must infer nothing");
    assert!(a.closed);
    // after one step the file holds, besides `move d`, (global) i, move xx, move yy
    let mut one = analysis("appendix.c", "appendix.abs");
    one.step();
    assert_eq!(one.abstraction_file(), "move d\n(global) i\nmove xx\nmove yy\n");
    // all 11 variables of the program, and the printf warning in the paper's words
    assert_eq!(a.hidden.len(), 11);
    assert_eq!(
        a.warnings_text(),
        "*** abC: WARNING (line 18): call to external (or builtin) function; cannot analyze definition - assuming concrete result returned unless specified in abstraction list\n"
    );
    expect_file!["../../../../tests/hiding/appendix.log"].assert_eq(&a.log_text());
    expect_file!["../../../../tests/hiding/appendix.closed.abs"].assert_eq(&a.abstraction_file());
}

#[test]
fn appendix_why_chains_go_back_to_the_initial_file() {
    let mut a = analysis("appendix.c", "appendix.abs");
    a.closure();
    let nametab = a.program.lookup(&hiding::Scope::Global, "nametab").unwrap();
    let chain: Vec<String> = a.why(nametab).iter().map(|l| a.program.describe(l.var)).collect();
    assert_eq!(chain, ["(global) nametab", "(global) i", "move d"]);
    let text = a.why_text(nametab);
    assert!(text.contains("line 8 (rule 2b"), "{text}");
    assert!(text.contains("line 16 (rule 2a"), "{text}");
    // the hidden pointer d may point to i only
    let d = a.program.lookup(&hiding::Scope::Function("move".into()), "d").unwrap();
    let i = a.program.lookup(&hiding::Scope::Global, "i").unwrap();
    assert_eq!(a.points_to(d), vec![i]);
}

#[test]
fn tr_example_gives_the_papers_output() {
    let mut a = analysis("tr_fragment.c", "tr_fragment.abs");
    a.closure();
    assert_eq!(a.steps, 1, "{{a, m, n}} is closed");
    let t = transform(&a.program, &a.source, &a.hidden, TransformOptions::default());
    assert!(no_space(&t.text).contains(&no_space("if (NONDET) { ( i++, b[j++] = ( k++, k ) ); }")), "{}", t.text);
    expect_file!["../../../../tests/hiding/tr_fragment.out.c"].assert_eq(&t.text);
}

/// Log, new file, warnings and transformed program (with its line map) of one example.
fn report(c: &str, abs: &str, nondet: NondetStyle) -> String {
    let mut a = analysis(c, abs);
    a.closure();
    let t = transform(&a.program, &a.source, &a.hidden, TransformOptions { nondet, ..Default::default() });
    let mut out = format!("== log\n{}== abstraction file\n{}== warnings\n{}== transformed\n", a.log_text(), a.abstraction_file(), a.warnings_text());
    for (k, line) in t.text.lines().enumerate() {
        let src = t.source_line(k as u32 + 1).map(|l| l.to_string()).unwrap_or_else(|| "-".into());
        out.push_str(&format!("{src:>3} | {line}\n"));
    }
    out.push_str("== inference details\n");
    for inf in &a.inferences {
        let d = a.detail(inf);
        let keys: Vec<String> = d.keys.iter().map(|v| a.program.describe(*v)).collect();
        let occ: Vec<String> = d.occurrences.iter().map(|(v, s)| format!("{}@{}", a.program.var(*v).name, &a.source[s.start as usize..s.end as usize])).collect();
        out.push_str(&format!("step {} line {} rule {}: {}  keys [{}]  abstract [{}]\n", inf.step, inf.line, inf.rule.name(), d.store, keys.join(", "), occ.join(", ")));
    }
    out.push_str("== edits\n");
    for e in &t.edits {
        let vars: Vec<String> = e.vars.iter().map(|v| a.program.describe(*v)).collect();
        out.push_str(&format!("line {}: {:?} ({})\n", e.line, e.kind, vars.join(", ")));
    }
    let s = a.size();
    out.push_str(&format!("== size\n{} of {} variables, {} of {} bits hidden\n", s.hidden_variables, s.variables, s.hidden_bits, s.bits));
    out
}

#[test]
fn examples_golden() {
    expect_file!["../../../../tests/hiding/appendix.report"].assert_eq(&report("appendix.c", "appendix.abs", NondetStyle::Token));
    expect_file!["../../../../tests/hiding/pointer_chain.report"].assert_eq(&report("pointer_chain.c", "pointer_chain.abs", NondetStyle::Token));
    expect_file!["../../../../tests/hiding/spurious.report"].assert_eq(&report("spurious.c", "spurious.abs", NondetStyle::Macro));
    expect_file!["../../../../tests/hiding/real_bug.report"].assert_eq(&report("real_bug.c", "real_bug.abs", NondetStyle::Token));
    expect_file!["../../../../tests/hiding/driver.report"].assert_eq(&report("driver.c", "driver.abs", NondetStyle::Token));
    expect_file!["../../../../tests/hiding/footnotes.report"].assert_eq(&footnotes());
}

/// Footnote 4 (`a[NONDET] = v` keeps `a`) and footnote 5 (a set that is not closed).
fn footnotes() -> String {
    let source = read_fixture("footnotes.c");
    let abs = "main i\n";
    let mut out = String::new();
    for array_nondet_index in [false, true] {
        let options = hiding::InferOptions { array_nondet_index };
        let mut a = hiding::Analysis::new(&source, "footnotes.c", abs, options).unwrap();
        a.closure();
        let t = transform(&a.program, &source, &a.hidden, TransformOptions { array_nondet_index, nondet: NondetStyle::Token });
        out.push_str(&format!("== array_nondet_index = {array_nondet_index}\n{}{}", a.log_text(), t.text));
    }
    let a = hiding::Analysis::new(&source, "footnotes.c", abs, Default::default()).unwrap();
    let t = transform(&a.program, &source, &a.hidden, TransformOptions::default());
    out.push_str(&format!("== transform-only (not closed: {})\n{}", !a.is_closed_set(), t.text));
    let _ = fixture("footnotes.c");
    out
}

/// The `for` initializer and multi-declarator edge cases of `tr`: a hidden declarator whose
/// initializer has side effects keeps them, in the order of evaluation, also in a `for`.
#[test]
fn hidden_declarators_keep_their_effects_in_order() {
    let source = "int n;\nint f(void) { n = n * 10 + 1; return n; }\nint g(void) { n = n * 10 + 2; return n; }\n\
int main(void) {\n  int h = f(), i = g();\n  for (int k = f(), j = 0; j < 2; j++) { i = i + j; }\n  for (int k2 = 0, m = g(); k2 < 1; k2++) { }\n  return i;\n}\n";
    let mut a = hiding::Analysis::new(source, "for.c", "main h\nmain k\nmain m\n", Default::default()).unwrap();
    a.closure();
    let t = transform(&a.program, source, &a.hidden, TransformOptions::default());
    expect![[r#"
        int n;
        int f(void)
        {
            n = n * 10 + 1;
            return n;
        }
        int g(void)
        {
            n = n * 10 + 2;
            return n;
        }
        int main(void)
        {
            f();
            int i = g();
            {
                f();
                int j = 0;
                for (; j < 2; j++) {
                    i = i + j;
                }
            }
            {
                int k2 = 0;
                g();
                for (; k2 < 1; k2++) {
                }
            }
            return i;
        }
    "#]]
    .assert_eq(&t.text);
}

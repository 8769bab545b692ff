//! `predabs bench --budget 0 --timeout S` (issue 33): with the work budget off, the safety time
//! limit ends a task that does not finish, the row says so, and the summary reports how far
//! past the limit the longest such task ran (the overshoot benchmark of docs/bench-sv-comp.md).

use super::predabs;

/// A loop no candidate invariant proves (a sum of squares): the loop refines until stopped. It
/// is safe: 2^33 would have to divide n(n + 1), impossible for 0 < n < 2^32.
const ENDLESS: &str = "extern unsigned int __VERIFIER_nondet_uint(void);
void reach_error(void);
int main(void) {
  unsigned int n = __VERIFIER_nondet_uint();
  unsigned int i = 0, s = 0;
  while (i < n) { i++; s = s + i * i; }
  if (i > 0 && s == 0) reach_error();
  return 0;
}
";

#[test]
fn the_safety_limit_ends_a_task_and_the_summary_reports_the_overshoot() {
    let dir = std::env::temp_dir().join(format!("predabs-bench-limit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch folder");
    std::fs::write(dir.join("squares.c"), ENDLESS).expect("write the program");
    std::fs::write(
        dir.join("squares.yml"),
        "format_version: '2.0'\ninput_files: 'squares.c'\nproperties:\n  - property_file: ../properties/unreach-call.prp\n    expected_verdict: true\noptions:\n  language: C\n  data_model: ILP32\n",
    )
    .expect("write the task");
    let out = predabs()
        .args(["bench", dir.to_str().unwrap(), "--budget", "0", "--timeout", "2", "--max-iterations", "1000"])
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    let row = stdout.lines().find(|l| l.starts_with("squares")).unwrap_or_else(|| panic!("a row: {stdout}"));
    assert!(row.contains(" unknown ") && row.contains("stopped by this machine's time"), "{row}");
    assert!(stdout.contains("0 correct, 0 wrong, 1 unknown"), "{stdout}");
    let summary = stdout.lines().find(|l| l.starts_with("time limit: 1 task(s) ended by the 2 s safety limit, the longest after ")).unwrap_or_else(|| panic!("no overshoot line: {stdout}"));
    assert!(summary.ends_with("% over)"), "{summary}");
    let _ = std::fs::remove_dir_all(&dir);
}

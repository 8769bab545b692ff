//! Measuring one test in a child process (the memory tests of issue 33, here and in
//! `model-check`, which includes this file): the child is this test binary running only that
//! test, so that other tests do not move its peak resident memory.

/// The process's peak resident memory (`VmHWM`) in KiB, 0 where `/proc` has none.
pub fn peak_resident_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status.lines().find_map(|l| l.strip_prefix("VmHWM:")).and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok()).unwrap_or(0)
}

/// Runs the test `name` (its full path in the binary) alone in a child with the environment
/// variable `marker` set (the test checks it to know it is the child); the child's stdout,
/// after checking that it passed.
pub fn run_child(name: &str, marker: &str) -> String {
    let out = std::process::Command::new(std::env::current_exe().expect("test binary"))
        .args([name, "--exact", "--nocapture", "--test-threads=1"])
        .env(marker, "1")
        .output()
        .expect("run the child");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    stdout
}

/// The value the child printed as `name…` (the harness prints the test's name on the line of
/// the child's first output, so the field is looked for anywhere in a line).
pub fn field(stdout: &str, name: &str) -> String {
    stdout.lines().find_map(|l| l.find(name).map(|at| &l[at + name.len()..])).map(str::trim).unwrap_or_else(|| panic!("no {name} in {stdout}")).to_string()
}

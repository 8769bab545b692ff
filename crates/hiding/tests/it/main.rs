//! Tests of the `hiding` crate (abC, seed 003). Golden files live in `tests/hiding/`
//! (`UPDATE_EXPECT=1 cargo test -p hiding` updates them).

mod bad_input;
mod golden;
mod properties;
mod random_programs;
mod verdicts;

use std::path::PathBuf;

/// `tests/hiding/<name>` at the workspace root.
pub fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/hiding").join(name)
}

pub fn read_fixture(name: &str) -> String {
    std::fs::read_to_string(fixture(name)).unwrap_or_else(|e| panic!("cannot read {name}: {e}"))
}

/// Runs of spaces and tabs as one space (the paper pads its log freely).
pub fn squeeze(text: &str) -> String {
    text.lines().map(|l| l.split_whitespace().collect::<Vec<_>>().join(" ")).collect::<Vec<_>>().join("\n")
}

/// The text without any whitespace.
pub fn no_space(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

pub fn analysis(c: &str, abs: &str) -> hiding::Analysis {
    let source = read_fixture(c);
    let abstraction = read_fixture(abs);
    hiding::Analysis::new(&source, c, &abstraction, Default::default()).expect("the fixture parses")
}

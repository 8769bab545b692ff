//! Tests of the `hiding` crate (abC, seed 003). Golden files live in `tests/hiding/`
//! (`UPDATE_EXPECT=1 cargo test -p hiding` updates them); the gallery's programs are read
//! from `tests/programs/hide_*.c`, their only copy.

mod bad_input;
mod golden;
mod properties;
mod random_programs;
mod verdicts;

use std::path::PathBuf;

/// The gallery's programs, kept once in `tests/programs/` (as `hide_<name>`).
const GALLERY: [&str; 5] = ["appendix.c", "driver.c", "pointer_chain.c", "spurious.c", "tr_fragment.c"];

/// `tests/hiding/<name>` at the workspace root, or `tests/programs/hide_<name>` for the
/// gallery's programs.
pub fn fixture(name: &str) -> PathBuf {
    let tests = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests");
    if GALLERY.contains(&name) {
        tests.join("programs").join(format!("hide_{name}"))
    } else {
        tests.join("hiding").join(name)
    }
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

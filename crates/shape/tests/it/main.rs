//! Tests of the `shape` crate (seed 004). The examples' C programs are the gallery's, kept once
//! in `tests/programs/` (as `shape_<name>.c`); golden files and hints live in `tests/shape/`.

mod examples;
mod wp_props;
mod spin;
mod abstract_concrete;
mod fuzz;
mod assume;

/// The text of a test input: `<name>.c` is the gallery's `tests/programs/shape_<name>.c`,
/// anything else (hints) is `tests/shape/<name>`.
pub fn fixture(name: &str) -> String {
    let root = format!("{}/../../tests", env!("CARGO_MANIFEST_DIR"));
    let path = if name.ends_with(".c") { format!("{root}/programs/shape_{name}") } else { format!("{root}/shape/{name}") };
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

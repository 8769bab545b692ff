//! Tests of the `shape` crate (seed 004). The examples' C programs are the gallery's, kept once
//! in `tests/programs/` (as `shape_<name>.c`); golden files and hints live in `tests/shape/`.
//! The exhaustive checks enumerate every heap of up to 3 cells up to isomorphism
//! ([`small_heaps`]); `SHAPE_CELLS=N` (or `SHAPE_FULL=1`, 6 cells) goes further.

mod examples;
mod wp_props;
mod spin;
mod abstract_concrete;
mod fuzz;
mod assume;
mod reachable;
mod pictures;

/// The text of a test input: `<name>.c` is the gallery's `tests/programs/shape_<name>.c`,
/// anything else (hints) is `tests/shape/<name>`.
pub fn fixture(name: &str) -> String {
    let root = format!("{}/../../tests", env!("CARGO_MANIFEST_DIR"));
    let path = if name.ends_with(".c") { format!("{root}/programs/shape_{name}") } else { format!("{root}/shape/{name}") };
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The largest heap the exhaustive checks enumerate: `SHAPE_CELLS=N`, or 6 with `SHAPE_FULL=1`,
/// else 3 (the CI form).
pub fn exhaustive_cells() -> u32 {
    match std::env::var("SHAPE_CELLS").ok().and_then(|s| s.trim().parse().ok()) {
        Some(n) => n,
        None if std::env::var_os("SHAPE_FULL").is_some() => 6,
        None => 3,
    }
}

/// Every heap of up to [`exhaustive_cells`] cells, one per isomorphism class of its part the
/// variables reach (`HeapSpace::each_reachable`: cells no variable reaches change nothing).
pub fn small_heaps(space: &shape::concrete::HeapSpace) -> Vec<shape::concrete::Heap> {
    let cells = exhaustive_cells();
    let heaps: Vec<_> = (0..=cells).flat_map(|c| space.reachable_heaps(c)).collect();
    eprintln!("{} heaps of up to {cells} cells", heaps.len());
    heaps
}

/// The checked inputs of a gallery program (`<name>.c`) with one property, preconditions and a
/// hints file (`""`: none), bound 40.
pub fn session(file: &str, proc: &str, property: &str, pre: &[&str], hints: &str) -> shape::Session {
    let req = shape::Request {
        source: fixture(file),
        file_name: file.into(),
        proc: proc.into(),
        properties: vec![property.into()],
        preconditions: pre.iter().map(|s| s.to_string()).collect(),
        bound: 40,
        hints: if hints.is_empty() { String::new() } else { fixture(hints) },
        auto_hints: false,
    };
    shape::prepare(&req).unwrap_or_else(|_| panic!("{file}: refused"))
}

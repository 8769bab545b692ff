//! The `predabs` command-line tool.
fn main() {}

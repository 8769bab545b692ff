//! Reproducible answers (issue #33): the same check request must give the same iterations,
//! predicates and verdict natively and in the browser, on an idle and on a loaded machine.
//!
//! A [`Fingerprint`] is the part of an [`Outcome`] that must not depend on the machine: for each
//! iteration its predicates, abstract counterexample length, feasibility and new predicates,
//! then the verdict, the deciding technique and the final predicates. Times, solver statistics
//! and the wording of reasons are left out. `determinism-native` computes fingerprints for a
//! list of requests natively; the wasm export [`wasm::fingerprint_json`] computes them in a web
//! worker; `scripts/determinism.sh` runs both on the same requests and compares.

use budget::hash::BuildStableHasher;
use playground_api::{Outcome, Request};
use std::hash::BuildHasher;
use serde::{Deserialize, Serialize};

#[cfg(target_arch = "wasm32")]
pub mod wasm;

/// One iteration as far as it must be reproducible.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct IterationPrint {
    pub index: u32,
    pub predicates: String,
    pub abstract_steps: usize,
    pub feasibility: String,
    pub new_predicates: Vec<String>,
    /// The boolean program's text, hashed with [`budget::hash::StableHasher`] (the same
    /// value natively and in wasm), in hexadecimal: as a JSON number it would pass through a
    /// JavaScript double on the browser side and lose its low digits.
    pub boolean_program: String,
}

/// The machine-independent part of one run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fingerprint {
    pub name: String,
    pub verdict: String,
    pub decided_by: Option<String>,
    pub iterations: Vec<IterationPrint>,
    pub final_predicates: String,
    /// The run hit a wall-clock safety limit: then a difference is expected and says so.
    pub stopped_by_clock: bool,
}

/// A named request, as `determinism-native` and the browser driver read them.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct NamedRequest {
    pub name: String,
    pub request: Request,
}

/// The fingerprint of `outcome`.
pub fn fingerprint(name: &str, outcome: &Outcome) -> Fingerprint {
    let decided_by = outcome.decided_by.and_then(|t| serde_json::to_value(t).ok()).and_then(|v| v.as_str().map(str::to_string));
    Fingerprint {
        name: name.to_string(),
        verdict: outcome.verdict.as_str().to_string(),
        decided_by,
        iterations: outcome
            .iterations
            .iter()
            .map(|it| IterationPrint {
                index: it.index,
                predicates: it.predicates.clone(),
                abstract_steps: it.abstract_trace.len(),
                feasibility: it.feasibility.clone(),
                new_predicates: it.new_predicates.clone(),
                boolean_program: format!("{:016x}", BuildStableHasher::default().hash_one(&it.boolean_program.text)),
            })
            .collect(),
        final_predicates: outcome.final_predicates.clone(),
        stopped_by_clock: mentions_clock(&outcome.reason) || mentions_clock(&outcome.next_step),
    }
}

/// Whether a reason names the wall-clock safety limit (display text only: the flag is reported,
/// never used to decide anything in the engine).
fn mentions_clock(text: &str) -> bool {
    let t = text.to_ascii_lowercase();
    t.contains("time limit") || t.contains("timeout") || t.contains("time budget")
}

/// Runs one request and fingerprints the outcome.
pub fn run(named: &NamedRequest) -> Fingerprint {
    let outcome = playground_api::run(&named.request, &mut |_| {}, &|| false);
    fingerprint(&named.name, &outcome)
}

/// `requests` (a JSON array of [`NamedRequest`]) → a JSON array of fingerprints; an error line
/// as JSON string when the input does not parse.
pub fn run_all_json(requests: &str, mut progress: impl FnMut(&Fingerprint)) -> String {
    let requests: Vec<NamedRequest> = match serde_json::from_str(requests) {
        Ok(r) => r,
        Err(e) => return serde_json::to_string(&format!("not a list of requests: {e}")).unwrap_or_default(),
    };
    let prints: Vec<Fingerprint> = requests
        .iter()
        .map(|r| {
            let p = run(r);
            progress(&p);
            p
        })
        .collect();
    serde_json::to_string(&prints).unwrap_or_default()
}

/// The rows of a comparison: (name, same?, first difference).
pub fn compare(native: &[Fingerprint], browser: &[Fingerprint]) -> Vec<(String, bool, String)> {
    native
        .iter()
        .map(|n| match browser.iter().find(|b| b.name == n.name) {
            None => (n.name.clone(), false, "no browser result".to_string()),
            Some(b) if b == n => (n.name.clone(), true, String::new()),
            Some(b) => (n.name.clone(), false, first_difference(n, b)),
        })
        .collect()
}

fn first_difference(a: &Fingerprint, b: &Fingerprint) -> String {
    if a.verdict != b.verdict {
        return format!("verdict {} vs {}", a.verdict, b.verdict);
    }
    if a.decided_by != b.decided_by {
        return format!("decided by {:?} vs {:?}", a.decided_by, b.decided_by);
    }
    for (x, y) in a.iterations.iter().zip(&b.iterations) {
        if x != y {
            return format!("iteration {} differs", x.index);
        }
    }
    if a.iterations.len() != b.iterations.len() {
        return format!("{} vs {} iterations", a.iterations.len(), b.iterations.len());
    }
    "final predicates differ".to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use playground_api::{Mode, Options, Technique};

    fn testdev() -> NamedRequest {
        let example = playground_api::examples::by_id("testdev").expect("testdev is in the gallery");
        NamedRequest {
            name: "testdev".into(),
            request: Request {
                mode: Mode::Check,
                source: example.source.to_string(),
                file_name: "testdev.c".into(),
                predicates: String::new(),
                options: Options { techniques: vec![Technique::Cegar], ..Options::default() },
            },
        }
    }

    #[test]
    fn fingerprints_of_two_runs_agree_and_name_what_differs() {
        let requests = serde_json::to_string(&vec![testdev()]).expect("serialises");
        let first: Vec<Fingerprint> = serde_json::from_str(&run_all_json(&requests, |_| {})).expect("fingerprints");
        let second: Vec<Fingerprint> = serde_json::from_str(&run_all_json(&requests, |_| {})).expect("fingerprints");
        assert_eq!(first[0].verdict, "UNSAFE");
        assert_eq!(first[0].iterations.len(), 3);
        assert!(compare(&first, &second).iter().all(|(_, same, _)| *same));
        let mut changed = second.clone();
        changed[0].iterations[1].new_predicates.push("x == 1".into());
        assert_eq!(compare(&first, &changed)[0].2, "iteration 2 differs");
        assert_eq!(compare(&first, &[])[0].2, "no browser result");
    }

    /// Before the engine's maps had a fixed hasher (`budget::hash`), the final strengthening of
    /// `bump` in this program came out in one of two forms, depending on the order in which a
    /// randomly seeded hash map handed out its entries.
    #[test]
    fn repeated_runs_in_one_process_give_the_same_boolean_programs() {
        let source = include_str!("../../../tests/struct-pointers/make_counter.c");
        let request = NamedRequest {
            name: "make_counter".into(),
            request: Request {
                mode: Mode::Check,
                source: source.to_string(),
                file_name: "make_counter.c".into(),
                predicates: String::new(),
                options: Options { techniques: vec![Technique::Cegar], ..Options::default() },
            },
        };
        let first = run(&request);
        assert_eq!(first.verdict, "SAFE");
        for _ in 0..4 {
            let again = run(&request);
            assert_eq!(again, first);
        }
    }

    #[test]
    fn a_request_list_that_does_not_parse_is_an_error_string() {
        let out = run_all_json("{", |_| {});
        assert!(serde_json::from_str::<String>(&out).expect("a JSON string").starts_with("not a list of requests"));
    }
}

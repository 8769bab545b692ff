//! The invariants view's question (C2BP §2.2): does the invariant at a C label imply a C
//! expression? C2BP derives `prev ≠ curr` at label `L` of partition from the invariant over its
//! four predicates this way. The same engine function as `predabs abstract --query 'LABEL:
//! EXPR'` ([`abstraction::run_queries`]): the program is abstracted with the request's
//! predicates and options, BEBOP computes the invariant at the label, and the decision
//! procedure checks `γ(invariant) ⇒ EXPR` (the concretisation replaces each boolean variable by
//! its predicate). The answer carries the solver query, so the view can show what was asked.

use crate::engine::{abstraction_config, lower_options};
use crate::types::Request;
use serde::{Deserialize, Serialize};

/// What the decision procedure said.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum QueryVerdict {
    /// The invariant implies the expression: `HOLDS`.
    Holds,
    /// It does not: `DOES NOT HOLD`.
    DoesNotHold,
    /// No invariant at the label, or the solver could not decide (see [`QueryAnswer::reason`]).
    Unknown,
    /// The question, the program or the predicates did not parse (see [`QueryAnswer::reason`]).
    Error,
}

impl QueryVerdict {
    /// As the CLI prints it.
    pub fn as_str(self) -> &'static str {
        match self {
            QueryVerdict::Holds => "HOLDS",
            QueryVerdict::DoesNotHold => "DOES NOT HOLD",
            QueryVerdict::Unknown => "UNKNOWN",
            QueryVerdict::Error => "ERROR",
        }
    }
}

/// The answer to one `LABEL: EXPR` question.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct QueryAnswer {
    pub label: String,
    pub expression: String,
    pub verdict: QueryVerdict,
    /// Why the verdict is unknown, or the error message.
    pub reason: String,
    /// BEBOP's invariant at the label over the boolean variables (empty when there is none).
    pub invariant: String,
    /// `γ(invariant) => EXPR` in C syntax, the validity question asked (empty when not asked).
    pub solver_query: String,
    /// `wrap` or `ideal`: the integers of the solver query.
    pub integers: String,
    /// What `predabs abstract --query` prints for it.
    pub text: String,
}

/// Answers `query` (`LABEL: EXPR`) about `request`'s C program abstracted with `predicates` (C2BP
/// syntax; the request's own predicates are ignored, so the view can ask about a Check run's
/// final predicates) under the request's options.
pub fn answer(request: &Request, predicates: &str, query: &str) -> QueryAnswer {
    let mut all = answers(request, predicates, &[query.to_string()]);
    all.pop().unwrap_or_else(|| failure(query, "no query".into(), String::new()))
}

/// The error answer to `query`.
fn failure(query: &str, reason: String, integers: String) -> QueryAnswer {
    QueryAnswer {
        label: String::new(),
        expression: query.trim().to_string(),
        verdict: QueryVerdict::Error,
        text: format!("QUERY {}: ERROR\n{reason}", query.trim()),
        reason,
        invariant: String::new(),
        solver_query: String::new(),
        integers,
    }
}

/// Answers several `LABEL: EXPR` questions with one abstraction and one model check (the
/// playground's "which of these holds at L?" exercise): one answer per query, in order.
pub fn answers(request: &Request, predicates: &str, queries: &[String]) -> Vec<QueryAnswer> {
    let mut config = abstraction_config(&request.options);
    // the lattices of the explain views are not needed for the answer
    config.record_lattices = false;
    let command = abstraction::AbstractCommand {
        source: request.source.clone(),
        file_name: if request.file_name.is_empty() { "program.c".into() } else { request.file_name.clone() },
        predicates: predicates.to_string(),
        lower: lower_options(&request.options),
        config,
        syntax: abstraction::Syntax::Bebop,
        queries: queries.to_vec(),
        invariants: false,
    };
    let integers = command.config.solver.integers.name().to_string();
    let results = match abstraction::run_queries(&command) {
        Ok(results) => results,
        Err(rendered) => return queries.iter().map(|q| failure(q, rendered.trim_end().to_string(), integers.clone())).collect(),
    };
    let mut results = results.into_iter();
    queries
        .iter()
        .map(|query| match results.next() {
            Some(Ok(q)) => {
                let (verdict, reason) = match &q.verdict {
                    abstraction::QueryVerdict::Holds => (QueryVerdict::Holds, String::new()),
                    abstraction::QueryVerdict::DoesNotHold => (QueryVerdict::DoesNotHold, String::new()),
                    abstraction::QueryVerdict::Unknown(why) => (QueryVerdict::Unknown, why.clone()),
                };
                QueryAnswer {
                    text: q.to_text(),
                    label: q.label,
                    expression: q.expression,
                    verdict,
                    reason,
                    invariant: q.invariant.unwrap_or_default(),
                    solver_query: q.solver_query.unwrap_or_default(),
                    integers: integers.clone(),
                }
            }
            Some(Err(d)) => failure(query, d.message, integers.clone()),
            None => failure(query, "no answer".into(), integers.clone()),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::examples::{PARTITION, PARTITION_PREDICATES};
    use crate::types::{Mode, Options};

    fn partition() -> Request {
        Request { mode: Mode::Abstract, source: PARTITION.into(), file_name: "partition.c".into(), predicates: String::new(), options: Options::default() }
    }

    #[test]
    fn c2bp_derives_prev_differs_from_curr_at_l() {
        let a = answer(&partition(), PARTITION_PREDICATES, "L: prev != curr");
        assert_eq!(a.verdict, QueryVerdict::Holds, "{}", a.text);
        assert_eq!((a.label.as_str(), a.expression.as_str()), ("L", "prev != curr"));
        assert!(a.solver_query.ends_with("=> prev != curr"), "{}", a.solver_query);
        assert!(a.solver_query.contains("curr != NULL") || a.solver_query.contains("curr == NULL"), "{}", a.solver_query);
        assert!(a.text.starts_with("QUERY L: prev != curr: HOLDS\n"), "{}", a.text);
        assert_eq!(a.integers, "wrap");
    }

    #[test]
    fn what_the_invariant_leaves_open_does_not_hold() {
        let a = answer(&partition(), PARTITION_PREDICATES, "L: prev == NULL");
        assert_eq!(a.verdict, QueryVerdict::DoesNotHold, "{}", a.text);
        assert!(!a.invariant.is_empty());
    }

    #[test]
    fn bad_questions_are_errors_not_panics() {
        for q in ["no colon here", "NOLABEL: prev != curr", "L: prev !=", ""] {
            let a = answer(&partition(), PARTITION_PREDICATES, q);
            assert_eq!(a.verdict, QueryVerdict::Error, "{q}: {}", a.text);
            assert!(!a.reason.is_empty(), "{q}");
        }
        let a = answer(&Request { source: "int main( {".into(), ..partition() }, "", "L: x");
        assert_eq!(a.verdict, QueryVerdict::Error);
    }

    #[test]
    fn several_questions_are_answered_in_order_from_one_abstraction() {
        let qs: Vec<String> = ["L: prev != curr", "L: prev == NULL", "L: prev !="].iter().map(|q| q.to_string()).collect();
        let all = answers(&partition(), PARTITION_PREDICATES, &qs);
        let verdicts: Vec<QueryVerdict> = all.iter().map(|a| a.verdict).collect();
        assert_eq!(verdicts, [QueryVerdict::Holds, QueryVerdict::DoesNotHold, QueryVerdict::Error]);
        assert_eq!(all[0], answer(&partition(), PARTITION_PREDICATES, "L: prev != curr"));
    }
}

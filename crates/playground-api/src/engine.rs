//! Abstract and Check modes: C + predicates through the abstraction, the model checker and the CEGAR loop.

use crate::run::empty_outcome;
use crate::types::*;

pub(crate) fn run_abstract(_request: &Request, _on_event: &mut dyn FnMut(Event), _cancel: &dyn Fn() -> bool) -> Outcome {
    empty_outcome(Verdict::Unknown, "abstraction is not wired yet", Vec::new())
}

pub(crate) fn run_check(_request: &Request, _on_event: &mut dyn FnMut(Event), _cancel: &dyn Fn() -> bool) -> Outcome {
    empty_outcome(Verdict::Unknown, "the CEGAR loop is not wired yet", Vec::new())
}

//! The examples gallery comes from `playground-api` (shared with the CLI); this module adds
//! what the UI needs on top: the default example and the mode an example opens in.

pub use playground_api::examples::{by_id, Example, ALL};

use crate::model::RunKind;

/// What a first visit shows.
pub fn default_example() -> &'static Example {
    by_id("lock").unwrap_or(&ALL[0])
}

/// The top-bar mode an example opens in.
pub fn mode_of(example: &Example) -> RunKind {
    match example.mode {
        playground_api::Mode::Check => RunKind::Check,
        playground_api::Mode::Abstract => RunKind::Abstract,
        playground_api::Mode::BooleanProgram => RunKind::ModelCheck,
        playground_api::Mode::Hide => RunKind::Hide,
        playground_api::Mode::Shape => RunKind::Shape,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gallery_has_the_seed_programs() {
        for id in ["testdev", "partition", "lock", "counting-loop"] {
            assert!(by_id(id).is_some(), "{id}");
        }
        assert_eq!(mode_of(by_id("boolean-program").unwrap()), RunKind::ModelCheck);
    }
}

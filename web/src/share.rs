//! Share links and saved sessions: the user's whole session (source, predicates, options, mode,
//! selected iteration) as JSON, deflated and base64url-encoded into a versioned URL fragment
//! `#v1,<data>`. The format, its limits and its messages are `playground_api::share` (native,
//! fuzzed by `crates/fuzz-targets`); this module owns the session type. Decoding never panics:
//! every failure is a message for the user.

use crate::model::{Options, RunKind};
use serde::{Deserialize, Serialize};

/// The fragment prefix of the current format.
pub use playground_api::share::PREFIX;

/// What a share link (and local storage) carries.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Session {
    pub source: String,
    pub predicates: String,
    /// Boolean program text for the "Boolean program" mode.
    pub boolean_program: String,
    pub mode: RunKind,
    pub options: Options,
    /// 1-based selected iteration, re-selected after re-running.
    pub selected_iteration: Option<u32>,
    pub example: Option<String>,
    /// Hide mode: the abstraction file and the steps shown.
    pub hide: playground_api::hide::HideSettings,
    /// Shape mode: procedure, properties, preconditions, bound, hints.
    pub shape: playground_api::shape::ShapeSettings,
}

impl Default for Session {
    fn default() -> Session {
        let example = crate::examples::default_example();
        Session {
            source: example.source.to_string(),
            predicates: example.predicates.to_string(),
            boolean_program: crate::examples::by_id("boolean-program").map_or(String::new(), |e| e.source.to_string()),
            mode: crate::examples::mode_of(example),
            options: Options::default(),
            selected_iteration: None,
            example: Some(example.id.to_string()),
            hide: Default::default(),
            shape: Default::default(),
        }
    }
}

/// The fragment (without `#`) for a session.
pub fn encode(session: &Session) -> String {
    playground_api::share::encode(session)
}

/// Reads a fragment (with or without `#`). `Ok(None)` when it is not a share link at all.
pub fn decode(fragment: &str) -> Result<Option<Session>, String> {
    playground_api::share::decode(fragment).map_err(|e| e.message().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Session {
        Session {
            source: "int main(void) { int x = 0; assert(x == 0); }\n<script>alert(1)</script>".into(),
            predicates: "main { x == 0 }".into(),
            boolean_program: String::new(),
            mode: RunKind::Abstract,
            options: Options { int_width: 8, work_budget: 1_234_567, ..Options::default() },
            selected_iteration: Some(2),
            example: None,
            hide: playground_api::hide::HideSettings { abstraction: "main x".into(), steps: None, ..Default::default() },
            shape: Default::default(),
        }
    }

    #[test]
    fn round_trips() {
        let s = sample();
        let link = encode(&s);
        assert!(link.starts_with("v1,"));
        assert_eq!(decode(&format!("#{link}")).unwrap(), Some(s));
    }

    #[test]
    fn broken_links_give_messages() {
        let link = encode(&sample());
        let truncated = &link[..link.len() / 2];
        assert!(decode(truncated).unwrap_err().contains("truncated"));
        assert!(decode("#v1,@@@").unwrap_err().contains("damaged"));
        assert!(decode("#v9,abc").unwrap_err().contains("version"));
        assert!(decode("#hello").unwrap_err().contains("not a predabs share link"));
        assert_eq!(decode("").unwrap(), None);
        assert_eq!(decode("#").unwrap(), None);
        // valid deflate of something that is not a session
        let junk = playground_api::share::encode_bytes(b"[1,2]");
        assert!(decode(&junk).unwrap_err().contains("damaged"));
    }
}

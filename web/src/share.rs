//! Share links and saved sessions: the user's whole session (source, predicates, options, mode,
//! selected iteration) as JSON, deflated and base64url-encoded into a versioned URL fragment
//! `#v1,<data>`. Decoding never panics: every failure is a message for the user.

use crate::model::{Options, RunKind};
use base64::Engine as _;
use serde::{Deserialize, Serialize};

/// The fragment prefix of the current format.
pub const PREFIX: &str = "v1,";
/// Decompressed size limit, against zip bombs in links.
const MAX_JSON_BYTES: usize = 4 << 20;

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
        }
    }
}

/// The fragment (without `#`) for a session.
pub fn encode(session: &Session) -> String {
    let json = serde_json::to_vec(session).unwrap_or_default();
    let deflated = miniz_oxide::deflate::compress_to_vec(&json, 9);
    format!("{PREFIX}{}", base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(deflated))
}

/// Reads a fragment (with or without `#`). `Ok(None)` when it is not a share link at all.
pub fn decode(fragment: &str) -> Result<Option<Session>, String> {
    let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
    if fragment.is_empty() || fragment == "demo" {
        return Ok(None);
    }
    let Some(data) = fragment.strip_prefix(PREFIX) else {
        if fragment.starts_with('v') && fragment.contains(',') {
            return Err("This share link was made by a newer or unknown version of predabs and cannot be opened.".into());
        }
        return Err("This is not a predabs share link (it should start with #v1,).".into());
    };
    let deflated = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(data.trim_end_matches('='))
        .map_err(|_| "This share link is truncated or damaged (it is not valid base64); check that it was copied completely.".to_string())?;
    let json = miniz_oxide::inflate::decompress_to_vec_with_limit(&deflated, MAX_JSON_BYTES)
        .map_err(|_| "This share link is truncated or damaged; check that it was copied completely.".to_string())?;
    serde_json::from_slice::<Session>(&json)
        .map(Some)
        .map_err(|_| "This share link is damaged (its contents cannot be read).".to_string())
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
            options: Options { int_width: 8, ..Options::default() },
            selected_iteration: Some(2),
            example: None,
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
        let junk = format!("v1,{}", base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(b"[1,2]", 6)));
        assert!(decode(&junk).unwrap_err().contains("damaged"));
    }
}

//! Share-link fragments: a session serialised as JSON, deflated and base64url-encoded into a
//! versioned URL fragment `#v1,<data>` (issue 33, "no crash on any input": a link is user
//! input). This module is the pure, native-testable part of the playground's share links
//! (`web/src/share.rs` keeps the session type and calls it): the format, its limits and the
//! messages a student sees when a link is damaged. Decoding never panics.

use base64::Engine as _;
use serde::de::DeserializeOwned;
use serde::Serialize;

/// The fragment prefix of the current format.
pub const PREFIX: &str = "v1,";
/// Decompressed size limit, against zip bombs in links.
pub const MAX_JSON_BYTES: usize = 4 << 20;
/// Fragment size limit (a browser address bar holds far less; a pasted file may not).
pub const MAX_FRAGMENT_BYTES: usize = 8 << 20;

/// Why a fragment is not a readable share link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShareError {
    /// `v2,...`: another version of the format.
    UnknownVersion,
    /// Not a share link at all.
    NotAShareLink,
    /// The data part is not base64url.
    NotBase64,
    /// The data part does not inflate (truncated, damaged, or over [`MAX_JSON_BYTES`]).
    Truncated,
    /// The JSON does not describe a session.
    Unreadable,
    /// Longer than [`MAX_FRAGMENT_BYTES`].
    TooLong,
}

impl ShareError {
    /// The message for the user.
    pub fn message(self) -> &'static str {
        match self {
            ShareError::UnknownVersion => "This share link was made by a newer or unknown version of predabs and cannot be opened.",
            ShareError::NotAShareLink => "This is not a predabs share link (it should start with #v1,).",
            ShareError::NotBase64 => "This share link is truncated or damaged (it is not valid base64); check that it was copied completely.",
            ShareError::Truncated => "This share link is truncated or damaged; check that it was copied completely.",
            ShareError::Unreadable => "This share link is damaged (its contents cannot be read).",
            ShareError::TooLong => "This share link is too long to be a predabs link (more than 8 MiB).",
        }
    }
}

impl std::fmt::Display for ShareError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.message())
    }
}

/// The fragment (without `#`) carrying `bytes` (normally JSON).
pub fn encode_bytes(bytes: &[u8]) -> String {
    let deflated = miniz_oxide::deflate::compress_to_vec(bytes, 9);
    format!("{PREFIX}{}", base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(deflated))
}

/// The fragment (without `#`) for a serialisable session.
pub fn encode<T: Serialize>(session: &T) -> String {
    encode_bytes(&serde_json::to_vec(session).unwrap_or_default())
}

/// The bytes a fragment (with or without `#`) carries. `Ok(None)` when it is not a share link
/// at all (empty, `#demo`).
pub fn decode_bytes(fragment: &str) -> Result<Option<Vec<u8>>, ShareError> {
    if fragment.len() > MAX_FRAGMENT_BYTES {
        return Err(ShareError::TooLong);
    }
    let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
    if fragment.is_empty() || fragment == "demo" {
        return Ok(None);
    }
    let Some(data) = fragment.strip_prefix(PREFIX) else {
        if fragment.starts_with('v') && fragment.contains(',') {
            return Err(ShareError::UnknownVersion);
        }
        return Err(ShareError::NotAShareLink);
    };
    let deflated = base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(data.trim_end_matches('=')).map_err(|_| ShareError::NotBase64)?;
    miniz_oxide::inflate::decompress_to_vec_with_limit(&deflated, MAX_JSON_BYTES).map(Some).map_err(|_| ShareError::Truncated)
}

/// Reads a fragment into a session type (missing fields take the type's defaults when it says
/// `#[serde(default)]`). `Ok(None)` when it is not a share link at all.
pub fn decode<T: DeserializeOwned>(fragment: &str) -> Result<Option<T>, ShareError> {
    let Some(json) = decode_bytes(fragment)? else { return Ok(None) };
    serde_json::from_slice::<T>(&json).map(Some).map_err(|_| ShareError::Unreadable)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
    #[serde(default)]
    struct Sample {
        source: String,
        selected_iteration: Option<u32>,
    }

    fn sample() -> Sample {
        Sample { source: "int main(void) { return 0; }\n<script>alert(1)</script>".into(), selected_iteration: Some(2) }
    }

    #[test]
    fn round_trips() {
        let link = encode(&sample());
        assert!(link.starts_with("v1,"));
        assert_eq!(decode::<Sample>(&format!("#{link}")), Ok(Some(sample())));
    }

    #[test]
    fn broken_links_give_messages() {
        let link = encode(&sample());
        // half a link is either an invalid base64 length or a cut deflate stream: both say "truncated"
        let half = decode::<Sample>(&link[..link.len() / 2]);
        assert!(matches!(half, Err(ShareError::Truncated | ShareError::NotBase64)), "{half:?}");
        assert_eq!(decode::<Sample>("#v1,@@@"), Err(ShareError::NotBase64));
        assert_eq!(decode::<Sample>("#v9,abc"), Err(ShareError::UnknownVersion));
        assert_eq!(decode::<Sample>("#hello"), Err(ShareError::NotAShareLink));
        assert_eq!(decode::<Sample>(""), Ok(None));
        assert_eq!(decode::<Sample>("#"), Ok(None));
        assert_eq!(decode::<Sample>(&encode_bytes(b"[1,2]")), Err(ShareError::Unreadable));
        assert_eq!(decode::<Sample>(&"v1,A".repeat(MAX_FRAGMENT_BYTES / 3)), Err(ShareError::TooLong));
        for e in [ShareError::NotBase64, ShareError::Truncated] {
            assert!(e.message().contains("truncated"));
        }
        assert!(ShareError::Unreadable.message().contains("damaged"));
        assert!(ShareError::UnknownVersion.message().contains("version"));
    }

    #[test]
    fn a_zip_bomb_is_refused() {
        let bomb = encode_bytes(&vec![b' '; MAX_JSON_BYTES + 1]);
        assert!(bomb.len() < 64 << 10);
        assert_eq!(decode_bytes(&bomb), Err(ShareError::Truncated));
    }
}

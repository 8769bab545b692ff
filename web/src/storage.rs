//! The user's work survives a reload: the session is saved to local storage under a versioned
//! key, and a stored value that cannot be read is ignored (never a broken page).

use crate::share::Session;

/// Bump the suffix when [`Session`] changes incompatibly.
pub const KEY: &str = "predabs.session.v1";

fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

pub fn load() -> Option<Session> {
    let text = local_storage()?.get_item(KEY).ok()??;
    serde_json::from_str(&text).ok()
}

pub fn save(session: &Session) {
    if let (Some(storage), Ok(text)) = (local_storage(), serde_json::to_string(session)) {
        let _ = storage.set_item(KEY, &text);
    }
}

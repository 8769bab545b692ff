//! The user's work survives a reload: the session is saved to local storage under a versioned
//! key, and a stored value that cannot be read is ignored (never a broken page).
//!
//! Share links and local storage meet here, with one rule: **the user's program is never
//! silently replaced**.
//! - Opening a share link shows the shared session. If this browser held other work, that work
//!   is kept under [`BACKUP_KEY`] and the notice offers to restore it.
//! - The stored session remembers the link it descends from ([`LINK_KEY`], also set by Share).
//!   Reloading a page whose address still carries that link restores the stored session, i.e.
//!   the user's edits, and the notice offers the shared version instead. This is what a student
//!   expects from a reload: "my edits are still there".
//! - Embedded views (`?embed`) never read or write storage.

use crate::share::Session;
use crate::state::Prefs;
use gloo::storage::{LocalStorage, Storage};

/// Bump the suffix when [`Session`] changes incompatibly.
pub const KEY: &str = "predabs.session.v1";
/// The share fragment (`v1,...`) the stored session descends from.
pub const LINK_KEY: &str = "predabs.link.v1";
/// The session that was in storage before a share link replaced it.
pub const BACKUP_KEY: &str = "predabs.backup.v1";
/// Display preferences (font size, presenter mode, explain panel height).
pub const PREFS_KEY: &str = "predabs.prefs.v1";

/// Whether this page may use local storage (gloo's [`LocalStorage`] throws where it may not:
/// storage disabled by the browser's settings, some sandboxed iframes).
fn available() -> bool {
    web_sys::window().and_then(|w| w.local_storage().ok().flatten()).is_some()
}

fn get<T: serde::de::DeserializeOwned>(key: &str) -> Option<T> {
    available().then(|| LocalStorage::get(key).ok()).flatten()
}

fn set<T: serde::Serialize>(key: &str, value: &T) {
    if available() {
        // a full storage or a refused write loses nothing but this save
        let _ = LocalStorage::set(key, value);
    }
}

pub fn load() -> Option<Session> {
    get(KEY)
}

pub fn save(session: &Session) {
    set(KEY, session);
}

/// The link is stored as its raw text (as earlier versions stored it), not as a JSON string.
pub fn load_link() -> Option<String> {
    available().then(|| LocalStorage::raw().get_item(LINK_KEY).ok().flatten()).flatten()
}

pub fn save_link(fragment: &str) {
    if available() {
        let _ = LocalStorage::raw().set_item(LINK_KEY, fragment.strip_prefix('#').unwrap_or(fragment));
    }
}

pub fn save_backup(session: &Session) {
    set(BACKUP_KEY, session);
}

pub fn load_prefs() -> Prefs {
    get::<Prefs>(PREFS_KEY).map(Prefs::validated).unwrap_or_default()
}

pub fn save_prefs(prefs: &Prefs) {
    set(PREFS_KEY, prefs);
}

/// What the page opens with.
#[derive(Clone, Debug, PartialEq)]
pub struct Opening {
    pub session: Session,
    /// Text of the notice, whether it reports an error.
    pub notice: Option<(String, bool)>,
    /// A button on the notice: its label and the session it loads.
    pub alternative: Option<(String, Session)>,
    /// The session to keep under [`BACKUP_KEY`] (the user's work a link replaced).
    pub backup: Option<Session>,
    /// Run at once (a share link).
    pub run: bool,
}

/// Decides what to show from the address's fragment and what local storage holds. Pure, so
/// unit-tested; [`crate::components::app`] applies it.
pub fn choose(fragment: &str, shared: Result<Option<Session>, String>, stored: Option<Session>, stored_link: Option<&str>) -> Opening {
    let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
    let fallback = stored.clone().unwrap_or_default();
    let mut opening = match shared {
        Err(message) => Opening { session: fallback, notice: Some((message, true)), alternative: None, backup: None, run: false },
        Ok(None) => Opening { session: fallback, notice: None, alternative: None, backup: None, run: false },
        Ok(Some(shared)) => match stored {
            // this link was opened here before: the stored session holds the user's edits of it
            Some(stored) if stored_link == Some(fragment) && stored != shared => Opening {
                session: stored,
                notice: Some(("Restored your edits of this shared session (kept in this browser).".into(), false)),
                alternative: Some(("Open the shared version".into(), shared)),
                backup: None,
                run: true,
            },
            // other work was stored: keep it
            Some(stored) if stored != shared && stored != Session::default() && stored_link != Some(fragment) => Opening {
                session: shared,
                notice: Some(("Opened a shared session. Your previous program is kept in this browser.".into(), false)),
                alternative: Some(("Restore my previous program".into(), stored.clone())),
                backup: Some(stored),
                run: true,
            },
            _ => Opening {
                session: shared,
                notice: Some(("Opened a shared session.".into(), false)),
                alternative: None,
                backup: None,
                run: true,
            },
        },
    };
    let (options, notes) = opening.session.options.validated();
    if !notes.is_empty() {
        opening.session.options = options;
        let text = format!("Some settings were out of range and were reset: {}.", notes.join("; "));
        opening.notice = Some(match opening.notice {
            Some((first, error)) => (format!("{first} {text}"), error),
            None => (text, true),
        });
    }
    opening
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(source: &str) -> Session {
        Session { source: source.into(), ..Session::default() }
    }

    #[test]
    fn a_new_link_wins_and_keeps_the_previous_work() {
        let o = choose("#v1,abc", Ok(Some(session("shared"))), Some(session("mine")), None);
        assert_eq!(o.session.source, "shared");
        assert!(o.run);
        assert_eq!(o.backup.as_ref().map(|s| s.source.as_str()), Some("mine"));
        assert_eq!(o.alternative.as_ref().map(|(_, s)| s.source.as_str()), Some("mine"));
    }

    #[test]
    fn a_reload_of_the_same_link_keeps_the_edits() {
        let o = choose("#v1,abc", Ok(Some(session("shared"))), Some(session("shared, edited")), Some("v1,abc"));
        assert_eq!(o.session.source, "shared, edited");
        assert_eq!(o.alternative.as_ref().map(|(_, s)| s.source.as_str()), Some("shared"));
        assert!(o.backup.is_none());
        // unchanged: plain shared session
        let o = choose("v1,abc", Ok(Some(session("shared"))), Some(session("shared")), Some("v1,abc"));
        assert_eq!(o.session.source, "shared");
        assert!(o.alternative.is_none());
    }

    #[test]
    fn the_default_session_is_not_worth_a_backup() {
        let o = choose("#v1,abc", Ok(Some(session("shared"))), Some(Session::default()), None);
        assert!(o.backup.is_none() && o.alternative.is_none());
    }

    #[test]
    fn broken_links_and_bad_options_give_notices() {
        let o = choose("#v1,@", Err("damaged".into()), Some(session("mine")), None);
        assert_eq!(o.session.source, "mine");
        assert_eq!(o.notice, Some(("damaged".into(), true)));
        let mut bad = session("shared");
        bad.options.int_width = 3;
        let o = choose("#v1,x", Ok(Some(bad)), None, None);
        assert_eq!(o.session.options.int_width, 0);
        let (text, _) = o.notice.unwrap();
        assert!(text.contains("integer width 3"), "{text}");
    }
}

//! The wasm-bindgen export the browser driver (`scripts/determinism.mjs`) calls in a web worker:
//! strings in, strings out.

use wasm_bindgen::prelude::wasm_bindgen;

/// One named request (JSON) → its fingerprint (JSON).
#[wasm_bindgen]
pub fn fingerprint_json(named_request: &str) -> String {
    match serde_json::from_str::<crate::NamedRequest>(named_request) {
        Ok(r) => serde_json::to_string(&crate::run(&r)).unwrap_or_default(),
        Err(e) => serde_json::to_string(&format!("not a request: {e}")).unwrap_or_default(),
    }
}

//! The wasm-bindgen exports, called by the worker that `scripts/bench-browser.mjs` serves.
//! Every function returns JSON text (the crate's row types), so the driver needs no bindings
//! beyond strings.

use std::sync::Mutex;
use wasm_bindgen::prelude::wasm_bindgen;

use crate::{Options, Report};

/// The message of the last panic (the release profile aborts on panic, so the JS side only
/// sees `unreachable`; it asks for this afterwards).
static LAST_PANIC: Mutex<String> = Mutex::new(String::new());

/// Installs the panic hook that records the message for [`last_panic`].
#[wasm_bindgen]
pub fn init_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        if let Ok(mut last) = LAST_PANIC.lock() {
            *last = info.to_string();
        }
    }));
}

/// The message of the last panic, empty if none.
#[wasm_bindgen]
pub fn last_panic() -> String {
    LAST_PANIC.lock().map(|s| s.clone()).unwrap_or_default()
}

/// The architecture the module was compiled for (`"wasm32"`).
#[wasm_bindgen]
pub fn platform() -> String {
    crate::platform()
}

/// [`crate::solver_rows`] as JSON; `limit` (if not negative) keeps the first N queries.
#[wasm_bindgen]
pub fn solver_json(limit: i32) -> String {
    json(&crate::solver_rows(usize::try_from(limit).ok()))
}

/// [`crate::abstraction_rows`] as JSON.
#[wasm_bindgen]
pub fn abstraction_json() -> String {
    json(&crate::abstraction_rows())
}

/// [`crate::model_check_rows`] as JSON; `sizes` (if not negative) keeps the first N sizes.
#[wasm_bindgen]
pub fn model_check_json(sizes: i32) -> String {
    json(&crate::model_check_rows(usize::try_from(sizes).ok()))
}

/// How many sizes `crate::model_check_bench::default_sizes()` has.
#[wasm_bindgen]
pub fn model_check_size_count() -> u32 {
    crate::model_check_bench::default_sizes().len() as u32
}

/// The row of the `index`-th default size as JSON (`null` past the end).
#[wasm_bindgen]
pub fn model_check_one_json(index: u32) -> String {
    json(&crate::model_check_row(index as usize))
}

/// [`crate::run`] with options given as JSON (`{}` fields omitted: everything), as JSON.
#[wasm_bindgen]
pub fn run_json(options: &str) -> String {
    let options: Options = serde_json::from_str(options).unwrap_or_default();
    json(&crate::run(&options))
}

/// [`crate::format_report`] of a report given as JSON (an error line if it does not parse).
#[wasm_bindgen]
pub fn format_report_json(report: &str) -> String {
    match serde_json::from_str::<Report>(report) {
        Ok(report) => crate::format_report(&report),
        Err(e) => format!("error: not a report: {e}\n"),
    }
}

fn json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
}

//! The worker end of the channel: receives [`ToWorker`] JSON strings, runs [`engine::handle`]
//! and posts every [`FromWorker`] event back as it is produced (so long runs stream progress).

use crate::engine;
use crate::model::{FromWorker, ToWorker};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

fn post(scope: &DedicatedWorkerGlobalScope, event: &FromWorker) {
    let text = serde_json::to_string(event).unwrap_or_else(|e| format!(r#"{{"Error":"cannot encode event: {e}"}}"#));
    let _ = scope.post_message(&JsValue::from_str(&text));
}

/// Installs the message handler and announces [`FromWorker::Ready`]. Called by the worker binary.
pub fn start() {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();

    // A panic aborts the wasm instance (panic = "abort"); tell the UI why before that happens.
    let panic_scope = scope.clone();
    std::panic::set_hook(Box::new(move |info| {
        post(&panic_scope, &FromWorker::Error(format!("the engine crashed: {info}")));
    }));

    let handler_scope = scope.clone();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
        let mut emit = |e: FromWorker| post(&handler_scope, &e);
        match event.data().as_string().map(|t| serde_json::from_str::<ToWorker>(&t)) {
            Some(Ok(request)) => engine::handle(request, &mut emit),
            Some(Err(err)) => emit(FromWorker::Error(format!("unreadable request: {err}"))),
            None => emit(FromWorker::Error("unreadable request: not a string".into())),
        }
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    post(&scope, &FromWorker::Ready);
}

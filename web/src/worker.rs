//! The worker end of the channel: receives [`ToWorker`] values, runs [`engine::handle`] (or
//! keeps a stepped run as a future, [`engine::stepping`]) and posts every [`FromWorker`] event
//! back as it is produced, so the UI shows each iteration as soon as it is finished.
//!
//! Messages are JavaScript values made by `serde-wasm-bindgen` (see [`crate::bridge::encode`]):
//! the structured clone of `postMessage` copies them, nobody prints or parses JSON text.

use crate::bridge::{decode, encode};
use crate::engine::{self, StepCommand, StepInbox};
use crate::model::{FromWorker, ToWorker};
use gloo::events::EventListener;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

fn post(scope: &DedicatedWorkerGlobalScope, event: &FromWorker) {
    let value = encode(event).unwrap_or_else(|e| {
        encode(&FromWorker::Error(format!("cannot encode the engine's event: {e}"))).unwrap_or(JsValue::NULL)
    });
    let _ = scope.post_message(&value);
}

/// Handles one message; `stepped` is the inbox of the stepped run in progress, if any.
fn on_request(scope: &DedicatedWorkerGlobalScope, stepped: &RefCell<Option<Rc<StepInbox>>>, request: ToWorker) {
    let mut emit = |e: FromWorker| post(scope, &e);
    let follow_up = match request {
        ToWorker::StepNext => Some(StepCommand::Next),
        ToWorker::Finish => Some(StepCommand::Finish),
        ToWorker::Step(req) => {
            // a new stepped run replaces the old one (closing its inbox ends its future)
            if let Some(old) = stepped.borrow_mut().take() {
                old.close();
            }
            let inbox = Rc::new(StepInbox::default());
            *stepped.borrow_mut() = Some(inbox.clone());
            let scope = scope.clone();
            wasm_bindgen_futures::spawn_local(async move {
                engine::stepping(req, &inbox, &mut |e| post(&scope, &e)).await;
            });
            return;
        }
        ToWorker::Run(req) => {
            if let Some(old) = stepped.borrow_mut().take() {
                old.close();
            }
            engine::handle(ToWorker::Run(req), &mut emit);
            return;
        }
        other => {
            engine::handle(other, &mut emit);
            return;
        }
    };
    match (stepped.borrow().as_ref(), follow_up) {
        (Some(inbox), Some(command)) => inbox.push(command),
        _ => emit(FromWorker::Error(engine::NO_STEPPED_RUN.into())),
    }
}

/// Installs the message handler and announces [`FromWorker::Ready`]. Called by the worker binary.
pub fn start() {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();

    // A panic aborts the wasm instance (panic = "abort"); tell the UI why before that happens.
    let panic_scope = scope.clone();
    std::panic::set_hook(Box::new(move |info| {
        post(&panic_scope, &FromWorker::Error(format!("the engine crashed: {info}")));
    }));

    let stepped: Rc<RefCell<Option<Rc<StepInbox>>>> = Rc::default();
    let handler_scope = scope.clone();
    let listener = EventListener::new(&scope, "message", move |event| {
        let Some(event) = event.dyn_ref::<MessageEvent>() else { return };
        match decode::<ToWorker>(event.data()) {
            Ok(request) => on_request(&handler_scope, &stepped, request),
            Err(err) => post(&handler_scope, &FromWorker::Error(format!("unreadable request: {err}"))),
        }
    });
    // the worker lives as long as its listener
    listener.forget();
    post(&scope, &FromWorker::Ready);
}

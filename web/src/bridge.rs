//! The UI end of the channel: spawns the engine worker (`worker.js`, an ES module built by
//! trunk), queues requests until it reports [`FromWorker::Ready`], and delivers events to a
//! callback.
//!
//! Messages are typed values converted by `serde-wasm-bindgen` ([`encode`], [`decode`]) and
//! copied by `postMessage`'s structured clone: no JSON text is printed on one side and parsed on
//! the other.
//!
//! Decision, with its price measured (`tests/e2e/bench-messages.mjs`, figures in its header):
//! the typed values cost 2 to 5 times what JSON text did (1.1–6.7 ms against 0.6–1.4 ms for a
//! testdev iteration record, 83 ms against 38 ms for the largest record we know, partition in
//! Abstract mode with every lattice and WP explanation), because the structured clone of an
//! object graph and serde-wasm-bindgen's per-field calls across the wasm boundary cost more
//! than one string. We keep them: a few milliseconds per finished iteration is invisible beside
//! the iteration's own work (tens to hundreds of milliseconds), and one typed channel means
//! the worker and the UI cannot disagree on a message's shape. Should records grow by an order
//! of magnitude, the lattices and WP explanations are the part to send on demand instead.
//!
//! Why not gloo-worker: Cancel must stop a run in the middle of synchronous wasm work, and the
//! only way is `Worker.terminate()`, which gloo-worker's bridge does not offer (its worker can
//! only be asked to stop, and a busy worker never reads the request). So this module owns a
//! plain `web_sys::Worker` and terminates it; the owner spawns a fresh one. The listeners are
//! gloo's [`EventListener`]s (removed when the bridge is dropped).

use crate::model::{FromWorker, ToWorker};
use gloo::events::{EventListener, EventListenerOptions};
use serde::{de::DeserializeOwned, Serialize};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{ErrorEvent, MessageEvent, Worker, WorkerOptions, WorkerType};

/// The loader shim trunk writes for the worker bundle (`data-loader-shim` in `web/index.html`):
/// it imports `worker.js` and awaits its wasm initialisation.
pub const WORKER_URL: &str = "./worker_loader.js";

/// A message as a JavaScript value (maps as plain objects; 64-bit integers beyond 2^53 as
/// BigInt, which the structured clone copies and [`decode`] reads back).
pub fn encode<T: Serialize>(message: &T) -> Result<JsValue, String> {
    let serializer = serde_wasm_bindgen::Serializer::new().serialize_maps_as_objects(true).serialize_large_number_types_as_bigints(true);
    message.serialize(&serializer).map_err(|e| e.to_string())
}

/// A message from the JavaScript value of [`encode`].
pub fn decode<T: DeserializeOwned>(value: JsValue) -> Result<T, String> {
    serde_wasm_bindgen::from_value(value).map_err(|e| e.to_string())
}

/// A live engine worker. Dropping it terminates the worker.
pub struct EngineBridge {
    worker: Worker,
    /// `Some(queue)` until the worker is ready.
    pending: Rc<RefCell<Option<Vec<JsValue>>>>,
    alive: Rc<Cell<bool>>,
    _on_message: EventListener,
    _on_error: EventListener,
}

impl EngineBridge {
    /// Spawns a worker; `on_event` receives every event, `on_death` the reason when the worker
    /// dies (a wasm trap, a panic, running out of memory: its `error` event). A dead worker is
    /// never reused: the owner spawns a fresh one.
    pub fn spawn(on_event: impl Fn(FromWorker) + 'static, on_death: impl Fn(String) + 'static) -> Result<EngineBridge, String> {
        let options = WorkerOptions::new();
        options.set_type(WorkerType::Module);
        let worker = Worker::new_with_options(WORKER_URL, &options).map_err(|e| format!("cannot start the engine worker: {e:?}"))?;
        let pending: Rc<RefCell<Option<Vec<JsValue>>>> = Rc::new(RefCell::new(Some(Vec::new())));

        let (flush_worker, flush_pending) = (worker.clone(), pending.clone());
        let on_message = EventListener::new(&worker, "message", move |event| {
            let Some(event) = event.dyn_ref::<MessageEvent>() else { return };
            let parsed = decode::<FromWorker>(event.data()).unwrap_or_else(|e| FromWorker::Error(format!("unreadable engine event: {e}")));
            if parsed == FromWorker::Ready {
                if let Some(queue) = flush_pending.borrow_mut().take() {
                    for message in queue {
                        let _ = flush_worker.post_message(&message);
                    }
                }
            }
            on_event(parsed);
        });

        let alive = Rc::new(Cell::new(true));
        let error_alive = alive.clone();
        // not passive: preventDefault keeps the worker's error out of the page's console errors
        let on_error = EventListener::new_with_options(&worker, "error", EventListenerOptions::enable_prevent_default(), move |event| {
            event.prevent_default();
            if !error_alive.replace(false) {
                return; // one death is reported once
            }
            let message = event.dyn_ref::<ErrorEvent>().map(ErrorEvent::message).unwrap_or_default();
            gloo::console::warn!(format!("predabs: the engine worker died: {message}"));
            on_death(if message.is_empty() { "the engine worker stopped unexpectedly".into() } else { message });
        });

        Ok(EngineBridge { worker, pending, alive, _on_message: on_message, _on_error: on_error })
    }

    /// False once the worker reported an uncaught error (e.g. a panic aborted its wasm).
    pub fn is_alive(&self) -> bool {
        self.alive.get()
    }

    /// Sends a request (queued until the worker is ready).
    pub fn send(&self, request: &ToWorker) {
        let value = match encode(request) {
            Ok(v) => v,
            Err(e) => {
                gloo::console::error!(format!("predabs: cannot encode a request: {e}"));
                return;
            }
        };
        match self.pending.borrow_mut().as_mut() {
            Some(queue) => queue.push(value),
            None => {
                let _ = self.worker.post_message(&value);
            }
        }
    }
}

impl Drop for EngineBridge {
    fn drop(&mut self) {
        // the listeners are removed when their fields drop
        self.worker.terminate();
    }
}

/// Message-cost benchmark (`tests/e2e/bench-messages.mjs`, run by hand): the page loads
/// records (a `playground_api::Outcome` as JSON text, e.g. `predabs check --json`), then times
/// encode → `postMessage` → decode of each record as one `IterationSnapshot` event, in the
/// playground's old form (JSON text) and in its current one (a `serde-wasm-bindgen` value).
/// Only in builds with the `bench-messages` feature (`trunk build --features bench-messages`):
/// its exports are roots that would keep serde_json's (de)serializers of every message type in
/// both wasm bundles of a normal build.
#[cfg(feature = "bench-messages")]
pub mod bench {
    use super::*;
    use playground_api::IterationSnapshot;

    thread_local! {
        static RECORDS: RefCell<Vec<FromWorker>> = const { RefCell::new(Vec::new()) };
    }

    /// Loads the iterations of an outcome; returns how many there are.
    #[wasm_bindgen(js_name = benchLoadOutcome)]
    pub fn load_outcome(json: &str) -> Result<usize, JsValue> {
        let outcome: playground_api::Outcome = serde_json::from_str(json).map_err(|e| JsValue::from_str(&e.to_string()))?;
        let events: Vec<FromWorker> = outcome.iterations.into_iter().map(|s: IterationSnapshot| FromWorker::IterationSnapshot(Box::new(s))).collect();
        let n = events.len();
        RECORDS.with(|r| *r.borrow_mut() = events);
        Ok(n)
    }

    /// The `i`-th loaded event encoded as the worker posts it (`json`: the old JSON text).
    #[wasm_bindgen(js_name = benchEncode)]
    pub fn bench_encode(i: usize, json: bool) -> Result<JsValue, JsValue> {
        RECORDS.with(|r| {
            let r = r.borrow();
            let event = r.get(i).ok_or_else(|| JsValue::from_str("no such record"))?;
            if json {
                serde_json::to_string(event).map(|t| JsValue::from_str(&t)).map_err(|e| JsValue::from_str(&e.to_string()))
            } else {
                encode(event).map_err(|e| JsValue::from_str(&e))
            }
        })
    }

    /// Decodes a received message as the UI does; returns the iteration's index (a check).
    #[wasm_bindgen(js_name = benchDecode)]
    pub fn bench_decode(value: JsValue, json: bool) -> Result<u32, JsValue> {
        let event: FromWorker = if json {
            let text = value.as_string().ok_or_else(|| JsValue::from_str("not a string"))?;
            serde_json::from_str(&text).map_err(|e| JsValue::from_str(&e.to_string()))?
        } else {
            decode(value).map_err(|e| JsValue::from_str(&e))?
        };
        match event {
            FromWorker::IterationSnapshot(s) => Ok(s.index),
            _ => Err(JsValue::from_str("not an iteration")),
        }
    }
}

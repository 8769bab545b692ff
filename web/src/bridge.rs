//! The UI end of the channel: spawns the engine worker (`worker.js`, an ES module built by
//! trunk), queues requests until it reports [`FromWorker::Ready`], and delivers events to a
//! callback. Cancelling a run terminates the worker (the only way to stop synchronous wasm
//! work) and the owner spawns a fresh one. gloo-worker's bridge cannot terminate its worker,
//! hence this small replacement.

use crate::model::{FromWorker, ToWorker};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{ErrorEvent, MessageEvent, Worker, WorkerOptions, WorkerType};

/// The loader shim trunk writes for the worker bundle (`data-loader-shim` in `web/index.html`):
/// it imports `worker.js` and awaits its wasm initialisation.
pub const WORKER_URL: &str = "./worker_loader.js";

/// A live engine worker. Dropping it terminates the worker.
pub struct EngineBridge {
    worker: Worker,
    /// `Some(queue)` until the worker is ready.
    pending: Rc<RefCell<Option<Vec<String>>>>,
    alive: Rc<Cell<bool>>,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(ErrorEvent)>,
}

impl EngineBridge {
    /// Spawns a worker; `on_event` receives every event, including a synthetic
    /// [`FromWorker::Error`] when the worker script fails.
    pub fn spawn(on_event: impl Fn(FromWorker) + 'static) -> Result<EngineBridge, String> {
        let options = WorkerOptions::new();
        options.set_type(WorkerType::Module);
        let worker = Worker::new_with_options(WORKER_URL, &options).map_err(|e| format!("cannot start the engine worker: {e:?}"))?;
        let pending: Rc<RefCell<Option<Vec<String>>>> = Rc::new(RefCell::new(Some(Vec::new())));
        let on_event = Rc::new(on_event);

        let (flush_worker, flush_pending, events) = (worker.clone(), pending.clone(), on_event.clone());
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
            let text = event.data().as_string().unwrap_or_default();
            let parsed = serde_json::from_str::<FromWorker>(&text)
                .unwrap_or_else(|e| FromWorker::Error(format!("unreadable engine event: {e}")));
            if parsed == FromWorker::Ready {
                if let Some(queue) = flush_pending.borrow_mut().take() {
                    for message in queue {
                        let _ = flush_worker.post_message(&JsValue::from_str(&message));
                    }
                }
            }
            events(parsed);
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));

        let alive = Rc::new(Cell::new(true));
        let error_alive = alive.clone();
        let on_error = Closure::<dyn FnMut(ErrorEvent)>::new(move |event: ErrorEvent| {
            event.prevent_default();
            error_alive.set(false);
            let message = event.message();
            on_event(FromWorker::Error(if message.is_empty() {
                "the engine worker stopped unexpectedly".into()
            } else {
                format!("the engine worker failed: {message}")
            }));
        });
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));

        Ok(EngineBridge { worker, pending, alive, _on_message: on_message, _on_error: on_error })
    }

    /// False once the worker reported an uncaught error (e.g. a panic aborted its wasm).
    pub fn is_alive(&self) -> bool {
        self.alive.get()
    }

    /// Sends a request (queued until the worker is ready).
    pub fn send(&self, request: &ToWorker) {
        let Ok(text) = serde_json::to_string(request) else { return };
        match self.pending.borrow_mut().as_mut() {
            Some(queue) => queue.push(text),
            None => {
                let _ = self.worker.post_message(&JsValue::from_str(&text));
            }
        }
    }
}

impl Drop for EngineBridge {
    fn drop(&mut self) {
        self.worker.set_onmessage(None);
        self.worker.set_onerror(None);
        self.worker.terminate();
    }
}

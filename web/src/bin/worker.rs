//! Entry point of the engine worker bundle (`worker.js` + `worker_bg.wasm`).
fn main() {
    web::worker::start();
}

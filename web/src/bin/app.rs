//! Entry point of the UI bundle (`app.js` + `app_bg.wasm`).
fn main() {
    yew::Renderer::<web::App>::new().render();
}

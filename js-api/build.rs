//! Exports the shadow stack pointer (`__stack_pointer`) of the wasm module: a call that
//! traps leaves it where its frames lowered it, and the package's entries put it back
//! (js/entry-guard.mjs).
fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32") {
        println!("cargo:rustc-link-arg-cdylib=--export=__stack_pointer");
    }
}

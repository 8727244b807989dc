//! The exported JS API in headless Chromium: `make test-wasm-web`.
#![cfg(target_arch = "wasm32")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

#[path = "../../tests/common/mod.rs"]
mod common;
#[macro_use]
mod wasm_engine;

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

wasm_tests!();

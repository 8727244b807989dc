//! The exported JS API in Node (wasm-bindgen-test): `make test-wasm-node`.
#![cfg(target_arch = "wasm32")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

#[path = "../../tests/common/mod.rs"]
mod common;
#[macro_use]
mod wasm_engine;

wasm_tests!();

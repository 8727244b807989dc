//! The exported JS API in Node (wasm-bindgen-test): `wasm-pack test --node -- --test node`.
#![cfg(target_arch = "wasm32")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;
#[macro_use]
mod wasm_engine;

wasm_tests!();


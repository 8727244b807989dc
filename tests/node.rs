//! The exported JS API in Node (wasm-bindgen-test): `wasm-pack test --node -- --test node`.
#![cfg(target_arch = "wasm32")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;
mod wasm_engine;

use wasm_bindgen_test::wasm_bindgen_test;

#[wasm_bindgen_test]
fn golden_cases_through_js_match_the_reference() {
    let (n, failed) = wasm_engine::replay_all();
    assert!(n >= 52, "only {n} cases embedded");
    assert!(failed.is_empty(), "{} of {n} cases differ:\n{}", failed.len(), failed.join("\n"));
}

#[wasm_bindgen_test]
fn errors_are_coded_and_the_store_survives() {
    wasm_engine::errors_are_coded_and_the_store_survives();
}

#[wasm_bindgen_test]
fn check_bundle_on_the_example() {
    wasm_engine::check_bundle_on_the_example();
}

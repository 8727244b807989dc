//! The exported JS API in Node (wasm-bindgen-test): `wasm-pack test --node -- --test node`.
#![cfg(target_arch = "wasm32")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;
#[macro_use]
mod wasm_engine;

wasm_tests!();

/// The hash maps' keys (src/hash.rs): std's `RandomState` has no randomness in
/// wasm32-unknown-unknown; the crate's maps draw their keys from the host.
mod hash_keys {
    use evidence_check::hash::{host_seed, redraw, HashMap};
    use std::hash::BuildHasher;
    use wasm_bindgen::JsCast;
    use wasm_bindgen_test::wasm_bindgen_test;

    fn claim_1(map: &HashMap<&str, u8>) -> u64 {
        map.hasher().hash_one("claim-1")
    }

    #[wasm_bindgen_test]
    fn two_draws_of_the_host_seed_differ() {
        let (first, second) = (host_seed(), host_seed());
        assert_ne!(first, second);
        assert!(first != (0, 0) && second != (0, 0));
    }

    /// Without `crypto` (or with one that throws) the seed comes from `Math.random`.
    #[wasm_bindgen_test]
    fn without_crypto_the_draws_still_differ() {
        use js_sys::{global, Object, Reflect};
        use wasm_bindgen::JsValue;
        let key = JsValue::from_str("crypto");
        let saved = Reflect::get_own_property_descriptor(&global(), &key).unwrap();
        let absent = Object::new();
        Reflect::set(&absent, &JsValue::from_str("value"), &JsValue::UNDEFINED).unwrap();
        Reflect::set(&absent, &JsValue::from_str("configurable"), &JsValue::TRUE).unwrap();
        Reflect::define_property(&global(), &key, &absent).unwrap();
        let (first, second) = (host_seed(), host_seed());
        Reflect::define_property(&global(), &key, saved.unchecked_ref()).unwrap();
        assert!(Reflect::get(&global(), &key).unwrap().is_object(), "crypto restored");
        assert_ne!(first, second);
        assert!(first != (0, 0) && second != (0, 0));
    }

    #[wasm_bindgen_test]
    fn maps_hash_an_id_differently_from_each_other_and_across_seeds() {
        redraw();
        let mut first: HashMap<&str, u8> = HashMap::default();
        let second: HashMap<&str, u8> = HashMap::default();
        assert_ne!(claim_1(&first), claim_1(&second), "two maps of one seed share keys");
        redraw();
        let reseeded: HashMap<&str, u8> = HashMap::default();
        assert_ne!(claim_1(&first), claim_1(&reseeded), "the seed is not drawn from the host: it repeats");
        first.insert("claim-1", 1);
        assert_eq!(first.get("claim-1"), Some(&1));
    }
}

/// The wasm memory grows in large, geometric steps (src/alloc.rs), not by the pages each
/// allocation needs, as std's allocator did: V8 collected garbage every few growths.
mod memory_growth {
    use core::arch::wasm32::memory_size;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn sixty_four_mebibytes_kept_in_small_allocations_cost_a_few_dozen_growths() {
        let start = memory_size(0);
        let (mut pages, mut growths) = (start, 0);
        // 1,024 allocations of just under a page each, all kept: with std's allocator
        // nearly every one grew the memory, ~1,000 growths.
        let kept: Vec<Vec<u8>> = (0..1024)
            .map(|i| {
                let block = vec![i as u8; 65_000];
                if memory_size(0) != pages {
                    pages = memory_size(0);
                    growths += 1;
                }
                block
            })
            .collect();
        assert!(growths <= 24, "{growths} growths from {start} pages to {pages}");
        // What it holds beyond the 1,024 pages needed: a quarter more at most, plus 1 MiB.
        assert!(pages <= (start + 1024) * 5 / 4 + 16, "{pages} pages from {start}");
        assert_eq!(kept.iter().map(|b| b.len()).sum::<usize>(), 1024 * 65_000);
    }
}

//! The hash maps of the crate, keyed by input-chosen ids (claim, citation, source and
//! review ids, scopes), with hash keys an input cannot predict.
//!
//! Natively `Keys` is std's `RandomState` (random keys per process), so these aliases are
//! exactly std's `HashMap` and `HashSet`. In `wasm32-unknown-unknown` std's `RandomState`
//! has no randomness: every instance hashes an id to the same value, so ids chosen to
//! collide in the table's buckets would slow a check (HashDoS). There `Keys` draws its
//! SipHash keys from the host once per instance, at the first map, and gives each map
//! distinct keys as std does (`k0 + 1`): from the random source the entry registered (the
//! Node entry's reads the OS's random bytes without loading node:crypto, ~3 ms at start-up),
//! else `crypto.getRandomValues`, else `Math.random`.

#[cfg(not(target_arch = "wasm32"))]
pub use std::collections::hash_map::RandomState as Keys;

#[cfg(target_arch = "wasm32")]
pub use self::seeded::Seeded as Keys;

/// std's `HashMap` with the crate's hash keys.
pub type HashMap<K, V> = std::collections::HashMap<K, V, Keys>;
/// std's `HashSet` with the crate's hash keys.
pub type HashSet<T> = std::collections::HashSet<T, Keys>;

#[cfg(any(test, target_arch = "wasm32"))]
pub use self::seeded::Seeded;
#[cfg(target_arch = "wasm32")]
pub use self::seeded::{host_seed, redraw, set_random_source, RandomFill};

#[cfg(any(test, target_arch = "wasm32"))]
mod seeded {
    use siphasher::sip::SipHasher13;

    /// SipHash-1-3 (std's choice for `HashMap`) with the given keys.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct Seeded {
        k0: u64,
        k1: u64,
    }

    impl Seeded {
        pub fn with_keys(k0: u64, k1: u64) -> Seeded {
            Seeded { k0, k1 }
        }
    }

    impl std::hash::BuildHasher for Seeded {
        type Hasher = SipHasher13;
        fn build_hasher(&self) -> SipHasher13 {
            SipHasher13::new_with_keys(self.k0, self.k1)
        }
    }

    #[cfg(target_arch = "wasm32")]
    mod host {
        use super::Seeded;
        use std::cell::Cell;
        use wasm_bindgen::prelude::*;

        #[wasm_bindgen]
        extern "C" {
            #[wasm_bindgen(js_namespace = crypto, js_name = getRandomValues, catch)]
            fn get_random_values(buf: &mut [u8]) -> Result<JsValue, JsValue>;
            /// A host's `(bytes: Uint8Array) => void` that fills `bytes` with random bytes.
            pub type RandomFill;
            /// `Function.prototype.call` with a view of the sixteen bytes in wasm memory.
            #[wasm_bindgen(method, catch, js_name = call)]
            fn call_fill(this: &RandomFill, this_arg: &JsValue, buf: &mut [u8]) -> Result<JsValue, JsValue>;
        }

        thread_local! {
            /// The keys of the next map: drawn from the host at the first, `k0 + 1` after.
            static NEXT: Cell<Option<(u64, u64)>> = const { Cell::new(None) };
            /// The random source the entry registered, if any.
            static SOURCE: std::cell::RefCell<Option<RandomFill>> = const { std::cell::RefCell::new(None) };
        }

        /// Registers (or with `None` removes) the random source the next seeds are drawn from.
        pub fn set_random_source(fill: Option<RandomFill>) -> bool {
            SOURCE.with(|s| s.try_borrow_mut().map(|mut slot| *slot = fill)).is_ok()
        }

        /// The registered source's sixteen bytes; `false` where none is registered, it threw
        /// or it left every byte zero.
        fn from_source(bytes: &mut [u8; 16]) -> bool {
            let filled = SOURCE.with(|s| s.try_borrow().ok().and_then(|s| s.as_ref().map(|f| f.call_fill(&JsValue::NULL, bytes).is_ok())));
            filled == Some(true) && bytes.iter().any(|&b| b != 0)
        }

        /// Sixteen fresh bytes from the host as two keys: the registered random source, else
        /// `crypto.getRandomValues`, else `Math.random` (where both are absent or throw).
        pub fn host_seed() -> (u64, u64) {
            let mut bytes = [0u8; 16];
            if !from_source(&mut bytes) && get_random_values(&mut bytes).is_err() {
                for chunk in bytes.chunks_mut(4) {
                    let draw = (js_sys::Math::random() * 4_294_967_296.0) as u32;
                    chunk.iter_mut().zip(draw.to_le_bytes()).for_each(|(byte, drawn)| *byte = drawn);
                }
            }
            let (a, b) = bytes.split_at(8);
            let key = |half: &[u8]| half.iter().rev().fold(0u64, |k, &b| k << 8 | u64::from(b));
            (key(a), key(b))
        }

        /// The next map draws its keys from the host again (for the tests: a seed that
        /// did not come from the host would repeat).
        #[doc(hidden)]
        pub fn redraw() {
            NEXT.with(|next| next.set(None));
        }

        impl Default for Seeded {
            fn default() -> Seeded {
                let (k0, k1) = NEXT.with(|next| {
                    let keys = next.get().unwrap_or_else(host_seed);
                    next.set(Some((keys.0.wrapping_add(1), keys.1)));
                    keys
                });
                Seeded::with_keys(k0, k1)
            }
        }
    }

    #[cfg(target_arch = "wasm32")]
    pub use host::{host_seed, redraw, set_random_source, RandomFill};
}

#[cfg(test)]
mod tests {
    use super::{HashMap, HashSet, Seeded};
    use std::hash::BuildHasher;

    #[test]
    fn the_same_keys_hash_alike_and_other_keys_differ() {
        let a = Seeded::with_keys(1, 2);
        assert_eq!(a.hash_one("claim-1"), Seeded::with_keys(1, 2).hash_one("claim-1"));
        assert_ne!(a.hash_one("claim-1"), Seeded::with_keys(2, 2).hash_one("claim-1"));
        assert_ne!(a.hash_one("claim-1"), Seeded::with_keys(1, 3).hash_one("claim-1"));
        assert_ne!(a.hash_one("claim-1"), a.hash_one("claim-2"));
    }

    #[test]
    fn maps_with_seeded_keys_and_the_aliases_work() {
        let mut seeded: std::collections::HashMap<&str, usize, Seeded> =
            std::collections::HashMap::with_hasher(Seeded::with_keys(7, 9));
        let mut map: HashMap<&str, usize> = HashMap::default();
        let mut set: HashSet<&str> = HashSet::default();
        for (i, id) in ["c1", "c2", "c3", "c2"].into_iter().enumerate() {
            seeded.insert(id, i);
            map.insert(id, i);
            set.insert(id);
        }
        let looked = |get: &dyn Fn(&str) -> Option<usize>| [get("c1"), get("c2"), get("c3"), get("c4")];
        assert_eq!(looked(&|k| seeded.get(k).copied()), [Some(0), Some(3), Some(2), None]);
        assert_eq!(looked(&|k| map.get(k).copied()), [Some(0), Some(3), Some(2), None]);
        assert_eq!((seeded.len(), map.len(), set.len()), (3, 3, 3));
        assert!(set.contains("c3") && !set.contains("c4"));
        assert_eq!(seeded.remove("c1"), Some(0));
        assert_eq!(seeded.get("c1"), None);
    }
}

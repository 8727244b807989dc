//! examples/profile_replay.rs's replay of the reference's cases, exported from a wasm module:
//! `load(casesJson)` reads the cases (a JSON array of the case files), `run(start, rounds)`
//! replays them `rounds` times with run numbers from `start` (each run gives every report
//! its own title and the store its own clock, so no result repeats) and returns how many
//! replays got through. Source texts and reports of 128 bytes or more are hashed by the
//! host's SHA-256 (`globalThis.__evidenceCheckCoreAloneHash`, node:crypto's, set by
//! bench/bench.mjs), as the Node entry has them hashed.
#![allow(clippy::indexing_slicing)]
use std::cell::RefCell;

use evidence_check::digest::HostHasher;
use evidence_check::policy::Policy;
use wasm_bindgen::prelude::wasm_bindgen;

#[path = "../../../examples/profile_replay.rs"]
#[allow(dead_code)] // its `main`
mod replay;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = globalThis, js_name = __evidenceCheckCoreAloneHash)]
    fn host_sha256(bytes: &[u8]) -> String;
}

fn host_hash(bytes: &[u8]) -> Option<String> {
    Some(host_sha256(bytes))
}

thread_local! {
    static CASES: RefCell<Vec<replay::Case>> = const { RefCell::new(Vec::new()) };
}

/// Reads the cases (a JSON array of the reference's case files; `quote` cases are left
/// out, as the JS replay leaves them) and returns how many there are.
#[wasm_bindgen]
pub fn load(cases: &str) -> usize {
    let all: Vec<serde_json::Value> = serde_json::from_str(cases).unwrap_or_default();
    let cases: Vec<_> = all.into_iter().filter(|c| c["op"].as_str() != Some("quote")).map(replay::Case::new).collect();
    let n = cases.len();
    CASES.with(|c| *c.borrow_mut() = cases);
    n
}

/// Replays every case `rounds` times, run numbers from `start`; `host`: hash with the host's
/// SHA-256 (else the module's own). Returns how many replays got through.
#[wasm_bindgen]
pub fn run(start: usize, rounds: usize, host: bool) -> usize {
    let policy = Policy::reference();
    let host = host.then(|| HostHasher::new(host_hash));
    CASES.with(|cases| {
        let cases = cases.borrow();
        let mut i = start;
        let mut through = 0;
        for _ in 0..rounds {
            for case in cases.iter() {
                through += usize::from(replay::replay(case, i, &policy, host).is_some());
                i += 1;
            }
        }
        through
    })
}

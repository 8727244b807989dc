//! `check(bundle, now)`: checkBundle with the defaults, the bundle's JSON text in, the
//! result's JSON text out (an error as `code: message`). Nothing else is exported.
use evidence_check::bundle::{check_read, read_for_check, BundleOptions};
use evidence_check::Clock;
use wasm_bindgen::prelude::wasm_bindgen;

#[wasm_bindgen]
pub fn check(bundle: &str, now: &str) -> String {
    let clock = match Clock::fixed(now) {
        Ok(clock) => clock,
        Err(e) => return format!("{}: {}", e.code(), e.message()),
    };
    let options = BundleOptions::new(clock);
    let read = match read_for_check(bundle, &options.policy) {
        Ok(read) => read,
        Err(e) => return format!("{}: {}", e.code(), e.message()),
    };
    match check_read(read, &options) {
        Ok(result) => serde_json::to_string(&result).unwrap_or_default(),
        Err(e) => format!("{}: {}", e.code(), e.message()),
    }
}

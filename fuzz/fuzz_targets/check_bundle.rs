//! Any bytes as a bundle: checking and rendering (both escapings) never panic, and an
//! artifact's digest is the digest of its content.
#![no_main]
use evidence_check::bundle::{check_bundle, Bundle, BundleOptions};
use evidence_check::digest::sha256_hex;
use evidence_check::render::Escaping;
use evidence_check::{Clock, Contract};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(bundle) = Bundle::from_json(text) else { return };
    let Ok(clock) = Clock::fixed("2026-11-29T00:00:00+00:00") else { return };
    for escaping in [Escaping::Hardened, Escaping::Reference] {
        let options = BundleOptions { escaping, ..BundleOptions::new(clock.clone()) };
        if let Ok(result) = check_bundle(&bundle, &options) {
            if let Some(a) = result.artifact {
                assert_eq!(a.content_digest, sha256_hex(&a.content));
            }
        }
    }
});

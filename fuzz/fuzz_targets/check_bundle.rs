//! Any bytes as a bundle: checking and rendering (both escapings) never panic, an
//! artifact's digest is the digest of its content, and the one-pass read a check uses
//! (`read_for_check`: each source's text decoded, LF-normalised and indexed as it is
//! copied) gives the plain reader's bundle result, or its error.
#![no_main]
use evidence_check::bundle::{check_bundle, check_read, read_for_check, Bundle, BundleOptions};
use evidence_check::contract::Limits;
use evidence_check::digest::sha256_hex;
use evidence_check::render::Escaping;
use evidence_check::{Clock, Contract};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let plain = Bundle::from_json(text);
    let read = read_for_check(text, &Limits::default());
    let (bundle, read) = match (plain, read) {
        (Ok(bundle), Ok(read)) => (bundle, read),
        (Err(plain), Err(read)) => return assert_eq!(plain, read, "the one-pass read gives another error"),
        (plain, read) => panic!("the readers disagree: {plain:?} against {read:?}"),
    };
    let Ok(clock) = Clock::fixed("2026-11-29T00:00:00+00:00") else { return };
    let options = BundleOptions::new(clock.clone());
    let one_pass = check_read(read, &options).map(|r| serde_json::to_string(&r).ok());
    let plain = check_bundle(&bundle, &options).map(|r| serde_json::to_string(&r).ok());
    assert_eq!(plain, one_pass, "the one-pass read checks differently");
    for escaping in [Escaping::Hardened, Escaping::Reference] {
        let options = BundleOptions { escaping, ..BundleOptions::new(clock.clone()) };
        if let Ok(result) = check_bundle(&bundle, &options) {
            if let Some(a) = result.artifact {
                assert_eq!(a.content_digest, sha256_hex(&a.content));
            }
        }
    }
});

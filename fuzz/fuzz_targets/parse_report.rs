//! Any bytes as a report: parsing never panics, and a parsed report re-serialised
//! canonically parses back to the same report with the same digest.
#![no_main]
use evidence_check::digest::{canonical_report, report_digest};
use evidence_check::{Contract, Report};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(report) = Report::from_json(text) {
        let again = Report::from_json(&canonical_report(&report)).expect("canonical JSON parses back");
        assert_eq!(again, report);
        assert_eq!(report_digest(&again), report_digest(&report));
    }
});

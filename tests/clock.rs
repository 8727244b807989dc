//! Unit tests of the core (src/clock.rs): the injectable clock and the reference's timestamp format.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]
#![cfg(not(target_arch = "wasm32"))]

mod support;

use evidence_check::clock::{format_utc_micros, is_iso_datetime, Clock};
use support::*;

#[test]
fn clock_formats_and_checks() {
    assert_eq!(format_utc_micros(0), "1970-01-01T00:00:00+00:00");
    assert_eq!(format_utc_micros(1_795_975_867_123_000), "2026-11-29T18:11:07.123000+00:00");
    assert_eq!(format_utc_micros(951_782_400_000_001), "2000-02-29T00:00:00.000001+00:00");
    assert!(is_iso_datetime(NOW));
    assert!(is_iso_datetime("2024-02-29T23:59:59.5Z"));
    assert!(!is_iso_datetime("2023-02-29T00:00:00Z"));
    assert!(!is_iso_datetime("2026-11-29 00:00:00+00:00"));
    assert!(!is_iso_datetime("2026-11-29T00:00:00"));
    assert!(Clock::fixed("yesterday").is_err());
}

//! Runs the demo bundle through `check_bundle` many times, for profiling the native core:
//! `make profile` (callgrind) or `cargo run --release --example profile`.
use evidence_check::bundle::{check_bundle, Bundle, BundleOptions};
use evidence_check::{Clock, Contract};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let runs: u32 = std::env::args().nth(1).and_then(|n| n.parse().ok()).unwrap_or(20_000);
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/demo.bundle.json"))?;
    let options = BundleOptions::new(Clock::fixed("2026-11-29T00:00:00+00:00").map_err(|e| e.to_string())?);
    let started = std::time::Instant::now();
    for _ in 0..runs {
        let bundle = Bundle::from_json(&text)?;
        let result = check_bundle(&bundle, &options)?;
        std::hint::black_box(serde_json::to_string(&result)?);
    }
    println!("{runs} bundles, {:.1} µs each", started.elapsed().as_secs_f64() * 1e6 / f64::from(runs));
    Ok(())
}

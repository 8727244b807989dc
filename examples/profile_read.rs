//! Reads the demo bundle many times without checking it: the JSON reader's share of
//! `make profile` (run both under callgrind with the same count and compare).
use evidence_check::bundle::Bundle;
use evidence_check::Contract;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let runs: u32 = std::env::args().nth(1).and_then(|n| n.parse().ok()).unwrap_or(20_000);
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/demo.bundle.json"))?;
    let started = std::time::Instant::now();
    for _ in 0..runs {
        std::hint::black_box(Bundle::from_json(std::hint::black_box(&text))?);
    }
    println!("{runs} bundles read, {:.1} µs each", started.elapsed().as_secs_f64() * 1e6 / f64::from(runs));
    Ok(())
}

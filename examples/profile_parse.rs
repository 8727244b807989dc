//! parseReport's path natively, per golden case: its read (`Report::from_json_in`: the
//! typed read, and for a broken report the tree read) and the thrown error's data
//! (`thrown_json`), each a function of its own so that callgrind shows its share. `cargo run --release --example profile_parse [ROUNDS]`.
#![allow(clippy::indexing_slicing)]
use evidence_check::contract::Report;
use evidence_check::error::{thrown_json, Lang};
use evidence_check::policy::Policy;
use serde_json::Value;

/// `parseReport`'s read: the fast path, and for a broken report what lists its violations.
#[inline(never)]
fn read(text: &str, p: &Policy) -> Result<Report, evidence_check::error::ContractError> {
    Report::from_json_in(text, evidence_check::schema::Dialect::Standard, p)
}
#[inline(never)]
fn thrown(e: &evidence_check::error::ContractError) -> String {
    thrown_json(e, Lang::Zh).1
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rounds: usize = std::env::args().nth(1).and_then(|n| n.parse().ok()).unwrap_or(1000);
    let only = std::env::args().nth(2);
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/reference/cases");
    let mut names: Vec<_> = std::fs::read_dir(&dir)?.filter_map(Result::ok).map(|e| e.path()).collect();
    names.sort();
    let mut texts = Vec::new();
    for name in names {
        if only.as_deref().is_some_and(|o| !name.to_string_lossy().contains(o)) {
            continue;
        }
        let case: Value = serde_json::from_str(&std::fs::read_to_string(&name)?)?;
        if case["op"].as_str() != Some("quote") && case.get("report").is_some() {
            texts.push(case["report"].to_string());
        }
    }
    let policy = Policy::default();
    let started = std::time::Instant::now();
    let mut n = 0;
    for _ in 0..rounds {
        for text in &texts {
            match read(text, &policy) {
                Ok(r) => drop(std::hint::black_box(r)),
                Err(e) => drop(std::hint::black_box(thrown(&e))),
            }
            n += 1;
        }
    }
    println!("{} reports × {rounds} rounds, {:.2} µs a report", texts.len(), started.elapsed().as_secs_f64() * 1e6 / n as f64);
    Ok(())
}

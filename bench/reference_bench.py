"""Times the Python reference on the golden cases: prints JSON {reports_per_sec, runs}.
Usage: python reference_bench.py REFERENCE_DIR CASES_DIR SECONDS REPEATS [WARMUP_SECONDS]
(the cases run untimed for WARMUP_SECONDS first; bench.mjs runs one repeat at a time, in
turn with its own measurements)."""
import json
import os
import statistics
import sys
import time

ref_dir, cases_dir, seconds, repeats = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
warmup = float(sys.argv[5]) if len(sys.argv) > 5 else 0.0
os.environ.setdefault("REFERENCE_NOW", "2026-11-29T00:00:00+00:00")
sys.path.insert(0, ref_dir)
import reference_cli  # noqa: E402

cases = [json.load(open(os.path.join(cases_dir, f), encoding="utf-8")) for f in sorted(os.listdir(cases_dir))]
cases = [c for c in cases if c.get("op") != "quote"]
start = time.perf_counter()
while time.perf_counter() - start < warmup:
    for case in cases:
        reference_cli.run_case(case)
rates = []
for _ in range(repeats):
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for case in cases:
            reference_cli.run_case(case)
        n += len(cases)
    rates.append(n / (time.perf_counter() - start))
print(json.dumps({"reports_per_sec": statistics.median(rates), "runs": rates, "cases": len(cases)}))

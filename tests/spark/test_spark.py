"""make test-spark: the Spark and GNU parallel recipes of docs/cli.md, run as written there.

A few thousand bundles (variants of examples/demo.bundle.json: valid, reviewed against
another report, invalid, broken contracts, unreadable lines, blank lines) go through each
recipe with the built CLI (pkg/bin/cli.mjs as `evidence-check` on the PATH); every bundle's
result must come back exactly once, equal to the result of one local `check -` over the
same file. Set up by `scripts/setup.sh spark` (a Java runtime, GNU parallel, pyspark).
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CLI = ROOT / "pkg" / "bin" / "cli.mjs"
DOCS = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
BUNDLES = 3000


def fences(lang):
    """The code of every ```lang block of docs/cli.md."""
    return re.findall(r"^```" + lang + r"\n(.*?)^```$", DOCS, flags=re.M | re.S)


def command(prefix):
    """The one command line of docs/cli.md's sh blocks that starts with `prefix`."""
    lines = [l for code in fences("sh") for l in code.splitlines() if l.startswith(prefix)]
    assert len(lines) == 1, f"docs/cli.md has {len(lines)} sh lines starting with {prefix!r}"
    return lines[0]


def stamp(i):
    return f"2026-11-{1 + i // 86400 % 28:02d}T{i // 3600 % 24:02d}:{i // 60 % 60:02d}:{i % 60:02d}+00:00"


def bundle_lines(n):
    """`n` JSON Lines bundles, each distinct, of every kind `check -` answers, and a few blank lines."""
    demo = json.loads((ROOT / "examples" / "demo.bundle.json").read_text(encoding="utf-8"))
    out = []
    for i in range(n):
        b = json.loads(json.dumps(demo))
        b["sources"][0]["fetched_at"] = stamp(i)
        kind = i % 10
        if kind == 6:
            b["report"]["title"] += f" #{i}"  # the reviews are of another report
        elif kind == 7:
            b["sources"][0]["content"] += f"\nrevised {i}"  # a citation's digest no longer holds
        elif kind == 8:
            del b["report"]  # breaks the contract
        text = json.dumps(b, ensure_ascii=False)
        if kind == 9:
            text = text[: 50 + i % 200]  # broken JSON
        out.append(text)
        if i % 700 == 350:
            out.append("" if i % 1400 == 350 else "  \t")
    return out


def without_line(result):
    return {k: v for k, v in result.items() if k != "line"}


class Recipes(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not CLI.exists():
            raise unittest.SkipTest(f"no {CLI} (make build)")
        cls.dir = Path(tempfile.mkdtemp(prefix="evidence-check-spark-"))
        bin_dir = cls.dir / "bin"
        bin_dir.mkdir()
        (bin_dir / "evidence-check").symlink_to(CLI)
        cls.env = {
            **os.environ,
            "PATH": os.pathsep.join([str(bin_dir), str(Path(sys.executable).parent), os.environ["PATH"]]),
            "PYSPARK_PYTHON": sys.executable,
            "PYSPARK_DRIVER_PYTHON": sys.executable,
        }
        cls.lines = bundle_lines(BUNDLES)
        cls.blank = sum(1 for l in cls.lines if not l.strip())
        (cls.dir / "bundles.jsonl").write_text("\n".join(cls.lines) + "\n", encoding="utf-8")
        # The results of one local `check -` over the same file, one per non-blank line.
        with open(cls.dir / "bundles.jsonl", "rb") as stdin:
            local = subprocess.run(["evidence-check", "check", "-", "--no-render"], stdin=stdin, capture_output=True, env=cls.env, cwd=cls.dir, timeout=600)
        assert local.returncode == 4, f"the local run exited {local.returncode}: {local.stderr[-2000:]!r}"
        cls.local = [json.loads(l) for l in local.stdout.decode().splitlines()]
        assert len(cls.local) == BUNDLES, len(cls.local)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir, ignore_errors=True)

    def run_in_dir(self, line, env=None):
        return subprocess.run(["bash", "-c", line], cwd=self.dir, env=env or self.env, capture_output=True, timeout=900)

    def test_the_bundles_cover_every_kind_of_answer(self):
        kinds = Counter(r.get("assessment", {}).get("status") or "error:" + r["error"]["issues"][0]["code"] for r in self.local)
        self.assertEqual(set(kinds), {"partial", "invalid", "error:missing", "error:invalid_json"}, kinds)
        self.assertEqual(self.blank, 4)

    def test_spark_recipe(self):
        (self.dir / "check_spark.py").write_text(next(c for c in fences("python") if c.startswith("# check_spark.py")), encoding="utf-8")
        line = command("spark-submit ")
        run = self.run_in_dir(line)
        self.assertEqual(run.returncode, 0, run.stderr[-4000:].decode(errors="replace"))
        parts = sorted((self.dir / "results").glob("part-*"))
        # Several partitions, each piped through its own `check -`.
        self.assertGreaterEqual(len([p for p in parts if p.stat().st_size > 0]), 8, parts)
        results = [json.loads(l) for p in parts for l in p.read_text(encoding="utf-8").splitlines()]
        numbers = Counter(r["line"] for r in results)
        self.assertEqual([n for n, c in numbers.items() if c > 1], [], "a bundle answered twice")
        self.assertEqual(sorted(numbers), list(range(1, BUNDLES + 1)), "a bundle not answered")
        self.assertEqual([r["line"] for r in results], list(range(1, BUNDLES + 1)), "results out of order")
        for r in results:
            self.assertEqual(without_line(r), without_line(self.local[r["line"] - 1]), f"bundle {r['line']}")

    def test_spark_recipe_refuses_a_partition_a_result_short(self):
        # An `evidence-check` that drops each process's last result: the job must fail.
        short = self.dir / "short"
        short.mkdir(exist_ok=True)
        (short / "evidence-check").write_text(f"#!/bin/sh\n{CLI} \"$@\" | sed '$d'\n", encoding="utf-8")
        (short / "evidence-check").chmod(0o755)
        (short / "check_spark.py").write_text(next(c for c in fences("python") if c.startswith("# check_spark.py")), encoding="utf-8")
        (short / "bundles.jsonl").write_text("\n".join(self.lines[:200]) + "\n", encoding="utf-8")
        env = {**self.env, "PATH": os.pathsep.join([str(short), self.env["PATH"]])}
        run = subprocess.run(["bash", "-c", command("spark-submit ")], cwd=short, env=env, capture_output=True, timeout=900)
        self.assertNotEqual(run.returncode, 0, "the job passed with a result missing")
        self.assertRegex(run.stderr.decode(errors="replace"), r"same number of (elements|items)|different number of items")
        self.assertFalse((short / "results" / "_SUCCESS").exists())

    def test_parallel_recipe(self):
        line = command("parallel ")
        run = self.run_in_dir(line)
        # parallel's exit status counts the blocks whose `check -` did not exit 0.
        self.assertNotIn(run.returncode, (0, 255), run.stderr[-4000:].decode(errors="replace"))
        results = [json.loads(l) for l in (self.dir / "results.jsonl").read_text(encoding="utf-8").splitlines()]
        self.assertEqual(len(results), BUNDLES)
        # Several blocks, each through its own `check -` (each numbers its lines from 1).
        self.assertGreaterEqual(sum(1 for r in results if r["line"] == 1), 4)
        for k, r in enumerate(results):
            self.assertEqual(without_line(r), without_line(self.local[k]), f"bundle {k + 1}")


if __name__ == "__main__":
    unittest.main(verbosity=2)

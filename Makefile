# evidence-check — the two commands a newcomer needs:
#   make demo   build the package and check examples/ with the CLI
#   make test   every test: native, wasm in Node, wasm in headless Chromium, Node and CLI
# Both install what is missing first (scripts/setup.sh, idempotent).

SHELL := /bin/bash
export PATH := $(CURDIR)/node_modules/.bin:$(HOME)/.cargo/bin:$(PATH)
CARGO ?= cargo
WASM_PACK := wasm-pack
PKG_SRC := $(shell find src -name '*.rs') Cargo.toml js/generated/types.d.ts
NOW ?= 2026-11-29T00:00:00+00:00

.PHONY: all setup wasm build demo serve bench bench-quick profile fuzz fuzz-smoke test test-native test-lint test-types test-wasm-node test-wasm-web test-node test-e2e test-gfm golden-bundle golden-extra clean

all: build

setup:
	@bash scripts/setup.sh wasm npm

# Two wasm modules, each for Node and the web: the main entry's (Cargo feature `core`) and
# evidence-check/extras' (feature `extras`); js/assemble.mjs puts the extras builds next to
# the main ones in pkg/node and pkg/web.
CORE_FEATURES := -- --no-default-features --features core,console_error_panic_hook
EXTRAS_FEATURES := -- --no-default-features --features extras,console_error_panic_hook

# The main module for Node is compiled for speed, the others for size (Cargo.toml's
# opt-level "s": the page downloads its module, Node reads it from disk): opt-level 2 with
# LLVM's inline threshold at 100 (opt-level 2's own is 225), in its own target directory so
# that the two profiles do not rebuild each other. Against "s" on this machine (paired, A/A
# within 1 %): demo checkBundle 0.77-0.81 of the time (0.81-0.84 without host hashing), the
# step-by-step replay 0.83-0.84, start-up beyond an empty node +0.7 to +1.7 ms (A/A +0.6),
# the module 574 KB / 229 KB gzipped (+19 KB / +29 KB). Thresholds 50 and 75 were smaller
# and slower (checkBundle 0.80-0.83). opt-level 2 with its own threshold was as fast, 640 KB /
# 248 KB, and +5.5 ms of start-up: V8 compiled its larger render::Escaping::write with
# TurboFan (6 ms) during the first check; threshold 150 did too.
NODE_SPEED_FLAGS := CARGO_PROFILE_RELEASE_OPT_LEVEL=2 RUSTFLAGS="$(RUSTFLAGS) -C llvm-args=-inline-threshold=100"
NODE_SPEED := CARGO_TARGET_DIR="$(or $(CARGO_TARGET_DIR),target)/node" $(NODE_SPEED_FLAGS)

pkg/node/evidence_check_bg.wasm: $(PKG_SRC)
	$(NODE_SPEED) $(WASM_PACK) build --release --target nodejs --out-dir pkg/node --out-name evidence_check --no-pack $(CORE_FEATURES)
	@touch $@

pkg/web/evidence_check_bg.wasm: $(PKG_SRC)
	$(WASM_PACK) build --release --target web --out-dir pkg/web --out-name evidence_check --no-pack $(CORE_FEATURES)
	@touch $@

pkg/extras/node/evidence_check_extras_bg.wasm: $(PKG_SRC)
	$(WASM_PACK) build --release --target nodejs --out-dir pkg/extras/node --out-name evidence_check_extras --no-pack $(EXTRAS_FEATURES)
	@touch $@

pkg/extras/web/evidence_check_extras_bg.wasm: $(PKG_SRC)
	$(WASM_PACK) build --release --target web --out-dir pkg/extras/web --out-name evidence_check_extras --no-pack $(EXTRAS_FEATURES)
	@touch $@

WASM_BUILDS := pkg/node/evidence_check_bg.wasm pkg/web/evidence_check_bg.wasm pkg/extras/node/evidence_check_extras_bg.wasm pkg/extras/web/evidence_check_extras_bg.wasm

## wasm: the four wasm builds only (iterate with it, then `node js/assemble.mjs`)
wasm: setup $(WASM_BUILDS)

pkg/package.json: $(WASM_BUILDS) js/assemble.mjs $(wildcard js/entry*) js/mcp.d.ts js/cli.mjs js/load.mjs js/status.mjs js/worker.mjs js/mcp.mjs README.md LICENSE package.json
	node js/assemble.mjs

## build: the npm package in pkg/ (Node and web builds, CLI, types)
build: setup pkg/package.json

## demo: build, then check the bundled example with the CLI (exit 0 once the check ran)
demo: build
	@mkdir -p target
	@node js/cli.mjs check examples/demo.bundle.json --out target/demo-artifact.md; \
	  code=$$?; if [ $$code -le 2 ]; then echo "demo: checked (exit $$code: the example's status); artifact in target/demo-artifact.md"; else exit $$code; fi

## serve: the in-browser checker (www/) on http://127.0.0.1:8080/ (PORT=… to change)
serve: build
	node js/serve.mjs $${PORT:-8080}

## bench: the user workloads W1-W5 side by side (table on stdout, target/bench.json, BENCHMARKS.md);
## BASELINE_PKG=/path/to/pkg times another build beside this one, BENCH_QUICK=1 a short run
bench: build
	@bash scripts/setup.sh python browser || echo "bench: no Python venv or Chromium; W1's reference or W4 is not run"
	node bench/bench.mjs

## profile: where the native core spends its instructions on the demo (valgrind callgrind)
profile:
	CARGO_PROFILE_RELEASE_DEBUG=true $(CARGO) build --release --example profile
	$(CARGO) run --release --example profile
	valgrind --tool=callgrind --callgrind-out-file=target/callgrind.out target/release/examples/profile 2000 > /dev/null
	callgrind_annotate --inclusive=yes target/callgrind.out | grep -E "evidence_check|sha2|serde_json" | head -30

## bench-quick: the workloads as a short smoke run (it reports, it never fails on a slow machine)
bench-quick: build
	BENCH_QUICK=1 node bench/bench.mjs > /dev/null

FUZZ_TARGETS := parse_report store_ops check_bundle excerpt_outcome readers_agree
FUZZ_SECONDS ?= 300

## fuzz: every fuzz target for FUZZ_SECONDS seconds (see fuzz/README.md)
fuzz:
	@bash scripts/setup.sh fuzz npm
	@bash scripts/fuzz-seeds.sh
	cd fuzz && for t in $(FUZZ_TARGETS); do RUSTC_BOOTSTRAP=1 cargo fuzz run -O $$t -- -max_total_time=$(FUZZ_SECONDS) || exit 1; done

## fuzz-smoke: a short fuzz run of every target (part of make test)
fuzz-smoke:
	@$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=15

## test: every test suite
test: test-native test-lint test-wasm-node test-wasm-web test-e2e bench-quick fuzz-smoke test-node test-types test-gfm

test-native:
	$(CARGO) test --all-targets

test-lint:
	$(CARGO) clippy --all-targets -- -D warnings
	$(CARGO) clippy --lib --target wasm32-unknown-unknown -- -D warnings
	$(CARGO) clippy --lib --target wasm32-unknown-unknown --no-default-features --features core -- -D warnings
	$(CARGO) clippy --lib --target wasm32-unknown-unknown --no-default-features --features extras -- -D warnings

test-wasm-node: setup
	$(WASM_PACK) test --node -- --test node

test-wasm-web: setup
	@bash scripts/setup.sh browser
	$(WASM_PACK) test --headless --chrome -- --test web

test-node: build
	node --test tests/js/

## test-types: the generated .d.ts is current (src/ts.rs), the typed usage programs of tests/types/ compiled with
## tsc --strict (Node, CommonJS, MCP, browser, a lib without esnext.disposable), and real outputs checked against the types
test-types: build
	$(CARGO) test --lib ts::
	@mkdir -p tests/types/node_modules && ln -sfn ../../../pkg tests/types/node_modules/evidence-check
	tsc -p tests/types/tsconfig.node.json
	tsc -p tests/types/tsconfig.web.json
	tsc -p tests/types/tsconfig.nodisposable.json
	node tests/types/outputs.mjs
	tsc -p tests/types/tsconfig.outputs.json

## test-gfm: the injection corpus rendered by cmark-gfm, GitHub's renderer (Python venv)
test-gfm: build
	@bash scripts/setup.sh python
	.venv/bin/python tests/gfm/test_gfm.py

test-e2e: build
	@bash scripts/setup.sh browser
	node --test tests/e2e/

## golden-bundle: refresh tests/data/golden-all.json (embedded by the wasm tests)
golden-bundle:
	node scripts/golden-bundle.mjs

## golden-extra: regenerate tests/data/extra/ with the Python reference
golden-extra:
	@bash scripts/setup.sh python
	cd tests/data/extra && python3 make_cases.py
	@ref=$${REFERENCE_DIR:-../shared/reference}; for f in tests/data/extra/cases/*.json; do \
	  (cd $$ref && REFERENCE_NOW=$(NOW) $(CURDIR)/.venv/bin/python reference_cli.py) < $$f > tests/data/extra/expected/$$(basename $$f) || exit 1; done
	node scripts/golden-bundle.mjs

clean:
	rm -rf pkg target/demo-artifact.md

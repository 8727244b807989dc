# evidence-check — the two commands a newcomer needs:
#   make demo   build the package and check examples/ with the CLI
#   make test   every test: native, wasm in Node, wasm in headless Chromium, Node and CLI, the page
# Both install what is missing first (scripts/setup.sh, idempotent).

SHELL := /bin/bash
export PATH := $(CURDIR)/node_modules/.bin:$(HOME)/.cargo/bin:$(PATH)
CARGO ?= cargo
TARGET_DIR := $(or $(CARGO_TARGET_DIR),target)
PKG_SRC := $(shell find src js-api/src -name '*.rs') js-api/build.rs Cargo.toml Cargo.lock js-api/Cargo.toml js/generated/types.d.ts js/binding-types.d.ts
NOW ?= 2026-11-29T00:00:00+00:00

.PHONY: all setup test-setup wasm build demo serve bench bench-quick profile fuzz fuzz-smoke test test-rust test-package test-native test-lint test-types test-wasm-node test-wasm-web test-node test-e2e test-gfm test-spark golden-bundle golden-extra clean

all: build

setup:
	@bash scripts/setup.sh wasm npm

# One wasm module (the binding crate js-api/ on the core), compiled once with the one release
# profile, then made into the Node and the web glue by wasm-bindgen, each optimised by
# wasm-opt (npm's binaryen). -O3 without inlining a function into its one caller: that
# inlining folds each export's call tree into its shim, which compresses worse.
# The module uses wasm SIMD (simd128: Node 20, and every browser since 2023): memchr's
# substring and byte searches (quote(), newline normalisation, the U+FFFD check) take
# their vector paths.
WASM_RAW := $(TARGET_DIR)/wasm32-unknown-unknown/release/evidence_check_wasm.wasm
WASM_OPT_FLAGS := -O3 --one-caller-inline-max-function-size 0
WASM_RUSTFLAGS := -C target-feature=+simd128

$(WASM_RAW): $(PKG_SRC)
	RUSTFLAGS="$(WASM_RUSTFLAGS)" $(CARGO) build --release --target wasm32-unknown-unknown -p evidence-check-wasm
	@touch $@

pkg/node/evidence_check_bg.wasm: $(WASM_RAW)
	wasm-bindgen --target nodejs --out-dir pkg/node --out-name evidence_check $<
	wasm-opt $(WASM_OPT_FLAGS) $@ -o $@

pkg/web/evidence_check_bg.wasm: $(WASM_RAW)
	wasm-bindgen --target web --out-dir pkg/web --out-name evidence_check $<
	wasm-opt $(WASM_OPT_FLAGS) $@ -o $@

WASM_BUILDS := pkg/node/evidence_check_bg.wasm pkg/web/evidence_check_bg.wasm

## wasm: the Node and web glue of the one module only (iterate with it, then `node js/assemble.mjs`)
wasm: setup $(WASM_BUILDS)

pkg/package.json: $(WASM_BUILDS) js/assemble.mjs $(wildcard js/entry*) js/mcp.d.ts js/cli.mjs js/load.mjs js/status.mjs js/worker.mjs js/pool.mjs js/mcp.mjs \
  js/importers.mjs js/serve.mjs $(wildcard www/* docs/* examples/*) README.md BENCHMARKS.md LICENSE package.json
	node js/assemble.mjs

## build: the npm package in pkg/ (Node and web glue, CLI, types)
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

FUZZ_TARGETS := $(sort $(basename $(notdir $(wildcard fuzz/fuzz_targets/*.rs))))
FUZZ_SECONDS ?= 300
FUZZ_PROFILE ?= -O

## fuzz: every fuzz target for FUZZ_SECONDS seconds, optimised (see fuzz/README.md)
fuzz:
	@bash scripts/setup.sh fuzz
	@bash scripts/fuzz-seeds.sh
	cd fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz build $(FUZZ_PROFILE)
	cd fuzz && for t in $(FUZZ_TARGETS); do RUSTC_BOOTSTRAP=1 cargo fuzz run $(FUZZ_PROFILE) $$t -- -max_total_time=$(FUZZ_SECONDS) || exit 1; done

## fuzz-smoke: every target for 5 seconds, unoptimised with debug assertions (part of make test:
## the optimised build alone takes minutes)
fuzz-smoke:
	@$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=5 FUZZ_PROFILE=--dev

## test: every test suite (the tools a fresh machine lacks are installed first), in two lanes
## side by side: the Rust suites, and the package's (its release build first). Each lane runs
## its suites in order; cargo locks each profile's directory, so the lanes' builds overlap.
test: test-setup
	@$(MAKE) --no-print-directory -j2 test-rust test-package

test-rust:
	@for t in test-native test-lint test-wasm-node test-wasm-web fuzz-smoke; do $(MAKE) --no-print-directory $$t || exit 1; done

test-package:
	@for t in test-node test-e2e test-types test-gfm bench-quick; do $(MAKE) --no-print-directory $$t || exit 1; done

test-setup:
	@bash scripts/setup.sh wasm npm browser python fuzz

test-native:
	$(CARGO) test --workspace --all-targets

# For wasm32, both crates' libraries and the binding's wasm-bindgen tests (the core's own
# tests run natively only).
test-lint:
	$(CARGO) clippy --workspace --all-targets -- -D warnings
	$(CARGO) clippy --workspace --lib --target wasm32-unknown-unknown -- -D warnings
	$(CARGO) clippy -p evidence-check-wasm --all-targets --target wasm32-unknown-unknown -- -D warnings

# The binding's wasm-bindgen tests, in the debug profile, under wasm-bindgen-test-runner
# (installed with wasm-bindgen-cli): in Node, and in Debian's headless Chromium through
# chromedriver with webdriver.json's arguments (--no-sandbox: the tests may run as root).
WASM_TEST := CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner $(CARGO) test -p evidence-check-wasm --target wasm32-unknown-unknown

test-wasm-node: setup
	$(WASM_TEST) --test node

test-wasm-web: setup
	@bash scripts/setup.sh browser
	CHROMEDRIVER=/usr/bin/chromedriver WASM_BINDGEN_TEST_WEBDRIVER_JSON=$(CURDIR)/webdriver.json $(WASM_TEST) --test web

test-node: build
	node --test tests/js/

## test-types: the generated .d.ts is current (src/ts.rs), the typed usage programs of tests/types/ compiled with
## tsc --strict (Node, CommonJS, MCP, browser, a lib without esnext.disposable), and real outputs checked against the types
test-types: build
	$(CARGO) test --workspace --lib ts::
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

## test-spark: the Spark and GNU parallel recipes of docs/cli.md, as written there, on 3,000 bundles
## (not part of make test: it installs a Java runtime, GNU parallel and pyspark first)
test-spark: build
	@bash scripts/setup.sh spark
	.venv/bin/python tests/spark/test_spark.py

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

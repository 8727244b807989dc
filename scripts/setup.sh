#!/usr/bin/env bash
# Installs, idempotently, everything the build and the tests need on a fresh machine.
# Usage: scripts/setup.sh [rust|wasm|npm|browser|fuzz|python|spark|all]...   (default: all; spark is
# make test-spark's alone)
# Each step checks first and does nothing when its tool is already there.
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf 'setup: %s\n' "$*" >&2; }

CMARKGFM_VERSION=2025.10.22

# The wasm-bindgen version pinned in js-api/Cargo.toml ("=X"); wasm-bindgen-cli must equal it.
pinned_bindgen() {
  sed -n 's/^wasm-bindgen *= *{ *version *= *"=\([0-9.]*\)".*/\1/p; s/^wasm-bindgen *= *"=\([0-9.]*\)".*/\1/p' js-api/Cargo.toml | head -n1
}

step_rust() {
  if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    log "adding the wasm32-unknown-unknown target"
    rustup target add wasm32-unknown-unknown
  fi
}

step_wasm() {
  # The build runs cargo, wasm-bindgen and wasm-opt (npm's binaryen) itself; the wasm tests
  # run under wasm-bindgen-test-runner, which wasm-bindgen-cli installs too.
  step_rust
  local want have
  want=$(pinned_bindgen)
  [ -n "$want" ] || { log "no wasm-bindgen = \"=X\" pin found in js-api/Cargo.toml"; exit 1; }
  have=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
  if [ "$have" != "$want" ] || ! command -v wasm-bindgen-test-runner >/dev/null 2>&1; then
    log "installing wasm-bindgen-cli $want (about 4 minutes; found '${have:-none}')"
    # --locked fails for some releases (a locked dependency is gone from the registry).
    cargo install wasm-bindgen-cli --version "$want" --force
  fi
}

step_npm() {
  if [ ! -x node_modules/.bin/wasm-opt ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    log "installing npm packages from package-lock.json"
    npm ci --no-audit --no-fund
  fi
}

step_browser() {
  # fonts-noto-cjk: the example and the reference's texts are Chinese; without it the
  # page's screenshots show empty boxes.
  if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ] || ! dpkg -s fonts-noto-cjk >/dev/null 2>&1; then
    log "installing Debian's chromium, chromium-driver and fonts-noto-cjk"
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y chromium chromium-driver fonts-noto-cjk
  fi
}

step_fuzz() {
  if ! cargo fuzz --version >/dev/null 2>&1; then
    log "installing cargo-fuzz"
    cargo install cargo-fuzz --locked || cargo install cargo-fuzz
  fi
}

venv() {
  if [ ! -x .venv/bin/python ]; then
    log "creating the Python venv .venv"
    python3 -m venv .venv
  fi
}

step_python() {
  # .venv: the reference's pydantic (golden-extra, bench) and cmark-gfm, GitHub's
  # renderer (test-gfm).
  venv
  if ! .venv/bin/python -c "import sys, importlib.metadata as m; sys.exit(m.version('pydantic') != '2.14.3' or m.version('cmarkgfm') != '$CMARKGFM_VERSION')" >/dev/null 2>&1; then
    log "installing pydantic==2.14.3 and cmarkgfm==$CMARKGFM_VERSION into .venv"
    .venv/bin/pip install -q pydantic==2.14.3 "cmarkgfm==$CMARKGFM_VERSION"
  fi
}

step_spark() {
  # make test-spark: a Java runtime for Spark (Debian's, only when there is no java), GNU
  # parallel, and pyspark in .venv at the versions of tests/spark/requirements.txt.
  local missing=()
  command -v java >/dev/null 2>&1 || missing+=(default-jre-headless)
  [[ "$(parallel --version 2>/dev/null || true)" == *"GNU parallel"* ]] || missing+=(parallel) # not moreutils' parallel
  if [ ${#missing[@]} -gt 0 ]; then
    log "installing Debian's ${missing[*]}"
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}"
  fi
  venv
  if ! .venv/bin/python - tests/spark/requirements.txt >/dev/null 2>&1 <<'PY'
import sys, importlib.metadata as m
pins = [l.split("==") for l in open(sys.argv[1]).read().split("\n") if "==" in l and not l.startswith("#")]
sys.exit(any(m.version(name) != version for name, version in pins))
PY
  then
    log "installing tests/spark/requirements.txt (pyspark) into .venv"
    .venv/bin/pip install -q -r tests/spark/requirements.txt
  fi
}

steps=("$@")
[ ${#steps[@]} -gt 0 ] || steps=(all)
for s in "${steps[@]}"; do
  case "$s" in
    rust) step_rust ;;
    wasm) step_wasm ;;
    npm) step_npm ;;
    browser) step_browser ;;
    fuzz) step_fuzz ;;
    python) step_python ;;
    spark) step_spark ;;
    all) step_wasm; step_npm; step_browser; step_python ;;
    *) log "unknown step '$s' (rust|wasm|npm|browser|fuzz|python|spark|all)"; exit 2 ;;
  esac
done

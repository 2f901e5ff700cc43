#!/usr/bin/env bash
# Sets up, builds everything (native CLI and tests, benchmarks, the wasm module)
# and runs every test: GoogleTest natively and under Node, the CLI's and the
# module's Node tests, and the page in headless Chromium.
set -euo pipefail
cd "$(dirname "$0")"
./setup.sh
cmake --preset native >/dev/null
cmake --build --preset native
ctest --preset native "$@"

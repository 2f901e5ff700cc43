#!/usr/bin/env bash
# Sets up, builds, and serves the planner page on http://127.0.0.1:8080/
# (another port: ./run.sh --port 9000).
set -euo pipefail
cd "$(dirname "$0")"
./setup.sh
cmake --preset native >/dev/null
cmake --build --preset native
exec node web/serve.mjs --host 127.0.0.1 "$@"

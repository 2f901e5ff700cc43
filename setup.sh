#!/usr/bin/env bash
# Installs whatever GeoTrain needs that this Debian 12 machine lacks: Debian
# packages with apt-get, npm packages from the committed lockfile. Idempotent,
# and quick when everything is present.
set -euo pipefail
cd "$(dirname "$0")"

packages=(cmake g++ make libgtest-dev libbenchmark-dev nlohmann-json3-dev emscripten nodejs npm chromium python3)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Node.js and npm may come from elsewhere than Debian; what matters is that they run.
if command -v node >/dev/null && command -v npm >/dev/null; then
  filtered=()
  for p in "${missing[@]}"; do [[ "$p" == nodejs || "$p" == npm ]] || filtered+=("$p"); done
  missing=("${filtered[@]}")
fi
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [[ $(id -u) -eq 0 ]] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# npm ci only when node_modules is missing or older than the lockfile.
if [[ ! -d node_modules/playwright-core || package-lock.json -nt node_modules/.package-lock.json ]]; then
  echo "setup: npm ci"
  npm ci --no-audit --no-fund --loglevel=error
fi
echo "setup: all dependencies present"

#!/usr/bin/env bash
# The page's planning against the native CLI by pool size (issue 10, point 6): the two examples
# and the generated pools of tests/bench/geo_pool.hpp, memetic at default settings, seed 1, each
# through tests/browser/measure.mjs (fresh page, warm-up, Plan). Prints a Markdown table.
#   tests/browser/measure-sizes.sh [RUNS]      (after ./test.sh or `cmake --build --preset native`)
set -euo pipefail
cd "$(dirname "$0")/../.."
runs="${1:-3}"
pool_tool=build/native/tests/bench/geotrain_geo_pool
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
row() {  # label, then the environment for measure.mjs
  local label="$1"; shift
  local out
  out="$(env RUNS="$runs" "$@" node tests/browser/measure.mjs)"
  local page native page_cpu native_cpu
  page="$(grep "in the page's worker |" <<<"$out" | awk -F'|' '{print $4}' | xargs)"
  native="$(grep "memetic, native CLI |" <<<"$out" | awk -F'|' '{print $4}' | xargs)"
  page_cpu="$(grep "processor time of the page's worker thread" <<<"$out" | awk -F'|' '{print $4}' | xargs)"
  native_cpu="$(grep "processor time of the native CLI process" <<<"$out" | awk -F'|' '{print $4}' | xargs)"
  local same
  same="$(grep -o 'same plan in the page and natively: [a-z]*' <<<"$out" | awk '{print $NF}')"
  echo "| $label | $native | $page | $native_cpu | $page_cpu | $same |"
}
echo "| problem | native CLI | page's worker | native processor time | page worker's processor time | same plan |"
echo "| --- | ---: | ---: | ---: | ---: | --- |"
row "table7-14gpu (14 GPUs)" EXAMPLE=table7-14gpu
row "llama70b-64xa100 (64 GPUs, stage groups)" EXAMPLE=llama70b-64xa100
for size in "64 64" "128 96" "256 128" "512 128"; do
  set -- $size
  "$pool_tool" "$1" "$2" 1 > "$work/geo-pool-$1x$2.json"
  row "geo pool $1 x $2" PROBLEM="$work/geo-pool-$1x$2.json"
done

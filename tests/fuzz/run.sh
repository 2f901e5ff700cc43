#!/bin/sh
# Builds the parsers' libFuzzer target (fuzz_problem.cpp) with clang in its own
# folder and runs it on the examples as seeds.
#   tests/fuzz/run.sh [BUILD_DIR] [libFuzzer options]   (default: build/fuzz, -runs=2000)
#   tests/fuzz/run.sh build/fuzz -max_total_time=600    a longer hunt
# Exits 77 (ctest: skipped) when clang++ or its libFuzzer is missing.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:-$root/build/fuzz}
[ $# -gt 0 ] && shift
cxx=${GEOTRAIN_FUZZ_CXX:-clang++}

if ! command -v "$cxx" >/dev/null 2>&1; then
  echo "fuzz: no $cxx, skipped"; exit 77
fi
mkdir -p "$build"
probe="$build/probe.cpp"
printf 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }\n' > "$probe"
if ! "$cxx" -fsanitize=fuzzer "$probe" -o "$build/probe" >/dev/null 2>&1; then
  echo "fuzz: $cxx cannot link -fsanitize=fuzzer (no libFuzzer), skipped"; exit 77
fi

cmake -S "$here" -B "$build" -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=None >/dev/null
cmake --build "$build" --target fuzz_problem -j2 >/dev/null

# Seeds: every example alone, and each with a plan after a NUL byte.
seeds="$build/seeds"
mkdir -p "$seeds" "$build/corpus"
for f in "$root"/examples/*.json; do
  name=$(basename "$f" .json)
  cp "$f" "$seeds/$name.json"
  { cat "$f"; printf '\000{"stages": [{"gpu": "g0", "layers": 2}, {"gpu": "g1", "layers": 10}]}'; } > "$seeds/$name.plan"
done

[ $# -eq 0 ] && set -- -runs=2000
exec "$build/fuzz_problem" -max_len=16384 -timeout=20 -rss_limit_mb=4096 "$@" "$build/corpus" "$seeds"

#!/usr/bin/env bash
# Prints docs/objectives.md's table of each example's own micro-batch size against the
# one search.micro_batch_size "auto" chooses: the memetic algorithm, seed 1, at
# each file's objective, --micro-batch-size fixed and auto.
# Usage: examples/micro-batch-table.sh [CLI]
set -euo pipefail
cli=$(realpath "${1:-$(dirname "$0")/../build/native/core/geotrain}")
cd "$(dirname "$0")"
echo "| example | B | file's u: objective | T_iter (s) | auto: u | objective | T_iter (s) | u planned / pruned |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for f in *.json; do
  fixed=$("$cli" solve "$f" --micro-batch-size fixed 2>/dev/null || true)
  auto=$("$cli" solve "$f" --micro-batch-size auto 2>/dev/null || true)
  node -e '
    const [file, a, b] = process.argv.slice(1);
    const read = (t) => { try { return JSON.parse(t); } catch { return null; } };
    const f = read(a), x = read(b), doc = require("./" + file);
    if (!f || !x) { console.log(`| ${file} | ${doc.model.global_batch_size} | no plan | | | | | |`); process.exit(0); }
    console.log(`| ${file} | ${doc.model.global_batch_size} | u = ${f.micro_batch_size}: ${f.objective.toFixed(3)} | ` +
                `${(f.iteration_ms / 1000).toFixed(2)} | ${x.micro_batch_size} | ${x.objective.toFixed(3)} | ` +
                `${(x.iteration_ms / 1000).toFixed(2)} | ${x.micro_batch_sizes_planned} / ${x.micro_batch_sizes_pruned} |`);
  ' "$f" "$fixed" "$auto"
done

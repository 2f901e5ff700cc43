#!/usr/bin/env bash
# Prints docs/launch.md's table of what each engine's constraint costs on the
# examples: the memetic algorithm at each file's settings with --engine any and
# with each engine (search.engine), iteration time and the engine's price (its
# objective over the unconstrained plan's, which the same run reports); a file
# planned one GPU per stage is planned with stage groups too (--parallelism
# hybrid) when it has nodes of several GPUs (without, the two spaces are one).
# Usage: examples/engine-table.sh [CLI]
set -euo pipefail
cli=$(realpath "${1:-$(dirname "$0")/../build/native/core/geotrain}")
cd "$(dirname "$0")"
echo "| example | GPUs | parallelism | any: T_iter (s) | Megatron-Core | DeepSpeed | torch | FlashFlex |"
echo "| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: |"
for f in *.json; do
  own=$(node -e 'console.log(require("./" + process.argv[1]).search?.parallelism ?? "pipeline")' "$f")
  nodes=$(node -e 'console.log(require("./" + process.argv[1]).gpus.some((g) => g.node) ? "yes" : "no")' "$f")
  for parallelism in $own $([ "$own" = pipeline ] && [ "$nodes" = yes ] && echo hybrid); do
  results=()
  for engine in any megatron-core deepspeed torch flashflex; do
    results+=("$("$cli" solve "$f" --engine "$engine" --parallelism "$parallelism" 2>/dev/null || true)")
  done
  node -e '
    const [file, parallelism, ...outs] = process.argv.slice(1);
    const read = (t) => { try { return JSON.parse(t); } catch { return null; } };
    const doc = require("./" + file);
    const [any, ...engines] = outs.map(read);
    const seconds = (r) => (r.iteration_ms / 1000).toFixed(2);
    const cell = (r) => !r || r.error ? "no plan" : `${seconds(r)} (+${r.engine_price.objective_pct.toFixed(1)} %)`;
    console.log(`| ${file} | ${doc.gpus.length} | ${parallelism} | ${any && !any.error ? seconds(any) : "no plan"} | ${engines.map(cell).join(" | ")} |`);
  ' "$f" "$parallelism" "${results[@]}"
  done
done

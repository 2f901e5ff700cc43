#!/usr/bin/env bash
# Prints docs/stage-groups.md's table of pipeline-only against hybrid (stage-group)
# plans on the examples: the memetic algorithm at each file's settings with
# --parallelism pipeline and hybrid. Usage: examples/parallelism-table.sh [CLI]
set -euo pipefail
cli=$(realpath "${1:-$(dirname "$0")/../build/native/core/geotrain}")
cd "$(dirname "$0")"
echo "| example | GPUs | pipeline: T_iter (s) | energy (kJ) | GPUs used | hybrid: T_iter (s) | energy (kJ) | GPUs used | stages |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for f in *.json; do
  pipeline=$("$cli" solve "$f" --parallelism pipeline 2>/dev/null || true)
  hybrid=$("$cli" solve "$f" --parallelism hybrid 2>/dev/null || true)
  node -e '
    const [file, p, h] = process.argv.slice(1);
    const read = (t) => { try { return JSON.parse(t); } catch { return null; } };
    const a = read(p), b = read(h), doc = require("./" + file);
    const cell = (r) => r && !r.error ? [(r.iteration_ms / 1000).toFixed(2), (r.energy_j / 1000).toFixed(1), r.gpus_used]
                                      : ["no plan fits", "", ""];
    console.log(`| ${file} | ${doc.gpus.length} | ${cell(a).join(" | ")} | ${cell(b).join(" | ")} | ${b && !b.error ? b.stages.length : ""} |`);
  ' "$f" "$pipeline" "$hybrid"
done

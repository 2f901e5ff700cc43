#!/usr/bin/env bash
# Prints the table of one pipeline against replicas on the 512-A100 four-site
# example (docs/replicas.md): for each wide-area bandwidth and sync period,
# the memetic plan with --replicas 1 and with --replicas auto.
# Usage: examples/replicas-table.sh [CLI]
set -euo pipefail
cli=$(realpath "${1:-$(dirname "$0")/../build/native/core/geotrain}")
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "| wide-area link | sync every | one pipeline: T_iter (s) | GPUs | replicas auto: T_iter (s) | GPUs | replicas | pipeline (s) | sync (s) | partition |"
echo "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
for case in "100 1" "400 1" "100 10" "10 10" "10 1"; do
  set -- $case
  node -e '
    const fs = require("fs");
    const doc = JSON.parse(fs.readFileSync("geo-512xa100.json", "utf8"));
    doc.network.inter_site.bandwidth_gbps = Number(process.argv[1]);
    doc.training = { sync_every: Number(process.argv[2]) };
    fs.writeFileSync(process.argv[3], JSON.stringify(doc));
  ' "$1" "$2" "$tmp/p.json"
  one=$("$cli" solve "$tmp/p.json" --replicas 1)
  auto=$("$cli" solve "$tmp/p.json" --replicas auto)
  node -e '
    const [wan, h, a, b] = process.argv.slice(1);
    const one = JSON.parse(a), auto = JSON.parse(b);
    const s = (ms) => (ms / 1000).toFixed(1);
    const R = auto.replica_count || 1;
    const pipe = auto.replicas ? Math.max(...auto.replicas.map((r) => r.pipeline_ms)) : auto.iteration_ms;
    console.log(`| ${wan} Gbps | ${h} | ${s(one.iteration_ms)} | ${one.gpus_used} | ${s(auto.iteration_ms)} | ` +
                `${auto.gpus_used} | ${R} | ${s(pipe)} | ${s(auto.cross_replica_sync_ms || 0)} | ${auto.replica_partition} |`);
  ' "$1" "$2" "$one" "$auto"
done

#!/usr/bin/env bash
# Prints docs/objectives.md's table of the time-, energy-, carbon- and money-optimal
# plans of one example (by default world-wide.json, whose sites carry
# representative grid, PUE and price figures from CATALOGUE.md): the memetic
# algorithm, seed 1, once per weighting, with the run totals of
# training.iterations. Usage: examples/objectives-table.sh [CLI] [EXAMPLE]
set -euo pipefail
cli=$(realpath "${1:-$(dirname "$0")/../build/native/core/geotrain}")
example=${2:-world-wide.json}
cd "$(dirname "$0")"
echo "| plan | weights | GPUs used (sites) | T_iter (s) | run (days) | facility energy (kWh) | carbon (kg CO2e) | money ($) |"
echo "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |"
for row in "time-optimal:time=1" "energy-optimal:energy=1" "carbon-optimal:carbon=1" "cheapest:cost=1" \
           "balanced:time=1,energy=1,carbon=1,cost=1"; do
  name=${row%%:*} weights=${row#*:}
  result=$("$cli" solve "$example" --weights "$weights" --seed 1)
  node -e '
    const [name, weights, text] = process.argv.slice(1);
    const r = JSON.parse(text);
    const sites = r.sites.map((s) => `${s.site} ${s.gpus_used}`).join(", ");
    const run = r.run;
    console.log(`| ${name} | ${weights} | ${r.gpus_used} (${sites}) | ${(r.iteration_ms / 1000).toFixed(2)} | ` +
                `${run.days.toFixed(1)} | ${run.facility_energy_kwh.toFixed(0)} | ${run.carbon_kg.toFixed(1)} | ` +
                `${run.cost.toFixed(0)} |`);
  ' "$name" "$weights" "$result"
done

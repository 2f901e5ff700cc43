#!/bin/sh
# Rewrites the launch-bundle golden files: for every examples/*.json, the plan
# `geotrain solve` makes (the problem's own method settings and seed), then
# `geotrain launch` on that plan. tests/launch.cli.test.mjs re-runs `launch`
# on each stored plan and compares with the stored bundle.
#   tests/golden/launch/regenerate.sh [--keep-plans] [path/to/geotrain]
# --keep-plans reuses each golden file's own plan (only the bundle's text
# changed) instead of solving again; a new example is always solved.
# Review the diff before committing: a change here is a change users see.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
keep=0
if [ "${1:-}" = "--keep-plans" ]; then keep=1; shift; fi
cli=${1:-$(find "$root/build" -type f -name geotrain -perm -u+x 2>/dev/null | head -n 1)}
[ -x "$cli" ] || { echo "usage: $0 [--keep-plans] path/to/geotrain" >&2; exit 2; }
for problem in "$root"/examples/*.json; do
  name=$(basename "$problem" .json)
  plan=$(mktemp)
  if [ "$keep" = 1 ] && [ -f "$here/$name.json" ]; then
    node -e 'const b = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); console.log(JSON.stringify(b.replicas ? {replicas: b.replicas} : {stages: b.plan}));' \
      "$here/$name.json" > "$plan"
  else
    "$cli" solve "$problem" > "$plan"
  fi
  "$cli" launch "$problem" "$plan" > "$here/$name.json.new"
  mv "$here/$name.json.new" "$here/$name.json"
  rm -f "$plan"
  echo "wrote tests/golden/launch/$name.json"
done

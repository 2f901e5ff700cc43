#!/bin/sh
# Rewrites the launch-bundle golden files: for every examples/*.json, the plan
# `geotrain solve` makes (the problem's own method settings and seed), then
# `geotrain launch` on that plan. tests/launch.cli.test.mjs re-runs `launch`
# on each stored plan and compares with the stored bundle.
#   tests/golden/launch/regenerate.sh [path/to/geotrain]
# Review the diff before committing: a change here is a change users see.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
cli=${1:-$(find "$root/build" -type f -name geotrain -perm -u+x 2>/dev/null | head -n 1)}
[ -x "$cli" ] || { echo "usage: $0 path/to/geotrain" >&2; exit 2; }
for problem in "$root"/examples/*.json; do
  name=$(basename "$problem" .json)
  plan=$(mktemp)
  "$cli" solve "$problem" > "$plan"
  "$cli" launch "$problem" "$plan" > "$here/$name.json"
  rm -f "$plan"
  echo "wrote tests/golden/launch/$name.json"
done

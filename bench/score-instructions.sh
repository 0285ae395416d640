#!/bin/bash
# Instructions per scored post, counted by callgrind (valgrind), for this checkout and, with
# BEFORE=<dir> (that commit's src/ and packages/, node_modules linked), for another, with the
# ratio. Each count is a run of bench/score-loop.ts with MEASURE rounds of N posts after 10
# warm-up rounds, minus the same run without the measured rounds. V8 runs single-threaded, so
# its compiler's and collector's work is counted too; the machine's load does not change the
# count, but when the collector and the compiler run still does: counts of the same code moved
# by 3-7% between runs on 2026-11-27, so compare several runs, not one.
set -euo pipefail
cd "$(dirname "$0")/.."
MEASURE=${MEASURE:-30}
N=${N:-100}
count() {
  local dir=$1 total=()
  for m in "$MEASURE" 0; do
    out=$(mktemp)
    DIR=$dir WARM=10 MEASURE=$m N=$N valgrind --tool=callgrind --callgrind-out-file="$out" \
      ./node_modules/.bin/node --single-threaded bench/score-loop.ts >/dev/null 2>&1
    total+=("$(grep -m1 '^totals:' "$out" | awk '{print $2}')")
    rm -f "$out"
  done
  echo $(((total[0] - total[1]) / (MEASURE * N)))
}
now=$(count "$PWD")
echo "instructions per post, now: $now ($MEASURE x $N posts after 10 warm-up rounds)"
if [ -n "${BEFORE:-}" ]; then
  before=$(count "$BEFORE")
  echo "instructions per post, before: $before; before/now $(awk "BEGIN{printf \"%.3f\", $before/$now}")"
fi

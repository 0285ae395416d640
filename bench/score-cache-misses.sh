#!/bin/bash
# Simulated cache misses per scored post (callgrind's cache simulator: valgrind picks the
# host's L1 and last-level sizes), for this checkout and, with BEFORE=<dir>, for another, as
# bench/score-instructions.sh counts instructions: MEASURE rounds of N posts after 10 warm-up
# rounds, minus the same run without the measured rounds. The scorer's remaining time is mostly
# loads that wait for memory (performance-notes.md, bench/score), which an instruction count
# does not see and wall-clock time on a shared machine measures badly; a simulated count is
# the same whatever else runs. It models one core's caches alone: a proxy, not a timing.
set -euo pipefail
cd "$(dirname "$0")/.."
MEASURE=${MEASURE:-30}
N=${N:-100}
# Prints "Ir D1miss LLmiss" of one run.
run() {
  local dir=$1 m=$2 out
  out=$(mktemp)
  DIR=$dir WARM=10 MEASURE=$m N=$N valgrind --tool=callgrind --cache-sim=yes --callgrind-out-file="$out" \
    ./node_modules/.bin/node --single-threaded bench/score-loop.ts >/dev/null 2>&1
  awk '/^events:/ { for (i = 2; i <= NF; i++) e[$i] = i - 1 }
    /^totals:/ { print $(e["Ir"] + 1), $(e["D1mr"] + 1) + $(e["D1mw"] + 1), $(e["DLmr"] + 1) + $(e["DLmw"] + 1); exit }' "$out"
  rm -f "$out"
}
count() {
  local dir=$1
  read -r ir1 d1 ll1 <<<"$(run "$dir" "$MEASURE")"
  read -r ir0 d0 ll0 <<<"$(run "$dir" 0)"
  local posts=$((MEASURE * N))
  echo "$(((ir1 - ir0) / posts)) $(((d1 - d0) / posts)) $(((ll1 - ll0) / posts))"
}
read -r ir d1 ll <<<"$(count "$PWD")"
echo "per post, now: $ir instructions, $d1 L1 data misses, $ll last-level data misses ($MEASURE x $N posts after 10 warm-up rounds)"
if [ -n "${BEFORE:-}" ]; then
  read -r bir bd1 bll <<<"$(count "$BEFORE")"
  echo "per post, before: $bir instructions, $bd1 L1 data misses, $bll last-level data misses"
fi

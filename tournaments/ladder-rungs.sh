#!/usr/bin/env bash
# The four-rung ladder against an older build (docs/log.md, step 42):
# st=0.1, st=0.02, tc=1+0.01 and tc=10+0.1, Threads 1 each, two games at a time, openings of
# four random plies (none from tournaments/openings.txt, which the engines have seen), default
# time margin. Records go to OUT/RUNG.jsonl and OUT/RUNG.log; the last lines of each log hold
# the score, Elo, pentanomial counts and each engine's time per move.
#
#   tournaments/build-baseline.sh v0.3.0      # once: target/baseline/v0.3.0/punct
#   cargo build --release
#   tournaments/ladder-rungs.sh OUT           # 200 games per rung (tc=10+0.1: 100)
#
# Environment: BASE (target/baseline/v0.3.0/punct), NEW (target/release/punct), GAMES (200),
# SLOW_GAMES (games at tc=10+0.1; 100), RUNGS (the rungs to play, space separated), SRAND (3400).
# Run it on an otherwise idle machine: a timed match beside other work measures the load.
set -euo pipefail

out=${1:?usage: ladder-rungs.sh OUT}
base=${BASE:-target/baseline/v0.3.0/punct}
new=${NEW:-target/release/punct}
games=${GAMES:-200}
slow_games=${SLOW_GAMES:-100}
srand=${SRAND:-3400}
rungs=${RUNGS:-st=0.1 st=0.02 tc=1+0.01 tc=10+0.1}
referee=${REFEREE:-target/release/punct-referee}
mkdir -p "$out"
for f in "$base" "$new" "$referee"; do
  [ -x "$f" ] || { echo "ladder-rungs: $f is missing (see the header of $0)" >&2; exit 1; }
done

i=0
for rung in $rungs; do
  n=$games
  [ "$rung" = "tc=10+0.1" ] && n=$slow_games
  name=${rung//[=+]/-}
  echo "== $rung: $n games (srand $((srand + i)))"
  "$referee" -engine cmd="$new" name=new -engine cmd="$base" name=base -each "$rung" \
    -games "$n" -concurrency 2 -random-openings plies=4 -srand $((srand + i)) \
    -jsonl "$out/$name.jsonl" -overwrite > "$out/$name.log" 2>&1
  grep -E "^(Score of|Elo:|Ptnml|Time:|Played)" "$out/$name.log" | tail -6 || true
  i=$((i + 1))
done

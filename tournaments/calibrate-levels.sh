#!/usr/bin/env bash
# The strength levels' calibration (docs/levels.md): every level against its neighbours (one
# and two steps away), levels about 400 Elo apart against each other, the lowest levels
# against builtin:safe and the levels near it against builtin:greedy (the anchors, whose
# ratings are fixed), and the top level against full strength; then one fit of all the games
# on the anchored scale, with the table and the plot of measured against claimed Elo.
#
#   cargo build --release
#   tournaments/calibrate-levels.sh OUT                  # st=0.1, every pair
#   TC=tc=10+0.1 tournaments/calibrate-levels.sh OUT2    # another control
#   SHARD=3/8 tournaments/calibrate-levels.sh OUT        # one of 8 shards (one per machine)
#   tournaments/calibrate-levels.sh OUT --merge          # fit the games in OUT/*.jsonl
#
# A run writes OUT/PAIR.jsonl per pair (OUT/PAIR.shardI.jsonl with SHARD), resumes each pair
# where it stopped when run again, and ends with --merge (which a sharded run leaves to you,
# once every shard's files are in OUT): OUT/levels.md (the table), OUT/levels.svg (the plot),
# OUT/claims.tsv. The engine is copied to OUT first (a rebuild during the run changes
# nothing); OUT/manifest.txt names its commit and checksum.
#
# Environment: TC (the control, as the referee's -each takes it: st=0.1), GAMES (games per
# pair one step apart: 200; TOP_GAMES, 300, for the pairs from L12 up, whose ratings lie
# furthest from the anchors), SKIP_GAMES (two steps apart: 100), FAR_GAMES (levels five steps
# apart: 100), ANCHOR_GAMES (each anchor pair: 100), SRAND (7000), CONCURRENCY (the cores),
# ENGINE (target/release/punct), REFEREE (target/release/punct-referee), ANCHORS (the fixed
# ratings, "greedy=1000 safe=..."), EXCLUDE (pairs to leave out, a grep -E pattern on their
# names, e.g. 'full|L19' to play the untimed pairs first on a busy machine), TOP (the highest
# level played, for a quick check: all of them). Run it on an otherwise idle machine: the top levels and
# full strength are timed.
set -euo pipefail

out=${1:?usage: calibrate-levels.sh OUT [--merge]}
root=$(cd "$(dirname "$0")/.." && pwd)
referee=${REFEREE:-$root/target/release/punct-referee}
engine=${ENGINE:-$root/target/release/punct}
anchors=${ANCHORS:-greedy=1000 safe=300}
mkdir -p "$out"

for f in "$referee" "$engine"; do
  [ -x "$f" ] || { echo "calibrate-levels: $f is missing (cargo build --release)" >&2; exit 1; }
done
if [ ! -x "$out/punct" ]; then
  cp "$engine" "$out/punct"
  {
    echo "engine: $engine ($(git -C "$root" describe --always --dirty 2>/dev/null || echo unknown))"
    echo "sha256: $(sha256sum "$out/punct" | cut -d' ' -f1)"
  } > "$out/manifest.txt"
fi
engine=$out/punct
"$engine" levels | awk -F'\t' '!/^#/ && $2 != "full" {print "L" $1 "\t" $2}' > "$out/claims.tsv"

merge() {
  local anchor_flags=()
  for a in $anchors; do anchor_flags+=(-anchor "$a"); done
  "$referee" -ratings "$out"/*.jsonl "${anchor_flags[@]}" -claims "$out/claims.tsv" \
    -table "$out/levels.md" -plot "$out/levels.svg"
}
if [ "${2:-}" = "--merge" ]; then
  merge
  exit 0
fi

tc=${TC:-st=0.1}
games=${GAMES:-200}
top_games=${TOP_GAMES:-300}
skip_games=${SKIP_GAMES:-100}
far_games=${FAR_GAMES:-100}
anchor_games=${ANCHOR_GAMES:-100}
srand=${SRAND:-7000}
concurrency=${CONCURRENCY:-$(nproc)}
shard=${SHARD:-}
top=$(awk 'END {print NR - 1}' "$out/claims.tsv")
top=${TOP:-$top}

# A player's referee keys, into the array named by $2.
player() {
  local -n keys=$2
  case $1 in
    greedy | safe | random) keys=("cmd=builtin:$1" "name=$1") ;;
    full) keys=("cmd=$engine" name=full) ;;
    L*) keys=("cmd=$engine" "name=$1" "option.Skill Level=${1#L}") ;;
  esac
}

# The claimed Elo of level L$1.
claim() { awk -v n="L$1" '$1 == n {print $2}' "$out/claims.tsv"; }

# The pairs: "A B GAMES", each once.
pairs() {
  local i j
  for ((i = 0; i < top; i++)); do
    echo "L$i L$((i + 1)) $(( i >= 12 ? top_games : games ))"
  done
  echo "L$top full $top_games"
  for ((i = 0; i + 2 <= top; i++)); do echo "L$i L$((i + 2)) $skip_games"; done
  echo "L$((top - 1)) full $skip_games"
  for ((i = 0; i + 5 <= top; i += 5)); do echo "L$i L$((i + 5)) $far_games"; done
  echo "L0 safe $anchor_games"
  echo "L1 safe $anchor_games"
  # The levels claimed within 250 of greedy's rating play it.
  local g=${anchors#*greedy=}
  g=${g%% *}
  for ((i = 0; i <= top; i++)); do
    local d=$(($(claim "$i") - g))
    if [ ${d#-} -le 250 ]; then echo "L$i greedy $anchor_games"; fi
  done
}

pairs | { if [ -n "${EXCLUDE:-}" ]; then grep -Ev "^($EXCLUDE) |^[^ ]+ ($EXCLUDE) " || true; else cat; fi; } > "$out/pairs.txt"
n=0
while read -r a b count; do
  n=$((n + 1))
  name="$a-$b"
  log="$out/$name.jsonl"
  shard_flags=()
  if [ -n "$shard" ]; then
    log="$out/$name.shard${shard%/*}.jsonl"
    shard_flags=(-shard "$shard")
  fi
  resume=(-overwrite)
  [ -s "$log" ] && resume=(-resume)
  player "$a" keys_a
  player "$b" keys_b
  echo "== $name: $count games at $tc${shard:+, shard $shard}"
  "$referee" -engine "${keys_a[@]}" -engine "${keys_b[@]}" \
    -each "$tc" -games "$count" -concurrency "$concurrency" -random-openings plies=4 \
    -srand $((srand + n)) -ratinginterval 0 -event "levels $tc" -jsonl "$log" \
    "${shard_flags[@]}" "${resume[@]}" > "$out/$name.log" 2>&1 || {
    echo "calibrate-levels: $name failed, see $out/$name.log" >&2
    exit 1
  }
  grep -E "^Score of" "$out/$name.log" | tail -1 || true
done < "$out/pairs.txt"

[ -n "$shard" ] || merge

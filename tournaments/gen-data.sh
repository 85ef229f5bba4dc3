#!/usr/bin/env bash
# Training data at scale: `punct-tune gen` split into shards, run by GNU parallel over the cores,
# resumable, with a manifest that lets anyone make any shard again (docs/tuning.md, "Data at
# scale"; the same shards as a Slurm array: docs/scaling.md).
#
#   tournaments/gen-data.sh DIR                 # 16 shards, 46,000 games in all (~530,000 positions)
#   tournaments/gen-data.sh DIR SHARDS GAMES    # another split or size
#   tournaments/gen-data.sh DIR --manifest      # only (re)write DIR/manifest.tsv
#
# Run it again after an interruption: every shard resumes from its journal (DIR/gen.I.bin.gen.jsonl)
# and a finished shard returns at once. The binary is copied to DIR/punct-tune first, so that a
# rebuild of target/release during the run changes nothing; its checksum goes in the manifest.
# Environment: JOBS (default: the number of cores), NODES (3000), PLAYNODES (1000), SRAND (1),
# NICE (10).
set -euo pipefail

dir=${1:?usage: gen-data.sh DIR [SHARDS GAMES | --manifest]}
shards=${2:-16}
games=${3:-46000}
jobs=${JOBS:-$(nproc)}
nodes=${NODES:-3000}
playnodes=${PLAYNODES:-1000}
srand=${SRAND:-1}
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
mkdir -p "$dir"

manifest() {
  local m="$dir/manifest.tsv"
  {
    printf '# punct-tune gen shards: %s\n' "$(cat "$dir/command.txt")"
    printf '# binary sha256 %s, commit %s\n' "$(sha256sum "$dir/punct-tune" | cut -d' ' -f1)" "$(cat "$dir/commit.txt")"
    printf 'shard\tseed\tgames_done\tpositions\tbytes\tsha256\n'
    for f in "$dir"/gen.*.bin; do
      [ -e "$f" ] || continue
      i=${f##*/gen.}; i=${i%.bin}
      bytes=$(stat -c %s "$f")
      # 88-byte blocks, a header first (docs/tuning.md); finished games are journal lines.
      done_games=$(grep -c '"type":"game"' "$f.gen.jsonl" 2>/dev/null || true)
      printf '%s/%s\t%s\t%s\t%s\t%s\t%s\n' "$i" "$shards" "$srand" "${done_games:-0}" \
        $((bytes > 0 ? bytes / 88 - 1 : 0)) "$bytes" "$(sha256sum "$f" | cut -d' ' -f1)"
    done | sort -n
  } > "$m.partial"
  mv "$m.partial" "$m"
  awk -F'\t' 'NR>3 {g+=$3; p+=$4} END {printf "%d shards: %d games, %d positions\n", NR-3, g, p}' "$m"
}

if [ "${2:-}" = "--manifest" ]; then
  shards=$(sed -n 's/.*-shard {}\/\([0-9]*\).*/\1/p' "$dir/command.txt")
  manifest
  exit 0
fi

command -v parallel >/dev/null || { echo "gen-data: GNU parallel is needed (apt-get install parallel)" >&2; exit 1; }
if [ ! -x "$dir/punct-tune" ]; then
  cp "$root/target/release/punct-tune" "$dir/punct-tune"
  git -C "$root" rev-parse HEAD > "$dir/commit.txt"
fi
cmd="$dir/punct-tune gen -out $dir/gen.{}.bin -games $games -nodes $nodes -playnodes $playnodes -threads 1 -srand $srand -shard {}/$shards -progress 60 -resume"
echo "$cmd" > "$dir/command.txt"
seq 0 $((shards - 1)) | nice -n "${NICE:-10}" parallel -j"$jobs" --retries 3 --joblog "$dir/joblog.tsv" \
  "$cmd >> $dir/gen.{}.log 2>&1"
manifest

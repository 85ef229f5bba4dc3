#!/usr/bin/env bash
# Move-ordering labels at scale: `punct-tune order-label` over the games of `gen-data.sh`'s
# shards, one job per shard under GNU parallel, resumable, with a manifest (docs/tuning.md,
# "Labels at scale").
#
#   tournaments/label-data.sh OUT GENDIR SHARD...      # label these gen shards' games
#   tournaments/label-data.sh OUT --manifest           # only (re)write OUT/manifest.tsv
#
# Each job reads the first GAMES games of GENDIR/gen.I.bin.gen.jsonl (default: the games there
# when the job first ran, fixed in OUT/labels.I.games), keeps positions with probability FREQ
# and labels them with the engine's best move at NODES nodes into OUT/labels.I.tsv. Run it
# again after an interruption: each job resumes where its file ends. The same GAMES, FREQ and
# NODES with the same binary make the same file again. Environment: NODES (5000), FREQ (0.6),
# GAMES, JOBS (the number of cores), NICE (5).
set -euo pipefail

out=${1:?usage: label-data.sh OUT GENDIR SHARD... | OUT --manifest}
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
mkdir -p "$out"

manifest() {
  local m="$out/manifest.tsv"
  {
    printf '# punct-tune order-label jobs: %s\n' "$(cat "$out/command.txt")"
    printf '# binary sha256 %s, commit %s\n' "$(sha256sum "$out/punct-tune" | cut -d' ' -f1)" "$(cat "$out/commit.txt")"
    printf 'shard\tgames_read\tlabels\tbytes\tsha256\n'
    for f in "$out"/labels.*.tsv; do
      [ -e "$f" ] || continue
      i=${f##*/labels.}; i=${i%.tsv}
      printf '%s\t%s\t%s\t%s\t%s\n' "$i" "$(cat "$out/labels.$i.games")" \
        "$(grep -vc '^#' "$f" || true)" "$(stat -c %s "$f")" "$(sha256sum "$f" | cut -d' ' -f1)"
    done | sort -n
  } > "$m.partial"
  mv "$m.partial" "$m"
  awk -F'\t' 'NR>3 {g+=$2; l+=$3} END {printf "%d shards: %d games read, %d labels\n", NR-3, g, l}' "$m"
}

if [ "${2:-}" = "--manifest" ]; then
  manifest
  exit 0
fi

gendir=${2:?usage: label-data.sh OUT GENDIR SHARD...}
shift 2
[ $# -gt 0 ] || { echo "label-data: name the gen shards to label (e.g. 0 1 2)" >&2; exit 1; }
command -v parallel >/dev/null || { echo "label-data: GNU parallel is needed (apt-get install parallel)" >&2; exit 1; }
if [ ! -x "$out/punct-tune" ]; then
  cp "$root/target/release/punct-tune" "$out/punct-tune"
  git -C "$root" rev-parse HEAD > "$out/commit.txt"
fi
for i in "$@"; do
  j="$gendir/gen.$i.bin.gen.jsonl"
  [ -e "$j" ] || { echo "label-data: no journal $j" >&2; exit 1; }
  # The games to read are fixed at the first run, so that a resumed job sees the same ones.
  [ -e "$out/labels.$i.games" ] || echo "${GAMES:-$(grep -c '"type":"game"' "$j")}" > "$out/labels.$i.games"
done
cmd="$out/punct-tune order-label -games $gendir/gen.{}.bin.gen.jsonl -maxgames \$(cat $out/labels.{}.games) -freq ${FREQ:-0.6} -nodes ${NODES:-5000} -out $out/labels.{}.tsv"
echo "$cmd" > "$out/command.txt"
printf '%s\n' "$@" | nice -n "${NICE:-5}" parallel -j"${JOBS:-$(nproc)}" --joblog "$out/joblog.tsv" \
  "$cmd >> $out/labels.{}.log 2>&1"
manifest

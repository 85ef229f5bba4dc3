#!/usr/bin/env bash
# Builds a previous engine version into target/baseline/VERSION/punct, the opponent of the
# ladder (tournaments/ladder.toml) and of SPRTs (tournaments/sprt-nodes.toml).
#
#   tournaments/build-baseline.sh                # v0.1.0: the engine before issue 8
#   tournaments/build-baseline.sh v0.2.0         # v0.2.0: the engine of the strength work
#   tournaments/build-baseline.sh v0.3.0         # v0.3.0: the learned ordering and network
#   tournaments/build-baseline.sh TAG [COMMIT]   # another version (a tag, or any commit as TAG)
#
# The source is taken from git (the tag, or the commit when the tag is missing, as in a clone
# made without tags), exported into a temporary directory and built there with its own
# Cargo.lock; nothing in the working tree changes. Idempotent: an existing binary is kept
# (delete it to rebuild).
set -euo pipefail

VERSION=${1:-v0.1.0}
if [ $# -ge 2 ]; then
  COMMIT=$2
else
  # The known releases, for a clone made without tags; any other name is looked up as a
  # revision (a tag, a branch or a commit) below.
  case "$VERSION" in
    v0.1.0) COMMIT=a858526531ae75c826a2f3e7d5f873216c239d95 ;;
    v0.2.0) COMMIT=eb025a1aae8b1a7b34c7265f5952c337a45d4b81 ;;
    # The engine of v0.3.0; the tag sits on the release commit after it (changelog only).
    v0.3.0) COMMIT=6d48bb6bb05bcc1a31c7473a5fb5ea87aa6c7657 ;;
    *) COMMIT= ;;
  esac
fi

root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
out="$root/target/baseline/$VERSION/punct"
if [ -x "$out" ]; then
  echo "baseline $VERSION already built: $out"
  exit 0
fi

# The revision: the tag if present, else the commit (fetched if this clone lacks it).
rev=
if git -C "$root" rev-parse -q --verify "refs/tags/$VERSION^{commit}" >/dev/null; then
  rev=$VERSION
elif [ -z "$COMMIT" ] && git -C "$root" rev-parse -q --verify "$VERSION^{commit}" >/dev/null; then
  # Not a tag: a commit (or branch) named directly, e.g. build-baseline.sh eb025a1.
  rev=$VERSION
elif [ -n "$COMMIT" ]; then
  if ! git -C "$root" cat-file -e "$COMMIT^{commit}" 2>/dev/null; then
    echo "fetching $COMMIT" >&2
    git -C "$root" fetch --quiet origin "$COMMIT" ||
      git -C "$root" fetch --quiet --tags --unshallow origin ||
      git -C "$root" fetch --quiet --tags origin || true
  fi
  if git -C "$root" cat-file -e "$COMMIT^{commit}" 2>/dev/null; then
    rev=$COMMIT
  fi
fi
if [ -z "$rev" ]; then
  echo "build-baseline: no tag or revision $VERSION and no commit '${COMMIT:-?}' is in this repository" >&2
  exit 1
fi
echo "building baseline $VERSION from $(git -C "$root" rev-parse --short "$rev^{commit}")" >&2

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Files stamped now (-m): git archive gives them the commit's time, and the shared target
# directory would then take an older commit's build of a later-built version as up to date.
git -C "$root" archive --format=tar "$rev" | tar -x -m -C "$tmp"
# A target directory of its own: the baseline's artifacts never mix with the current ones.
CARGO_TARGET_DIR="$root/target/baseline/build" \
  nice -n 10 cargo build --release --locked --bin punct --manifest-path "$tmp/Cargo.toml"
mkdir -p "$(dirname "$out")"
cp "$root/target/baseline/build/release/punct" "$out.partial"
mv "$out.partial" "$out"
# A binary that does not answer the handshake is not a baseline.
if ! printf 'uci\nquit\n' | "$out" 2>/dev/null | grep -q '^uciok'; then
  rm -f "$out"
  echo "build-baseline: $out does not answer uci" >&2
  exit 1
fi
echo "baseline $VERSION: $out"

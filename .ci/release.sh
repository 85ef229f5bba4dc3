#!/usr/bin/env bash
# Release archives: builds the four programs (punct, punct-referee, punct-gui, punct-tune) for
# each target, packs each target's with README.md, docs/rules.md, docs/gui.md, protocol.md and
# LICENSE into punct-VERSION-TARGET (.tar.gz; .zip for Windows), writes SHA256SUMS, then
# unpacks every archive and runs its binaries: each says the version the archive is named by,
# and `punct bench` gives the same signature on every target.
#
#   .ci/release.sh [OUT]                     # default OUT: target/dist
#   TARGETS="aarch64-apple-darwin" .ci/release.sh   # another target (the GitHub workflow)
#
# Default targets: x86_64-unknown-linux-musl (static: runs on any Linux distribution) and
# x86_64-pc-windows-gnu (cross-built with mingw-w64; run under Wine, prepared by
# .ci/wine-env.sh, unless on Windows). VERSION is what the binaries' --version says (build.rs):
# "0.3.0" at the tag v0.3.0, else e.g. "0.3.0-f30aa7e" ("0.3.0 (f30aa7e)"), so an archive built
# between releases is never taken for one. Runs on Linux, macOS and Windows (Git Bash).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=${1:-target/dist}
build=${CARGO_TARGET_DIR:-target}
targets=${TARGETS:-x86_64-unknown-linux-musl x86_64-pc-windows-gnu}
programs="punct punct-referee punct-gui punct-tune"
files="README.md docs/rules.md docs/gui.md protocol.md LICENSE"
log() { echo "== release: $*"; }
fail() { echo "release: FAILED: $*" >&2; exit 1; }
sha256() { if command -v sha256sum >/dev/null; then sha256sum "$@"; else shasum -a 256 "$@"; fi; }
python() { if command -v python3 >/dev/null; then python3 "$@"; else command python "$@"; fi; }

case "$(uname -s)" in
  MINGW* | MSYS* | CYGWIN*) host_windows=1 ;;
  *) host_windows= ;;
esac
needs_wine=
for t in $targets; do
  case "$t" in *windows*) [ -z "$host_windows" ] && needs_wine=1 ;; esac
done
if [ -n "$needs_wine" ]; then
  # shellcheck source=.ci/wine-env.sh
  . .ci/wine-env.sh # mingw-w64 to link, Wine to run the smoke test
fi

# Runs a binary built for target $1: directly, or under Wine for Windows on another system.
run_for() {
  local t=$1
  shift
  case "$t" in
    *windows*) if [ -z "$host_windows" ]; then wine "$@" | tr -d '\r'; return "${PIPESTATUS[0]}"; fi ;;
  esac
  "$@"
}
runs_here() { # whether binaries of target $1 run on this machine
  case "$1" in
    *windows*) [ -n "$host_windows" ] || command -v wine >/dev/null ;;
    *linux*) [ "$(uname -s)" = Linux ] ;;
    *apple*) [ "$(uname -s)" = Darwin ] ;;
    *) false ;;
  esac
}

mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -rf "$out"/punct-* "$out/SHA256SUMS" # an earlier run's archives (nothing else is touched)
version=
for t in $targets; do
  log "building for $t"
  if command -v rustup >/dev/null; then rustup target add "$t" >/dev/null 2>&1 || true; fi
  bins=
  for p in $programs; do bins="$bins --bin $p"; done
  # shellcheck disable=SC2086
  cargo build --release --locked --target "$t" $bins
  case "$t" in *windows*) exe=.exe ;; *) exe= ;; esac
  if [ -z "$version" ] && runs_here "$t"; then
    # "punct 0.3.0" or "punct 0.3.0 (f30aa7e-dirty)": the name's version is what the binary says.
    said=$(run_for "$t" "$build/$t/release/punct$exe" --version)
    version=$(echo "$said" | sed -e 's/^punct //' -e 's/ (/-/' -e 's/)$//')
  fi
done
[ -n "$version" ] || fail "no target's binary runs here, so none says its version"

for t in $targets; do
  case "$t" in *windows*) exe=.exe ;; *) exe= ;; esac
  name=punct-$version-$t
  stage=$out/$name
  mkdir -p "$stage/docs"
  for p in $programs; do cp "$build/$t/release/$p$exe" "$stage/"; done
  for f in $files; do cp "$f" "$stage/$f"; done
  case "$t" in
    *windows*)
      if command -v zip >/dev/null; then (cd "$out" && zip -qr "$name.zip" "$name")
      else (cd "$out" && python -m zipfile -c "$name.zip" "$name"); fi ;;
    *) tar -czf "$out/$name.tar.gz" -C "$out" "$name" ;;
  esac
  rm -rf "$stage"
done
(cd "$out" && sha256 punct-* > SHA256SUMS)
log "archives in $out:"
sed 's/^/   /' "$out/SHA256SUMS"

# The smoke run: the packed binaries, unpacked afresh.
check=$(mktemp -d)
trap 'rm -rf "$check"' EXIT
signature=
for t in $targets; do
  case "$t" in *windows*) exe=.exe; archive=punct-$version-$t.zip ;; *) exe=; archive=punct-$version-$t.tar.gz ;; esac
  if ! runs_here "$t"; then
    log "$archive: not run here (no $t machine)"
    continue
  fi
  mkdir -p "$check/$t"
  case "$archive" in
    *.zip) (cd "$check/$t" && python -m zipfile -e "$out/$archive" .) ;;
    *) tar -xzf "$out/$archive" -C "$check/$t" ;;
  esac
  dir=$check/$t/punct-$version-$t
  for f in $files; do [ -f "$dir/$f" ] || fail "$archive has no $f"; done
  for p in $programs; do
    [ -x "$dir/$p$exe" ] || chmod +x "$dir/$p$exe" 2>/dev/null || true
    said=$(run_for "$t" "$dir/$p$exe" --version)
    want="$p $(echo "$version" | sed 's/^\([0-9.]*\)-\(.*\)$/\1 (\2)/')"
    [ "$said" = "$want" ] || fail "$archive: $p --version says '$said', not '$want'"
  done
  sig=$(run_for "$t" "$dir/punct$exe" bench 2>/dev/null | tail -1 | cut -d' ' -f1)
  [ -n "$sig" ] || fail "$archive: punct bench printed no signature"
  [ -z "$signature" ] || [ "$sig" = "$signature" ] || fail "$archive: bench signature $sig, not $signature"
  signature=$sig
  case "$t" in
    *linux-musl)
      if command -v ldd >/dev/null && ldd "$dir/punct" 2>&1 | grep -q '=>'; then
        fail "$archive: punct is dynamically linked: $(ldd "$dir/punct")"
      fi ;;
  esac
  log "$archive: the four programs say '$version'; punct bench: $sig nodes"
done
[ -n "$needs_wine" ] && wine_stop
log "done"

#!/usr/bin/env bash
# Windows, run and tested on Linux: cross-builds for x86_64-pc-windows-gnu with mingw-w64 and
# runs under Wine (both from Debian's packages) the whole test suite, then an end-to-end check
# of the release archive's own binaries (.ci/release.sh): the bench signature equals the Linux
# archive's, a match, a faulty engine, a referee killed and resumed, the compliance checklist,
# and the GUI with its bundled engine.
#
#   .ci/windows-test.sh          # needs root (installs mingw-w64 and wine if missing)
#   WINDOWS_TEST=1 .ci/run       # the same at the end of CI
#
# Tests left out under Wine, each Unix-only by nature (marked #[cfg(unix)] in tests/): signals
# (SIGINT to the referee), setrlimit, the bash scripts of tournaments/, git and the host's rustc
# (tests/versions.rs), the GUI's level tests (gui_api_levels::, engines behind /bin/sh that log
# what they are sent); and gui_browser::, which needs a Windows Chromium (Debian's is a Linux
# program; the page it tests is the same bytes on both).
# Environment: KEEP=1 keeps the work directory. Exit status 0 when everything passed.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
target=x86_64-pc-windows-gnu
log() { echo "== windows-test: $*"; }
fail() { echo "windows-test: FAILED: $*" >&2; exit 1; }

# shellcheck source=.ci/wine-env.sh
. .ci/wine-env.sh
work=$(mktemp -d /tmp/punct-windows.XXXXXX)
cleanup() {
  wine_stop
  if [ -z "${KEEP:-}" ]; then rm -rf "$work"; else echo "windows-test: kept $work"; fi
}
trap cleanup EXIT

log "the suite under Wine (cargo test --release --target $target)"
# CI=true makes gui_browser fail without Chromium: it is left out by name here instead.
env -u CI CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUNNER=wine \
  cargo test --release --target "$target" -- --skip gui_browser::

log "release archives (.ci/release.sh)"
.ci/release.sh "$work/dist"
linux=$work/linux win=$work/win
mkdir -p "$linux" "$win"
tar -xzf "$work"/dist/punct-*-x86_64-unknown-linux-musl.tar.gz -C "$linux" --strip-components=1
(cd "$win" && python3 -m zipfile -e "$work"/dist/punct-*-"$target".zip . && mv punct-*/* . && rmdir punct-*/)
cp "target/$target/release/punct-mock-engine.exe" "$win/" # a faulty engine (not released)
cd "$win"
w() { wine "$@" 2>>"$work/wine-stderr.txt" | tr -d '\r'; }
# Whether no punct.exe of the unpacked folder runs (waits up to 20 s): engines die with the
# referee or GUI that started them (their job is killed when its last handle closes).
engines_gone() {
  for _ in $(seq 1 40); do
    ps -eo args | grep -F "$(basename "$work")" | grep -qi 'punct\.exe' || return 0
    sleep 0.5
  done
  return 1
}

log "bench signature"
linux_sig=$("$linux/punct" bench 2>/dev/null | tail -1 | cut -d' ' -f1)
win_sig=$(w punct.exe bench | tail -1 | cut -d' ' -f1)
[ -n "$linux_sig" ] && [ "$win_sig" = "$linux_sig" ] || fail "bench: Windows $win_sig, Linux $linux_sig"
log "punct.exe bench: $win_sig nodes, as Linux's"

log "a match of punct.exe against itself (bare names, output piped)"
# `| cat`: the referee's output must end with the referee (no engine holds it).
timeout 600 wine punct-referee.exe -engine cmd=punct.exe name=a -engine cmd=punct name=b \
  -each nodes=500 -games 10 -concurrency 2 -srand 3 -random-openings plies=4 \
  -jsonl match.jsonl 2>>"$work/wine-stderr.txt" | cat > match.txt || fail "match: $(cat match.txt)"
grep -q "Finished match" match.txt || fail "match: no 'Finished match': $(cat match.txt)"
n=$(grep -c '"type":"game"' match.jsonl)
[ "$n" = 10 ] || fail "match: $n games recorded, not 10"
log "10 games: $(tr -d '\r' < match.txt | grep -m1 -E '^Score|Elo' || true)"

log "a faulty engine (the mock engine crashes), -strict"
set +e
w punct-referee.exe -engine cmd=punct-mock-engine.exe "args=--mode crash --after 1" \
  -engine cmd=punct.exe -each nodes=200 -games 2 -strict > fault.txt
code=$?
set -e
[ "$code" = 4 ] || fail "faulty engine: exit $code, not 4 (-strict): $(cat fault.txt)"
grep -q "disconnects" fault.txt || fail "faulty engine: no disconnect judged: $(cat fault.txt)"
log "judged: $(grep -m1 disconnects fault.txt)"

log "a referee killed mid-run, then -resume"
match_args=(-engine cmd=punct.exe name=a -engine cmd=punct.exe name=b -each nodes=3000
  -games 12 -srand 5 -random-openings plies=4 -jsonl resume.jsonl)
wine punct-referee.exe "${match_args[@]}" >/dev/null 2>>"$work/wine-stderr.txt" &
pid=$!
for _ in $(seq 1 600); do
  n=$(grep -c '"type":"game"' resume.jsonl 2>/dev/null || true)
  [ "${n:-0}" -ge 3 ] && break
  sleep 0.5
done
kill -9 "$pid"
wait "$pid" 2>/dev/null || true
before=$(grep -c '"type":"game"' resume.jsonl)
[ "$before" -lt 12 ] || fail "resume: the run ended before it was killed"
engines_gone || fail "resume: engines outlived the killed referee"
w punct-referee.exe "${match_args[@]}" -resume > resumed.txt || fail "resume: $(cat resumed.txt)"
python3 - resume.jsonl <<'PY' || fail "resume: games lost or doubled"
import json, sys
games = [json.loads(l)["game"] for l in open(sys.argv[1]) if '"type":"game"' in l]
print(f"   {len(games)} games after the resume")
sys.exit(0 if sorted(games) == list(range(1, 13)) else 1)
PY
log "killed after $before games; resumed: every game of 12 once"

log "compliance"
w punct-referee.exe -compliance cmd=punct.exe > compliance.txt || fail "compliance: $(cat compliance.txt)"
log "$(tail -1 compliance.txt)"

log "the GUI with its bundled engine, --open (Explorer hands the page to the browser)"
# Wine's browser bridge runs `true` instead of a browser of this machine.
wine reg add 'HKCU\Software\Wine\WineBrowser' /v Browsers /d true /f >/dev/null 2>&1
env -u BROWSER wine punct-gui.exe --port 0 --open > gui.txt 2> gui-stderr.txt &
gui=$!
for _ in $(seq 1 120); do grep -q 'http://127.0.0.1:' gui.txt && break; sleep 0.5; done
port=$(tr -d '\r' < gui.txt | grep -o 'http://127.0.0.1:[0-9]*' | head -1 | cut -d: -f3)
[ -n "$port" ] || { kill "$gui"; fail "gui: no address printed: $(cat gui.txt)"; }
curl -sf "http://127.0.0.1:$port/" | grep -qi '<html' || { kill "$gui"; fail "gui: no page"; }
curl -sf -X POST -H 'Content-Type: application/json' "http://127.0.0.1:$port/api/new" \
  -d '{"white": 0, "black": "human", "time": {"movetime": 200}}' >/dev/null || { kill "$gui"; fail "gui: new game refused"; }
# The state carries the board's SVG (over 128 KB once a piece stands): read it from a file,
# since Linux refuses an argument that long.
played=
for _ in $(seq 1 120); do
  curl -sf "http://127.0.0.1:$port/api/state" > state.json || true
  played=$(python3 -c 'import json,sys; s=json.load(open("state.json")); print(s["moves"][0] if s["engines"][0]["name"]=="punct" and s["moves"] else "")' 2>/dev/null || true)
  [ -n "$played" ] && break
  sleep 0.5
done
kill "$gui"
wait "$gui" 2>/dev/null || true
engines_gone || fail "gui: its engine outlived it"
[ -n "$played" ] || fail "gui: the bundled engine did not play a first move"
! grep -q "cannot start" gui-stderr.txt || fail "gui: --open: $(cat gui-stderr.txt)"
log "page served; the bundled engine punct.exe played $played"

cd "$root"
log "passed: the suite under Wine and the end-to-end checks of $(basename "$work"/dist/punct-*-"$target".zip)"

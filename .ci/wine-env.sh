# Sourced by the scripts that run Windows binaries here (.ci/windows-test.sh, .ci/release.sh):
# installs mingw-w64 and Wine from Debian's packages if missing, adds the Rust target, and
# prepares a Wine prefix of the project's own (target/wine, or $WINEPREFIX if set) in which
# Rust programs start. Exports WINEPREFIX and WINEDEBUG; defines `wine_stop`.
#
# Rust's standard library (1.78 on) imports ProcessPrng from bcryptprimitives.dll, which Real
# Windows 10+ has and Wine 8.0 (Debian 12) lacks: there every .exe exits with status 53. Where
# the prefix has no such DLL, a stand-in is built here with mingw-w64 that forwards ProcessPrng
# to RtlGenRandom (advapi32's SystemFunction036), the generator Rust used before 1.78.

wine_env_root=$(git -C "$(dirname "${BASH_SOURCE[0]}")" rev-parse --show-toplevel)

if ! command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1 || ! command -v wine >/dev/null 2>&1; then
  echo "== installing mingw-w64 and wine (Debian's packages)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq gcc-mingw-w64-x86-64 wine wine64 >/dev/null
fi
if command -v rustup >/dev/null 2>&1; then
  rustup target add x86_64-pc-windows-gnu >/dev/null 2>&1 || true
fi

export WINEPREFIX=${WINEPREFIX:-$wine_env_root/target/wine}
export WINEDEBUG=${WINEDEBUG:--all}
export WINEDLLOVERRIDES=${WINEDLLOVERRIDES:-mscoree,mshtml=} # no Mono or Gecko installer prompts

if [ ! -f "$WINEPREFIX/system.reg" ]; then
  echo "== a new Wine prefix in $WINEPREFIX"
  mkdir -p "$WINEPREFIX"
  wineboot --init >/dev/null 2>&1 || true
  wineserver -w
  [ -f "$WINEPREFIX/system.reg" ] || { echo "wine-env: wineboot made no prefix in $WINEPREFIX" >&2; exit 1; }
fi

system32=$WINEPREFIX/drive_c/windows/system32
if [ ! -e "$system32/bcryptprimitives.dll" ]; then
  echo "== stand-in bcryptprimitives.dll (ProcessPrng -> RtlGenRandom) in the Wine prefix"
  dll_dir=$(mktemp -d)
  cat > "$dll_dir/bcryptprimitives.c" <<'C'
#include <windows.h>
/* RtlGenRandom is exported by advapi32 as SystemFunction036. */
BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);
BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
    while (len > 0) {
        ULONG chunk = len > 0x7fffffff ? 0x7fffffff : (ULONG)len;
        if (!SystemFunction036(data, chunk)) return FALSE;
        data += chunk;
        len -= chunk;
    }
    return TRUE;
}
C
  printf 'LIBRARY bcryptprimitives\nEXPORTS\n    ProcessPrng\n' > "$dll_dir/bcryptprimitives.def"
  x86_64-w64-mingw32-gcc -shared -O2 -o "$system32/bcryptprimitives.dll" \
    "$dll_dir/bcryptprimitives.c" "$dll_dir/bcryptprimitives.def" -ladvapi32
  rm -rf "$dll_dir"
fi

# Stops this prefix's wineserver (and so every Windows process still running in it).
wine_stop() { wineserver -k 2>/dev/null || true; }

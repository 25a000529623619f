#!/usr/bin/env bash
# Checks that a Mach-O `release` binary runs on any Mac of its deployment target, as `ldd` is checked on Linux:
# - it links only what every Mac has: libraries under /usr/lib (the Swift runtime is in /usr/lib/swift since
#   macOS 10.14.4) and frameworks under /System/Library; nothing from Homebrew (/opt/homebrew, /usr/local), no
#   @rpath/@loader_path/@executable_path library, with one exception:
# - @rpath/libswiftCompatibilitySpan.dylib, Swift's back-deployment library for Span (swift-subprocess uses Span and
#   RawSpan; with a macOS 15 deployment target the binary links it, macOS 26 has it in /usr/lib/swift, macOS 15 does
#   not), passes only when shipped exactly so: the binary's rpaths are /usr/lib/swift and then @executable_path (the
#   system's copy wins where there is one), the library is beside the binary (with --universal, with both slices),
#   and it links only the system's libraries;
# - with --universal, it has both the arm64 and the x86_64 slice.
# Uses Xcode's otool and lipo, else LLVM's (llvm-otool, llvm-lipo: Debian's llvm-14 has both), so the check itself
# runs on Linux too (scripts/test-scripts.sh gives it Mach-O files made there).
#
#   scripts/check-macos-binary.sh [--universal] BINARY
# Exit status: 0 portable, 1 not (each offending library printed), 2 usage or no otool.
set -euo pipefail

universal=0
if [[ "${1:-}" == "--universal" ]]; then universal=1; shift; fi
[[ $# -eq 1 ]] || { echo "usage: $0 [--universal] BINARY" >&2; exit 2; }
binary=$1

find_tool() {
  local candidate
  for candidate in "$@"; do
    if command -v "$candidate" >/dev/null 2>&1; then command -v "$candidate"; return 0; fi
  done
  return 1
}
otool=${OTOOL:-$(find_tool otool llvm-otool llvm-otool-14 || true)}
lipo=${LIPO:-$(find_tool lipo llvm-lipo llvm-lipo-14 || true)}
[[ -n "$otool" ]] || { echo "check-macos-binary: no otool (Xcode) or llvm-otool (LLVM)" >&2; exit 2; }

status=0
if ((universal)); then
  [[ -n "$lipo" ]] || { echo "check-macos-binary: no lipo (Xcode) or llvm-lipo (LLVM)" >&2; exit 2; }
  archs=" $("$lipo" -archs "$binary") "
  for arch in arm64 x86_64; do
    if [[ "$archs" != *" $arch "* ]]; then
      echo "check-macos-binary: $binary has no $arch slice (it has:$archs)" >&2
      status=1
    fi
  done
fi

# `otool -L` prints the file (one header line per slice), then one tab-indented install name per line.
libraries=$("$otool" -L "$binary" | awk '/^\t/ { print $1 }' | sort -u)
[[ -n "$libraries" ]] || { echo "check-macos-binary: $binary names no libraries (not a Mach-O executable?)" >&2; exit 1; }
span=libswiftCompatibilitySpan.dylib
while IFS= read -r library; do
  case "$library" in
    /usr/lib/*|/System/Library/*) ;;
    "@rpath/$span")
      # `otool -l` prints each LC_RPATH as `cmd LC_RPATH`, `cmdsize N`, `path P (offset M)`.
      rpaths=$("$otool" -l "$binary" | awk '$1 == "cmd" && $2 == "LC_RPATH" { getline; getline; print $2 }' | awk '!seen[$0]++' | tr '\n' ' ')
      beside="$(dirname "$binary")/$span"
      if [[ "$rpaths" != "/usr/lib/swift @executable_path " ]]; then
        echo "check-macos-binary: $binary needs @rpath/$span; its rpaths must be /usr/lib/swift, then @executable_path (they are: ${rpaths:-none})" >&2
        status=1
      elif [[ ! -f "$beside" ]]; then
        echo "check-macos-binary: $binary needs @rpath/$span, which is not beside it ($beside)" >&2
        status=1
      else
        if ((universal)); then
          archs=" $("$lipo" -archs "$beside") "
          [[ "$archs" == *" arm64 "* && "$archs" == *" x86_64 "* ]] \
            || { echo "check-macos-binary: $beside lacks a slice (it has:$archs)" >&2; status=1; }
        fi
        while IFS= read -r needed; do
          case "$needed" in
            /usr/lib/*|/System/Library/*|"@rpath/$span") ;;
            *) echo "check-macos-binary: $beside needs $needed, which a stock Mac does not have" >&2; status=1 ;;
          esac
        done < <("$otool" -L "$beside" | awk '/^\t/ { print $1 }' | sort -u)
      fi ;;
    *) echo "check-macos-binary: $binary needs $library, which a stock Mac does not have" >&2; status=1 ;;
  esac
done <<<"$libraries"
exit $status

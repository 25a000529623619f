#!/usr/bin/env bash
# Builds `release` as one binary that runs without Swift installed: the Swift runtime and Foundation linked
# statically (--static-swift-stdlib); only system libraries stay shared (libc, libcurl, libarchive, zlib), which
# every Linux CI image that can run curl has. Writes dist/release-VERSION-PLATFORM.tar.gz (PLATFORM: linux-x86_64,
# linux-arm64 or darwin-universal, the names exported workflows download) with the binary, README and the JSON
# Schema, and checks that `ldd` names no Swift library.
# On macOS: a universal binary (arm64 + x86_64), linked only against what every Mac has (the OS's Swift runtime,
# libcurl, libz and libarchive in /usr/lib) and Swift's Span back-deployment library, shipped beside it for macOS 15,
# which scripts/check-macos-binary.sh checks with `otool -L`, `otool -l` and `lipo -archs`.
#
#   scripts/package.sh [OUTPUT_DIR] [PLATFORM]  # default: dist; PLATFORM, when given, must be this machine's
#   RELEASE_SCRATCH_PATH=DIR            # build there instead of .build (the tests build while `swift test` holds .build)
#   RELEASE_REPOSITORY=OWNER/NAME       # the GitHub repository the tarballs are published in (default: the origin
#                                       # remote when it is on github.com), stamped into the binary: its exports
#                                       # download release from there by default
# The build itself, and how its code is laid out: scripts/build-static.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-dist}"
expected="${2:-}"
version="$(sed -n 's/.*package static let string = "\(.*\)".*/\1/p' Sources/ReleaseKit/Support/ReleaseKitVersion.swift)"
arch="$(uname -m)"
[[ "$arch" == "aarch64" ]] && arch=arm64
os="$(uname -s | tr '[:upper:]' '[:lower:]')"
[[ "$os" == "darwin" ]] && arch=universal
if [[ -n "$expected" && "$expected" != "$os-$arch" ]]; then
  echo "package: cannot build $expected on this $os-$arch machine: run it on a $expected runner (the exported workflow of Pipelines/self.json does)" >&2
  exit 1
fi
# The GitHub repository the tarballs are published in, stamped into the binary: what its exported workflows download
# by default. RELEASE_REPOSITORY when given, else the origin remote of this checkout when it is on github.com (on a
# runner, the repository the workflow runs in). Without one the binary knows none, and its exports say what to pass.
repository="${RELEASE_REPOSITORY:-}"
if [[ -z "$repository" ]]; then
  remote="$(git remote get-url origin 2>/dev/null || true)"
  remote="${remote%/}"
  remote="${remote%.git}"
  if [[ "$remote" =~ ^(https://([^@/]+@)?github\.com/|git@github\.com:|ssh://git@github\.com/)([A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+)$ ]]; then
    repository="${BASH_REMATCH[3]}"
  fi
fi
if [[ -n "$repository" && ! "$repository" =~ ^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$ ]]; then
  echo "package: RELEASE_REPOSITORY must be OWNER/NAME, found '$repository'" >&2
  exit 1
fi
if [[ -z "$repository" ]]; then
  echo "package: no GitHub repository to stamp (no RELEASE_REPOSITORY, no origin remote on github.com): the binary's exports will need --tool-source or a tool block" >&2
else
  echo "package: stamping $repository: exported workflows download release from its Releases" >&2
fi
binary="$(RELEASE_REPOSITORY="$repository" scripts/build-static.sh)"
if [[ -n "$repository" ]] && ! grep -qF "$repository" "$binary"; then
  echo "package: $repository is not in the binary: the stamp did not take" >&2
  exit 1
fi
if [[ "$os" == "darwin" ]]; then
  arch=universal  # checked once staged, below: the tarball's binary and what it carries
else
  # (libicuuc may appear: the system's, through libxml2 from libarchive; Foundation's ICU is linked in.)
  libraries=$(ldd "$binary")  # portability: linux-only (this branch runs on Linux; macOS's is above)
  if grep -E 'libswift|libFoundation|libdispatch|libBlocksRuntime|lib_Foundation|lib_FoundationICU' <<<"$libraries" >&2; then
    echo "package: the binary still needs the Swift libraries above" >&2
    exit 1
  fi
  # It must start with no Swift on the library path at all.
  env -u LD_LIBRARY_PATH LD_LIBRARY_PATH= "$binary" --version >/dev/null
fi

name="release-$version-$os-$arch"
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/$name" "$out"
cp "$binary" "$stage/$name/release"
strip "$stage/$name/release" 2>/dev/null || true
if [[ "$os" == "darwin" ]]; then
  # A macOS 15 deployment target links @rpath/libswiftCompatibilitySpan.dylib (swift-subprocess uses Span): macOS 26
  # has it in /usr/lib/swift, macOS 15 does not, so the tarball carries Xcode's back-deployment copy beside the
  # binary, found through the rpaths /usr/lib/swift (the system's first) then @executable_path. README, "Platforms".
  span=libswiftCompatibilitySpan.dylib
  if otool -L "$stage/$name/release" | grep -qF "@rpath/$span"; then
    toolchain="$(cd "$(dirname "$(xcrun --find swift)")/.." && pwd)"
    library="$(find "$toolchain/lib" -path '*/macosx/*' -name "$span" | head -n 1)"
    [[ -n "$library" ]] || { echo "package: the binary needs $span, which is not in $toolchain/lib" >&2; exit 1; }
    cp "$library" "$stage/$name/$span"
    rpaths=$(otool -l "$stage/$name/release" | awk '$1 == "cmd" && $2 == "LC_RPATH" { getline; getline; print $2 }')
    while IFS= read -r rpath; do
      [[ -n "$rpath" ]] && install_name_tool -delete_rpath "$rpath" "$stage/$name/release"
    done < <(awk '!seen[$0]++' <<<"$rpaths")
    install_name_tool -add_rpath /usr/lib/swift -add_rpath @executable_path "$stage/$name/release"
  fi
  codesign --force --sign - "$stage/$name/release"  # strip and install_name_tool void the linker's ad hoc signature
  scripts/check-macos-binary.sh --universal "$stage/$name/release"
  "$stage/$name/release" --version >/dev/null
fi
cp README.md "$stage/$name/"
"$stage/$name/release" schema > "$stage/$name/release.schema.json"
tar -C "$stage" -czf "$out/$name.tar.gz" "$name"
echo "$out/$name.tar.gz"
# Run as a pipeline's shell step, it names what it made (Pipelines/self.json publishes it).
if [[ -n "${RELEASE_OUTPUT:-}" ]]; then
  printf 'version=%s\ntarball=%s\n' "$version" "$out/$name.tar.gz" >> "$RELEASE_OUTPUT"
fi

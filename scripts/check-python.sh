#!/usr/bin/env bash
# Fails when a Python file of the repository needs a Python newer than 3.9, the /usr/bin/python3 Xcode installs on a
# Mac (the scripts, the fake Xcode tools in Fixtures/FakeTools, the examples and the fixture generators all run
# there). vermin (PyPI; scripts/setup.sh installs it into .tools/venv) reads each file's syntax, modules and
# functions and prints what needs a newer Python, with the version. Run by scripts/test.sh.
#
#   scripts/check-python.sh [FILE]...   # check these files instead of the repository's
set -euo pipefail
cd "$(dirname "$0")/.."
vermin=.tools/venv/bin/vermin
[[ -x "$vermin" ]] || { echo "check-python: vermin is not installed: run scripts/setup.sh" >&2; exit 1; }

if (($#)); then
  files=("$@")
else
  files=()
  while IFS= read -r file; do
    [[ -f "$file" ]] || continue
    case "$file" in
      *.py) files+=("$file") ;;
      # Python without the suffix: the fake tools and scripts run by their #! line.
      *) head -c 64 "$file" 2>/dev/null | head -1 | grep -qE '^#!.*\bpython3?\b' && files+=("$file") ;;
    esac
  done < <(git ls-files -co --exclude-standard)
fi
# --violations: only what breaks the target; --eval-annotations: annotations count (3.9 evaluates them at runtime
# unless `from __future__ import annotations`).
if ! "$vermin" --target=3.9- --violations --eval-annotations --no-tips --quiet "${files[@]}"; then
  echo "check-python: the files above need a Python newer than 3.9 (Xcode's); write them for 3.9" >&2
  exit 1
fi
echo "check-python: ${#files[@]} Python files run on Python 3.9"

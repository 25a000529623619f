#!/usr/bin/env bash
# Fails when Swift code outside the platform seam uses a spelling that exists on only one of Linux (Glibc) and
# macOS (Darwin). The seam is every file named Platform*.swift (Sources/ReleaseKit/Support/Platform.swift);
# everything else must compile on both without `#if`. Run by .ci/run; prints each offending line.
set -euo pipefail
cd "$(dirname "$0")/.."

# Each pattern is an extended regular expression, with why it does not port.
patterns=(
  'import (Glibc|Darwin|Musl)\b'                     # the seam imports the C library; Foundation re-exports what others need
  '\b(Glibc|Darwin|Musl)\.'                          # module-qualified calls differ per system
  '\bMSG_NOSIGNAL\b'                                 # Linux only; Darwin uses SO_NOSIGPIPE
  '\bSOCK_(STREAM|DGRAM|RAW|SEQPACKET)\.rawValue\b'  # an enum on Glibc, an Int32 on Darwin
  '\bSOCK_(CLOEXEC|NONBLOCK)\b'                      # Linux only
  'addchdir(_np)?\b'                                 # glibc 2.29+ hides it behind _GNU_SOURCE; macOS 26 deprecates it
  '\bst_(m|a|c)tim\b'                                # Glibc's struct stat; Darwin spells st_mtimespec
  '\bst_(m|a|c|birth)timespec\b'                     # Darwin's struct stat
  '\b(epoll|inotify)_[a-z_]+\b'                      # Linux only
  '\b(accept4|pipe2|memfd_create|copy_file_range|getrandom|gettid|prctl|fdatasync|sendfile)\('   # Linux only, or another signature on Darwin
  '\bO_TMPFILE\b|\bPR_SET_PDEATHSIG\b|\bSIGRTMIN\b'  # Linux only
  '\bposix_spawn(attr|_file_actions)_t\(\)'          # a struct on Glibc, an optional pointer on Darwin
  '\bdl(sym|open)\(|\bRTLD_DEFAULT\b'                # RTLD_DEFAULT is 0 on Glibc, -2 on Darwin
  '__errno_location|program_invocation_name'        # Glibc internals
)

status=0
files=$(git ls-files -co --exclude-standard -- 'Sources/*.swift' 'Tests/*.swift' 'Examples/*.swift' | grep -v '/Platform[A-Za-z]*\.swift$' || true)
for pattern in "${patterns[@]}"; do
  [[ -z "$files" ]] && break
  # shellcheck disable=SC2086
  if matches=$(grep -nE "$pattern" $files | grep -vE '^[^:]+:[0-9]+:\s*//'); then
    while IFS= read -r line; do printf '%s\n    not portable: matches /%s/\n' "$line" "$pattern"; done <<<"$matches"
    status=1
  fi
done
if ((status)); then
  echo "check-portability: Linux- or Darwin-only code outside Sources/*/Support/Platform*.swift (see above)" >&2
else
  echo "check-portability: no platform-specific spelling outside the platform seam"
fi
exit $status

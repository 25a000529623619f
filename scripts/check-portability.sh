#!/usr/bin/env bash
# Fails when code that must run on both Linux and macOS uses a spelling only one of them has:
# 1. Swift outside the platform seam (every file named Platform*.swift, Sources/ReleaseKit/Support/Platform.swift)
#    spelling a Glibc- or Darwin-only API: everything else must compile on both without `#if`.
# 2. Scripts, fixture generators, CI files, tests and sources spelling a command line, file or address only one of
#    them has (GNU coreutils flags, /proc, ldd, 127.0.0.2, ...): the suite and the scripts must run on a Mac
#    with Xcode as on Linux. Shell scripts also must not need bash 4 (macOS ships bash 3.2).
# 3. Sources/CArchive/shim.h's own libarchive declarations (macOS has no archive.h) compiled against the real
#    headers, when they are installed: a declaration that drifts from libarchive's is a compile error here.
# A line that is deliberately Linux-only (inside an `if uname` branch, a test enabled only on Linux) carries the
# marker `portability: linux-only` in a comment; a whole script that is (the benchmarks, which read GNU time's
# reports and refuse to start elsewhere) carries it in its first 15 lines. Run by scripts/test.sh; prints each
# offending line.
#
#   scripts/check-portability.sh [FILE]...   # check these files instead of the repository's
set -euo pipefail
cd "$(dirname "$0")/.."

# Swift outside the seam: each pattern an extended regular expression, with why it does not port.
swift_patterns=(
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
  '\.standardizedFileURL\b|\bstandardizingPath\b|resolvingSymlinksInPath'  # a Mac drops /private only when the shorter path exists: FilePath and Platform.canonicalPath instead
  '\bcurrentDirectoryPath\b'                         # getcwd's spelling; Platform.currentDirectory() is canonical
)

# Where a command starts: a line's start, after ; & | { " ' ` $(, or after then, do, else, exec, env, xargs.
command_start='(^|[;&|{"`'"'"']|\$\(|\b(then|do|else|exec|env|xargs) )[[:space:]]*'

# Commands, files and addresses one system lacks, in scripts, tests and sources alike.
command_patterns=(
  '\bstat( +-[A-Za-z]+)* +(-c|--format|--printf)\b'   # GNU stat; BSD stat spells -f (and -c means nothing)
  '\bdate( +-[A-Za-z]+)* +(-d|--date)\b'              # GNU date; BSD date -d sets daylight saving (perl's strftime ports)
  '\bsed( +-[A-Za-z]+)* +(-[A-Za-z]*i|--in-place)( |$)' # GNU sed -i takes no suffix, BSD sed -i requires one: write -i.bak or a temporary file
  '\breadlink +(-[A-Za-z]*f|--canonicalize)'         # GNU readlink; cd "$(dirname ...)" && pwd -P ports
  '\bbase64 +(-[A-Za-z]*w|--wrap)'                   # GNU base64; BSD base64 -b, or tr -d '\n'
  '\bfind\b.* -printf\b'                             # GNU find
  '/proc/'                                           # no procfs on macOS
  '\bldd\b'                                          # Linux's loader; macOS has otool -L
  '\bnproc\b'                                        # GNU coreutils; getconf _NPROCESSORS_ONLN ports
  '(/usr/bin/|\b)time +(-[A-Za-z]*[vfo]\b|--(verbose|format|output))'   # GNU time; BSD time has -l and -p only
  '\b127\.0\.0\.2\b'                                 # macOS routes only 127.0.0.1 on lo0 unless aliased
  # GNU coreutils a Mac lacks, as commands:
  "${command_start}(sha256sum|sha1sum|md5sum)\b"  # shasum -a 256 (Perl's, on both), or a `command -v` fallback
  "${command_start}timeout +[-0-9]"                # perl -e 'alarm N; exec @ARGV', or the tool's own time limit
  '\btar\b.* --(transform|xform|sort|mtime)\b'           # GNU tar; bsdtar (a Mac's) has -s, and no --sort or --mtime: Python's tarfile ports
)

# Shell syntax bash 3.2 (macOS's /bin/bash) lacks.
bash4_patterns=(
  '\b(declare|local|typeset) +-[A-Za-z]*[An]'        # associative arrays, namerefs (bash 4.0, 4.3)
  '\b(mapfile|readarray|coproc)\b'                   # bash 4.0
  '\$\{[A-Za-z_][A-Za-z_0-9]*(\[[^]]*\])?(,,?|\^\^?)\}'   # case modification (bash 4.0)
  '\$\{[^}]*@[QEPAaKkUuL]\}'                         # parameter transformation (bash 4.4)
  '\bwait +-n\b|\$\{?EPOCH(SECONDS|REALTIME)\b'      # bash 4.3, 5.0
  '&>>|\|&'                                          # bash 4.0 redirections
)

status=0
report() { # pattern matches
  while IFS= read -r line; do printf '%s\n    not portable: matches /%s/\n' "$line" "$1"; done <<<"$2"
  status=1
}
scan() { # pattern files...
  local pattern=$1 matches
  shift
  (($#)) || return 0
  # Lines that are comments (`//`, `#`) or carry the Linux-only marker are not code that runs everywhere, and a
  # line that asks `command -v` first falls back on the other system.
  if matches=$(grep -nHE "$pattern" "$@" | grep -vE '^[^:]+:[0-9]+:[[:space:]]*(//|#)' | grep -v 'portability: linux-only' \
    | grep -v 'command -v'); then
    report "$pattern" "$matches"
  fi
}

if (($#)); then
  listed=("$@")
else
  listed=()
  while IFS= read -r file; do listed+=("$file"); done < <(git ls-files -co --exclude-standard)
fi
swift=() swift_outside_seam=() scripts=() shells=()
for file in "${listed[@]}"; do
  [[ -f "$file" ]] || continue
  head -n 15 "$file" 2>/dev/null | grep -q 'portability: linux-only' && continue
  case "$file" in
    # These name every pattern looked for: the check itself and its test (which plants each in files of its own).
    scripts/check-portability.sh|*/check-portability.sh|*/PortabilityCheckTests.swift) continue ;;
    *.swift)
      swift+=("$file")
      [[ "$file" == */Platform*.swift || "$file" == Platform*.swift ]] || swift_outside_seam+=("$file")
      continue ;;
    *.sh|*.py|*.yml|*.yaml|*.rb|.ci/*) scripts+=("$file") ;;
    *) head -c 64 "$file" 2>/dev/null | head -1 | grep -qE '^#!.*\b(sh|bash|python3?|ruby)\b' && scripts+=("$file") ;;
  esac
  case "$file" in
    *.sh|.ci/*) shells+=("$file") ;;
    *) head -c 64 "$file" 2>/dev/null | head -1 | grep -qE '^#!.*\b(sh|bash)\b' && shells+=("$file") || true ;;
  esac
done

for pattern in "${swift_patterns[@]}"; do scan "$pattern" ${swift_outside_seam[@]+"${swift_outside_seam[@]}"}; done
for pattern in "${command_patterns[@]}"; do
  scan "$pattern" ${swift_outside_seam[@]+"${swift_outside_seam[@]}"} ${scripts[@]+"${scripts[@]}"}
done
for pattern in "${bash4_patterns[@]}"; do scan "$pattern" ${shells[@]+"${shells[@]}"}; done

# The shim's Darwin declarations against libarchive's own headers (Linux, with libarchive-dev installed).
if ((! $#)) && command -v cc >/dev/null; then
  cflags=$(pkg-config --cflags libarchive 2>/dev/null || true)
  # shellcheck disable=SC2086
  if printf '#include <archive.h>\n#include <archive_entry.h>\n#define RELEASE_CARCHIVE_DECLARATIONS 1\n#include "Sources/CArchive/shim.h"\n' \
       | cc $cflags -I. -fsyntax-only -Werror -x c - 2>/dev/null >/dev/null; then
    :
  elif printf '#include <archive.h>\n' | cc $cflags -fsyntax-only -x c - >/dev/null 2>&1; then
    printf '#include <archive.h>\n#include <archive_entry.h>\n#define RELEASE_CARCHIVE_DECLARATIONS 1\n#include "Sources/CArchive/shim.h"\n' \
      | cc $cflags -I. -fsyntax-only -Werror -x c - >&2 || true
    echo "Sources/CArchive/shim.h: its libarchive declarations (used on macOS) disagree with archive.h (above)" >&2
    status=1
  fi
fi

if ((status)); then
  echo "check-portability: code that runs on only one of Linux and macOS (see above)" >&2
else
  echo "check-portability: nothing Linux- or Darwin-only outside the platform seam"
fi
exit $status

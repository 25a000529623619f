#!/usr/bin/env bash
# Writes the Homebrew formula of a published release of `release`: it installs the prebuilt tarballs that
# Pipelines/self.json publishes (darwin-universal on macOS, linux-x86_64 or linux-arm64 on Linux, so `brew install`
# works on a GitHub Actions Linux runner too), each pinned to the SHA-256 its SHA256SUMS names. Pipelines/self.json
# runs it after the checksums and publishes the formula beside the tarballs; copy it into a tap as Formula/release.rb
# (or let a workflow commit it there), then `brew install OWNER/TAP/release`, or export workflows with
# `--tool-source homebrew:OWNER/TAP`.
#
#   scripts/homebrew-formula.sh REPOSITORY VERSION SHA256SUMS OUTPUT
#     REPOSITORY   OWNER/NAME on github.com, where the release vVERSION holds the tarballs
# Writes `path=OUTPUT` to $RELEASE_OUTPUT when set (a `shell` step's outputs). Exits 1 naming what is wrong: a
# repository that is not OWNER/NAME, a version that is not dotted numbers, a platform SHA256SUMS lacks.
set -euo pipefail
[[ $# -eq 4 ]] || { echo "usage: $0 REPOSITORY VERSION SHA256SUMS OUTPUT" >&2; exit 2; }
repository="$1" version="$2" sums="$3" output="$4"
# Both go into Ruby strings and URLs: only the characters GitHub allows in names, and dotted numbers.
if [[ ! "$repository" =~ ^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$ ]]; then
  echo "homebrew-formula: '$repository' is not a GitHub repository (OWNER/NAME)" >&2
  exit 1
fi
if [[ ! "$version" =~ ^[0-9]+(\.[0-9]+)*([-+][A-Za-z0-9.]+)?$ ]]; then
  echo "homebrew-formula: '$version' is not a version" >&2
  exit 1
fi
sha_of() { # PLATFORM: the SHA-256 SHA256SUMS names for that platform's tarball
  local name="release-$version-$1.tar.gz" digest
  digest="$(awk -v f="$name" '$2 == f || $2 == "*" f {print $1}' "$sums")"
  if [[ ! "$digest" =~ ^[0-9a-f]{64}$ ]]; then
    echo "homebrew-formula: $sums has no SHA-256 for $name" >&2
    exit 1
  fi
  printf '%s' "$digest"
}
base="https://github.com/$repository/releases/download/v$version"
darwin="$(sha_of darwin-universal)"
x86_64="$(sha_of linux-x86_64)"
arm64="$(sha_of linux-arm64)"
mkdir -p "$(dirname "$output")"
temporary="$(mktemp "$(dirname "$output")/.release.rb.XXXXXX")"
trap 'rm -f "$temporary"' EXIT
cat > "$temporary" <<EOF
# Homebrew formula for \`release\` $version, written by scripts/homebrew-formula.sh when Pipelines/self.json published
# it: the prebuilt binaries of https://github.com/$repository/releases/tag/v$version, each pinned to its SHA-256.
# Put it in a tap as Formula/release.rb, then: brew install OWNER/TAP/release
class Release < Formula
  desc "Run an iOS team's release as a graph of steps declared in JSON"
  homepage "https://github.com/$repository"
  version "$version"

  on_macos do
    # arm64 and x86_64 in one binary, linked only against the OS's libraries (macOS 15 or later).
    url "$base/release-$version-darwin-universal.tar.gz"
    sha256 "$darwin"
    depends_on macos: :sequoia
  end

  on_linux do
    # The Swift runtime and Foundation linked in; libc, libcurl, libarchive and zlib are the system's.
    on_intel do
      url "$base/release-$version-linux-x86_64.tar.gz"
      sha256 "$x86_64"
    end
    on_arm do
      url "$base/release-$version-linux-arm64.tar.gz"
      sha256 "$arm64"
    end
  end

  def install
    # The darwin tarball carries libswiftCompatibilitySpan.dylib, which the binary finds beside itself
    # (@executable_path; macOS 15 has no copy of its own): both go to libexec, and bin gets a script that runs it.
    libexec.install "release", *Dir["*.dylib"]
    bin.write_exec_script libexec/"release"
    generate_completions_from_executable(bin/"release", "completion")
  end

  test do
    assert_match version.to_s, shell_output("#{bin}/release --version")
    (testpath/"Pipelines/hello.json").write <<~JSON
      {"version": 1, "name": "hello", "steps": [{"id": "hi", "uses": "print", "with": {"message": "hello"}}]}
    JSON
    system bin/"release", "validate", "Pipelines/hello.json"
  end
end
EOF
mv "$temporary" "$output"
trap - EXIT
if [[ -n "${RELEASE_OUTPUT:-}" ]]; then printf 'path=%s\n' "$output" >> "$RELEASE_OUTPUT"; fi
echo "homebrew-formula: $output installs release $version from $base" >&2

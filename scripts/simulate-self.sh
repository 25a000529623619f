#!/usr/bin/env bash
# Proves that `release` can release itself with its own exporter (issue 24 item 1): Pipelines/self.json, exported to
# GitHub Actions and GitLab CI, builds a tarball on a runner of each platform, publishes the three with SHA256SUMS,
# and what it publishes is what an exported workflow's default install fetches and pins.
#  1. serves tarballs of this build on 127.0.0.1 (as an earlier release of `release` would have published them):
#     the self workflow's jobs install `release` from there, pinned;
#  2. lays out a repository with Pipelines/self.json, its `package` variable pointed at a stand-in for
#     scripts/package.sh (this machine cannot build the static arm64 or the universal macOS binary, nor afford the
#     static x86_64 build in a test): the stand-in packs this build as the tarball the platform names, with the
#     README and the JSON Schema, byte for byte the same wherever it runs, and refuses a platform its runner is not
#     (`uname`, as package.sh does; the simulation's runners answer for the labels they stand for);
#  3. releases it on one machine (`--os macos`, RUNNER_ARCH=ARM64: every package step runs there) against a local
#     GitHub server, and loads the Homebrew formula it published beside the tarballs (scripts/homebrew-formula.sh)
#     in Ruby: for each platform its url must serve the published tarball with the SHA-256 it pins;
#  4. plays the GitHub workflow job by job (scripts/simulate-actions.py: separate checkouts, only the artifacts the
#     workflow uploads carried) against a second server, and the GitLab configuration against a third; both must
#     hold the same release as the one-machine run: tag v$version, the three tarballs, SHA256SUMS and release.rb, same
#     digests;
#  5. exports the workflow again with the install pointed at the release step 4 published (the URL pattern of the
#     default install, `…/OWNER/release/releases/download/vVERSION/release-VERSION-PLATFORM.tar.gz`, on the local
#     server): the exporter pins the SHA-256 its SHA256SUMS names, and every job of a play against a fourth server
#     installs `release` from there and releases the same again.
#
#   scripts/simulate-self.sh [WORK_DIR]         # default: a new temporary folder
#   RELEASE_BINARY=PATH                         # the release to use (default: swift build, .build/debug/release)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=scripts/simulate-lib.sh
source "$root/scripts/simulate-lib.sh"
simulate_begin simulate-self "${1:-}"
branch=main
repository=owner/release
token=simulated-token
rm -rf "$work/origin" "$work/artifacts" "$work/macos" "$work/linux" "$work/github-"* "$work/downloads" "$work/single"

# 1. This build, served as the release the workflow installs from.
serve_this_build "$root" "$work" simulate-self

# 2. The repository: self.json with the packaging stand-in.
origin="$work/origin/release"
mkdir -p "$origin/Pipelines" "$origin/scripts"
cp "$root/Pipelines/self.json" "$origin/Pipelines/"
cp "$root/README.md" "$origin/"
cp "$root/scripts/homebrew-formula.sh" "$origin/scripts/"
"$python" - "$origin/Pipelines/self.json" <<'EOF'
import json, sys
path = sys.argv[1]
document = json.load(open(path))
document["variables"]["package"] = "scripts/package-standin.sh"
json.dump(document, open(path, "w"), indent=2)
EOF
cat > "$origin/scripts/package-standin.sh" <<'EOF'
#!/usr/bin/env bash
# Stands in for scripts/package.sh OUTPUT_DIR PLATFORM in the simulation (scripts/simulate-self.sh): packs the release
# named by RELEASE_SIMULATED_BINARY, with the README and the JSON Schema, as release-VERSION-PLATFORM.tar.gz, the same
# bytes wherever it runs. With RELEASE_STANDIN_CHECK_PLATFORM=1 it refuses a PLATFORM that is not the runner's, as
# package.sh does (a simulated runner's `uname` answers for the labels it stands for).
set -euo pipefail
out="$1" platform="$2"
binary="${RELEASE_SIMULATED_BINARY:?the simulation names the release to pack}"
if [[ "${RELEASE_STANDIN_CHECK_PLATFORM:-}" == 1 ]]; then
  arch="$(uname -m)"
  [[ "$arch" == aarch64 ]] && arch=arm64
  os="$(uname -s | tr '[:upper:]' '[:lower:]')"
  [[ "$os" == darwin ]] && arch=universal
  if [[ "$platform" != "$os-$arch" ]]; then
    echo "package (stand-in): cannot build $platform on this $os-$arch runner" >&2
    exit 1
  fi
  echo "package (stand-in): $platform on a $os-$arch runner (RUNNER_OS=${RUNNER_OS:-} RUNNER_ARCH=${RUNNER_ARCH:-} CI_RUNNER_EXECUTABLE_ARCH=${CI_RUNNER_EXECUTABLE_ARCH:-})" >&2
fi
version="$("$binary" --version | awk '{print $NF}')"
name="release-$version-$platform"
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/$name" "$out"
cp "$binary" "$stage/$name/release"
cp README.md "$stage/$name/"
"$binary" schema > "$stage/$name/release.schema.json"
chmod 0755 "$stage/$name/release"
chmod 0644 "$stage/$name/README.md" "$stage/$name/release.schema.json"
# The same bytes from every runner (names sorted, times 0, owner root, no gzip name or time): Python's tarfile, as
# GNU tar's --sort and --mtime are options bsdtar (a Mac's tar) does not have.
python3 - "$stage" "$name" "$out/$name.tar.gz" <<'PY'
import gzip, os, sys, tarfile
stage, name, target = sys.argv[1:]
def clean(info):
    info.mtime, info.uid, info.gid, info.uname, info.gname = 0, 0, 0, "", ""
    return info
with open(target, "wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as zipped:
    with tarfile.open(fileobj=zipped, mode="w", format=tarfile.GNU_FORMAT) as tar:
        tar.add(os.path.join(stage, name), arcname=name, filter=clean)  # recursive, sorted by name
PY
printf 'version=%s\ntarball=%s\n' "$version" "$out/$name.tar.gz" >> "$RELEASE_OUTPUT"
EOF
chmod +x "$origin/scripts/package-standin.sh"
(cd "$origin" && git init -q -b "$branch" && printf 'dist/\n' > .gitignore && git add -A && git commit -q -m "release, and the pipeline that releases it")
export_workflows() { # TOOL_SOURCE: exports self.json for both engines with that install, and commits them
  (cd "$origin" && "$release" export github-actions Pipelines/self.json --output .github/workflows/release.yml --tool-source "$1" >&2 \
    && "$release" export gitlab-ci Pipelines/self.json --output .gitlab-ci.yml --tool-source "$1" >&2 \
    && git add .github .gitlab-ci.yml && git commit -q -m "The release workflow, for GitHub Actions and GitLab CI")
}
export_workflows "$tool_source"
export RELEASE_SIMULATED_BINARY="$release"

serve_github "$work" single simulated gitlab again
single_url="$(url_of "$work" github-single)"
simulated_url="$(url_of "$work" github-simulated)"
gitlab_url="$(url_of "$work" github-gitlab)"
again_url="$(url_of "$work" github-again)"

# 3. One machine plays the three runners.
echo "simulate-self: one machine" >&2
git clone -q --no-local --branch "$branch" "$origin" "$work/single"
(cd "$work/single" && GITHUB_API_URL="$single_url" GITHUB_TOKEN="$token" GITHUB_REPOSITORY="$repository" RUNNER_ARCH=ARM64 \
  "$release" run Pipelines/self.json --os macos --log-format plain >&2)
release_summary "$single_url" "$repository" > "$work/single.txt"
for platform in linux-x86_64 linux-arm64 darwin-universal; do
  if ! grep -q "asset release-$version-$platform.tar.gz " "$work/single.txt" || ! grep -q "asset SHA256SUMS " "$work/single.txt"; then
    echo "simulate-self: the one-machine run did not publish release-$version-$platform.tar.gz and SHA256SUMS:" >&2
    cat "$work/single.txt" >&2
    exit 1
  fi
done
# The Homebrew formula it published, loaded by Ruby with Homebrew's formula methods standing in: each platform's url
# must fetch (from the local server standing in for github.com) the tarball the release holds, with the sha256 given.
check_formula() { # SERVER_URL
  local formula="$work/release.rb" platform url digest fetched
  curl -fsS -o "$formula" "$1/$repository/releases/download/v$version/release.rb"
  ruby - "$formula" > "$work/formula.txt" <<'EOF'
class Formula
  SPECS = Hash.new { |hash, key| hash[key] = {} }
  class << self
    # Ruby 2.6 (macOS's /usr/bin/ruby) syntax: no endless methods (3.0) or anonymous block parameters (3.1).
    def desc(_); end
    def homepage(_); end
    def version(value = nil)
      @version = value if value
      @version
    end
    def depends_on(*); end
    def test(*); end
    def for_platform(name)
      @platform = name
      yield
      @platform = nil
    end
    def on_macos(&block); for_platform("darwin-universal", &block); end
    def on_linux; yield; end
    def on_intel(&block); for_platform("linux-x86_64", &block); end
    def on_arm(&block); for_platform("linux-arm64", &block); end
    def url(value); SPECS[@platform][:url] = value; end
    def sha256(value); SPECS[@platform][:sha256] = value; end
  end
end
load ARGV[0]
abort "simulate-self: the formula defines no Release < Formula" unless defined?(Release) && Release < Formula
Formula::SPECS.each { |platform, spec| puts "#{platform} #{spec[:url]} #{spec[:sha256]} #{Release.version}" }
EOF
  for platform in linux-x86_64 linux-arm64 darwin-universal; do
    read -r url digest < <(awk -v p="$platform" '$1 == p {print $2, $3}' "$work/formula.txt")
    if [[ "$url" != "https://github.com/$repository/releases/download/v$version/release-$version-$platform.tar.gz" ]]; then
      echo "simulate-self: the formula's $platform url is '${url:-missing}'" >&2
      exit 1
    fi
    fetched="$(curl -fsS "$1/${url#https://github.com/}" | sha256 | awk '{print $1}')"
    if [[ "$fetched" != "$digest" ]]; then
      echo "simulate-self: the formula pins $platform to $digest; its url serves $fetched" >&2
      exit 1
    fi
  done
  echo "simulate-self: the published Homebrew formula installs release $version on macOS, Linux x86_64 and Linux arm64, each url serving the pinned SHA-256" >&2
}
check_formula "$single_url"

# 4. The workflow, job by job, on both engines.
play() { # ENGINE FILE SERVER_URL
  rm -rf "$work/artifacts"
  echo "simulate-self: $1, job by job" >&2
  "$python" "$root/scripts/simulate-actions.py" "$origin/$2" --engine "$1" --origin "$origin" --branch "$branch" \
    --work "$work" --env "GITHUB_API_URL=$3" --env "GITHUB_REPOSITORY=$repository" --env RELEASE_STANDIN_CHECK_PLATFORM=1 \
    --secret "GITHUB_TOKEN=$token"
}
compare() { # SERVER_URL NAME: the release on that server against the one-machine release
  release_summary "$1" "$repository" > "$work/$2.txt"
  if ! diff -u "$work/single.txt" "$work/$2.txt" >&2; then
    echo "simulate-self: $2: the release differs from the one-machine release (above)" >&2
    exit 1
  fi
}
play github-actions .github/workflows/release.yml "$simulated_url"
compare "$simulated_url" github
play gitlab-ci .gitlab-ci.yml "$gitlab_url"
compare "$gitlab_url" gitlab

# 5. What the workflow published is what the default install fetches: export again installing from that release.
published="download:$simulated_url/$repository/releases/download/v{version}/release-{version}-{platform}.tar.gz"
export_workflows "$published"
for platform in linux-x86_64 linux-arm64 darwin-universal; do
  digest="$(grep "asset release-$version-$platform.tar.gz " "$work/single.txt" | awk '{print $4}')"
  if ! grep -q "platform=$platform sha256=${digest#sha256:} ;;" "$origin/.github/workflows/release.yml"; then
    echo "simulate-self: the workflow exported from the published release does not pin $platform to $digest" >&2
    exit 1
  fi
done
echo "simulate-self: the workflow now installs release $version from the release it published, pinned to its SHA256SUMS" >&2
play github-actions .github/workflows/release.yml "$again_url"
compare "$again_url" again
echo "simulate-self: GitHub Actions and GitLab CI published the one-machine release, and a workflow installing from it released it again:" >&2
cat "$work/single.txt"

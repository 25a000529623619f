#!/usr/bin/env bash
# Proves `release export github-actions` without GitHub, on the demo (Pipelines/demo.json, Fixtures/DemoApp):
#  0. packs this build of `release` as the tarballs scripts/package.sh names (release-VERSION-PLATFORM.tar.gz) with
#     their SHA256SUMS, and serves them on 127.0.0.1 the way a GitHub Release serves its assets. This machine cannot
#     build the static linux-arm64 or the darwin-universal binary: those two tarballs hold this build too (the
#     simulation's macOS jobs run on Linux anyway), and the simulation says so;
#  1. lays out the demo repository (scripts/prepare-demo.sh) and commits the workflow into it, exported with
#     `--tool-source download:` that server (the exporter pins the SHA-256 it publishes, as it does the real ones);
#  2. releases it on one machine: `release run Pipelines/demo.json` against a local GitHub server and a local App
#     Store Connect stand-in;
#  3. plays the workflow (scripts/simulate-actions.py): each job on a fresh clone, `release` installed by the
#     workflow's own install step from that server, only what the workflow uploads carried between jobs, against a second pair of local servers (the App Store Connect key ids as configuration
#     variables, the key as a secret, as a repository would hold them);
#  4. checks that both GitHub servers hold the same release (tag, name, body, every asset's name, size and SHA-256)
#     and both App Store Connect stand-ins the same upload (version, build, state, file size and SHA-256, TestFlight
#     groups and what to test);
#  5. plays each job once more on its own (a re-run on GitHub) and checks the release has not changed;
#  6. plays the GitLab CI export the same way (--engine gitlab-ci: needs, artifacts, secrets only in the job whose
#     environment the header scopes them to) against a third pair of servers, and checks it makes the same release.
#
#   scripts/simulate-actions.sh [WORK_DIR]     # default: a new temporary folder
#   RELEASE_BINARY=PATH                        # the release to use (default: swift build, .build/debug/release)
#
# The one-machine run builds in the folder the macOS jobs build in (as two macOS runners would): the demo's
# Mach-O UUIDs, hence its assets' digests, depend on the build folder, as Xcode's do without prefix maps.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=scripts/simulate-lib.sh
source "$root/scripts/simulate-lib.sh"
simulate_begin simulate-actions "${1:-}"
branch=release/3.0.1
token=simulated-token

origin="$work/origin/demo"
rm -rf "$work/origin" "$work/artifacts" "$work/macos" "$work/linux" "$work/github-"* "$work/downloads"

# 0. The tarballs of this build, served like a GitHub Release's assets.
serve_this_build "$root" "$work" simulate-actions

"$root/scripts/prepare-demo.sh" "$origin" >&2
(cd "$origin" && "$release" export github-actions Pipelines/demo.json --output .github/workflows/release.yml --tool-source "$tool_source" >&2 \
  && "$release" export gitlab-ci Pipelines/demo.json --output .gitlab-ci.yml --tool-source "$tool_source" >&2 \
  && git add .github .gitlab-ci.yml && git commit -q -m "The release workflow, for GitHub Actions and GitLab CI")
workflow="$origin/.github/workflows/release.yml"
for platform in linux-x86_64 linux-arm64 darwin-universal; do
  digest="$(awk -v f="release-$version-$platform.tar.gz" '$2 == f {print $1}' "$downloads/SHA256SUMS")"
  if ! grep -q "platform=$platform sha256=$digest ;;" "$workflow"; then
    echo "simulate-actions: the workflow does not pin $platform to $digest" >&2
    exit 1
  fi
done
serve_github "$work" single simulated gitlab
single_url="$(url_of "$work" github-single)"
simulated_url="$(url_of "$work" github-simulated)"
gitlab_url="$(url_of "$work" github-gitlab)"

# App Store Connect: one key, two stand-ins that accept it.
key_id=SIMULATE01
issuer=57246542-96fe-1a63-e053-0824d011072a
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$work/key.p8" 2>/dev/null
openssl pkey -in "$work/key.p8" -pubout -out "$work/key.pub" 2>/dev/null
for name in single simulated gitlab; do serve_appstore "$work" "$name" "$key_id" "$issuer" "$work/key.pub"; done
single_appstore="$(url_of "$work" appstore-single)"
simulated_appstore="$(url_of "$work" appstore-simulated)"
gitlab_appstore="$(url_of "$work" appstore-gitlab)"
export APP_STORE_CONNECT_KEY_ID="$key_id" APP_STORE_CONNECT_ISSUER_ID="$issuer"
key="$(cat "$work/key.p8")"

summary() { release_summary "$1" demo/client-releases; }

echo "simulate-actions: one machine" >&2
single="$work/macos/Users/runner/work/demo/demo"
git clone -q --no-local --branch "$branch" "$origin" "$single"
(cd "$single" && GITHUB_REF_NAME="$branch" GITHUB_API_URL="$single_url" GITHUB_TOKEN="$token" \
  APP_STORE_CONNECT_API_URL="$single_appstore" APP_STORE_CONNECT_KEY="$key" \
  "$release" run Pipelines/demo.json --log-format plain >&2)
rm -rf "$work/macos"
summary "$single_url" > "$work/single.txt"
appstore_summary "$work/appstore-single/state.json" >> "$work/single.txt"

play() {
  "$python" "$root/scripts/simulate-actions.py" "$workflow" --origin "$origin" --branch "$branch" \
    --work "$work" --env "GITHUB_API_URL=$simulated_url" --env "APP_STORE_CONNECT_API_URL=$simulated_appstore" \
    --env "APP_STORE_CONNECT_KEY_ID=$key_id" --env "APP_STORE_CONNECT_ISSUER_ID=$issuer" \
    --secret "GITHUB_TOKEN=$token" --secret "APP_STORE_CONNECT_KEY=$key" "$@"
}
echo "simulate-actions: the workflow, job by job" >&2
play
summary "$simulated_url" > "$work/simulated.txt"
appstore_summary "$work/appstore-simulated/state.json" >> "$work/simulated.txt"
if ! diff -u "$work/single.txt" "$work/simulated.txt" >&2; then
  echo "simulate-actions: the workflow's release differs from the one-machine release (above)" >&2
  exit 1
fi
if ! grep -q "asset" "$work/single.txt" || ! grep -q "^upload .* COMPLETE" "$work/single.txt"; then
  echo "simulate-actions: nothing was published or uploaded" >&2
  exit 1
fi

for job in $("$python" -c 'import sys, yaml; print(" ".join(yaml.safe_load(open(sys.argv[1]))["jobs"]))' "$workflow"); do
  echo "simulate-actions: job $job again" >&2
  play --job "$job"
  summary "$simulated_url" > "$work/rerun-$job.txt"
  appstore_summary "$work/appstore-simulated/state.json" >> "$work/rerun-$job.txt"
  if ! diff -u "$work/single.txt" "$work/rerun-$job.txt" >&2; then
    echo "simulate-actions: re-running job $job changed the release (above)" >&2
    exit 1
  fi
done
echo "simulate-actions: GitLab CI, job by job" >&2
rm -rf "$work/artifacts"
"$python" "$root/scripts/simulate-actions.py" "$origin/.gitlab-ci.yml" --engine gitlab-ci --origin "$origin" --branch "$branch" \
  --work "$work" --env "GITHUB_API_URL=$gitlab_url" --env "APP_STORE_CONNECT_API_URL=$gitlab_appstore" \
  --env "APP_STORE_CONNECT_KEY_ID=$key_id" --env "APP_STORE_CONNECT_ISSUER_ID=$issuer" \
  --secret "GITHUB_TOKEN=$token" --secret "APP_STORE_CONNECT_KEY=$key"
summary "$gitlab_url" > "$work/gitlab.txt"
appstore_summary "$work/appstore-gitlab/state.json" >> "$work/gitlab.txt"
if ! diff -u "$work/single.txt" "$work/gitlab.txt" >&2; then
  echo "simulate-actions: the GitLab pipeline's release differs from the one-machine release (above)" >&2
  exit 1
fi
echo "simulate-actions: the workflow's release equals the one-machine release, and every job re-runs to the same release:" >&2
cat "$work/single.txt"

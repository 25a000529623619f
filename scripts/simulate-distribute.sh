#!/usr/bin/env bash
# Proves `release export` on Pipelines/distribute.json, the pipeline a team copies: its release profile signs through
# App Store Connect's API (signing.sync from the certificate's private key), archives and exports on macOS, uploads
# to App Store Connect, hands the build to TestFlight and App Review, and publishes the archive and dSYMs as a GitHub
# Release, its steps split between a macOS and a Linux runner.
#  1. lays out the demo repository (scripts/prepare-demo.sh) with the team's signing files in Signing/, serves tarballs
#     of this build on 127.0.0.1 and exports the pipeline to GitHub Actions and GitLab CI installing from there;
#  2. makes the signing assets once from a "laptop" (signing.sync is read-only where CI is set, as its preflight says)
#     in a local App Store Connect (an empty account but for the app), then releases on one machine:
#     `release run Pipelines/distribute.json --os macos` with the fake Xcode tools of `release rehearse-tools` first on
#     PATH, against it and a local GitHub server;
#  3. plays the GitHub workflow job by job (scripts/simulate-actions.py: separate checkouts, only what the workflow
#     uploads carried, a job's secrets only where its steps use them) against a second pair of servers, and the GitLab
#     configuration against a third, each after the same set-up from the laptop;
#  4. checks that each play made the same release as the one machine: the GitHub Release (tag and body without their
#     timestamps, the assets' names and sizes, and the names, sizes and CRC-32s of the files inside the zips: two
#     builds at different times differ in their dates only) and App Store Connect (the upload and its build, TestFlight
#     group and what to test, the App Store version with its What's New, phased release and review submission, the
#     certificate, bundle ids and profiles signing.sync made), and that no job left a keychain or a profile behind.
#
#   scripts/simulate-distribute.sh [WORK_DIR]   # default: a new temporary folder
#   RELEASE_BINARY=PATH                         # the release to use (default: swift build, .build/debug/release)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=scripts/simulate-lib.sh
source "$root/scripts/simulate-lib.sh"
simulate_begin simulate-distribute "${1:-}"
branch=release/3.0.1
repository=owner/client-releases
token=simulated-token
unset SLACK_WEBHOOK_URL CRASH_REPORTER_URL TESTERS_UPLOAD_URL ITMS_USERNAME
rm -rf "$work/origin" "$work/artifacts" "$work/macos" "$work/linux" "$work/github-"* "$work/appstore-"* "$work/downloads" \
  "$work/fake-"* "$work/home-"* "$work/laptop"
signing="$root/Fixtures/Signing"

# 1. The demo repository with the team's signing files, and its workflows installing this build.
serve_this_build "$root" "$work" simulate-distribute
origin="$work/origin/demo"
"$root/scripts/prepare-demo.sh" "$origin" >&2
mkdir -p "$origin/Signing"
cp "$signing/Distribution.p12" "$signing/release.mobileprovision" "$signing/adhoc.mobileprovision" "$origin/Signing/"
(cd "$origin" && git add Signing && git commit -q -m "The team's signing files" \
  && "$release" export github-actions Pipelines/distribute.json --output .github/workflows/release.yml --tool-source "$tool_source" >&2 \
  && "$release" export gitlab-ci Pipelines/distribute.json --output .gitlab-ci.yml --tool-source "$tool_source" >&2 \
  && git add .github .gitlab-ci.yml && git commit -q -m "The release workflow, for GitHub Actions and GitLab CI")
"$release" rehearse-tools "$work/fake-xcode" 2>/dev/null

# The App Store Connect key the team made, and its stand-ins; the certificate's private key signing.sync works from.
key_id=DEMO123456
issuer=69a6de70-0000-47e3-e053-5b8c7c11a4d1
openssl pkey -in "$signing/AuthKey_DEMO123456.p8" -pubout -out "$work/key.pub" 2>/dev/null
for name in single simulated gitlab; do serve_appstore "$work" "$name" "$key_id" "$issuer" "$work/key.pub" 0; done
serve_github "$work" single simulated gitlab
key="$(cat "$signing/AuthKey_DEMO123456.p8")"
certificate_key="$(cat "$signing/CertificateKey.pem")"
export APP_STORE_CONNECT_KEY_ID="$key_id" APP_STORE_CONNECT_ISSUER_ID="$issuer" RELEASE_FAKE_RELEASE="$release"
export PATH="$work/fake-xcode:$PATH"

summary() { # NAME: the release on that pair of servers, without dates or ids
  release_summary "$(url_of "$work" "github-$1")" "$repository" zip-contents \
    | sed -E -e 's/_[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}-[0-9]{2}-[0-9]{2}Z/_DATE/g' \
        -e 's#Uploaded: [0-9]{4}/[0-9]{2}/[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}#Uploaded: DATE#'
  appstore_summary "$work/appstore-$1/state.json"
}
machine_clean() { # NAME: no keychain and no profile left on the machine the fake tools' state stands for
  local state="$work/fake-$1" home="$work/home-$1"
  if [[ -s "$state/keychains.json" ]] && [[ "$(tr -d ' \n' < "$state/keychains.json")" != "{}" ]]; then
    echo "simulate-distribute: $1 left keychains behind: $(cat "$state/keychains.json")" >&2
    exit 1
  fi
  if [[ -d "$home" ]] && find "$home" -name '*.mobileprovision' | grep -q .; then
    echo "simulate-distribute: $1 left profiles behind: $(find "$home" -name '*.mobileprovision')" >&2
    exit 1
  fi
}

signing_setup() { # NAME: the team's one-time set-up from a laptop, against that App Store Connect. signing.sync is
  # read-only where CI is set: the team makes the certificate, bundle ids and profiles once, from a laptop, as its
  # preflight says, and every run after finds them (on one machine too, which may be a CI runner).
  rm -rf "$work/laptop"
  echo "simulate-distribute: $1: the one-time signing set-up from a laptop" >&2
  git clone -q --no-local --branch "$branch" "$origin" "$work/laptop"
  (cd "$work/laptop" && env -u CI APP_STORE_CONNECT_API_URL="$(url_of "$work" "appstore-$1")" APP_STORE_CONNECT_KEY="$key" \
    CERTIFICATE_KEY="$certificate_key" HOME="$work/home-laptop" RELEASE_FAKE_STATE="$work/fake-laptop" \
    "$release" run Pipelines/distribute.json --only signing --os macos --log-format plain >&2)
  machine_clean laptop
  rm -rf "$work/laptop"
}

# 2. One machine.
signing_setup single
echo "simulate-distribute: one machine" >&2
single="$work/macos/Users/runner/work/demo/demo"
git clone -q --no-local --branch "$branch" "$origin" "$single"
(cd "$single" && GITHUB_API_URL="$(url_of "$work" github-single)" GITHUB_TOKEN="$token" \
  APP_STORE_CONNECT_API_URL="$(url_of "$work" appstore-single)" APP_STORE_CONNECT_KEY="$key" CERTIFICATE_KEY="$certificate_key" \
  HOME="$work/home-single" RELEASE_FAKE_STATE="$work/fake-single" \
  "$release" run Pipelines/distribute.json --os macos --log-format plain >&2)
rm -rf "$work/macos"
summary single > "$work/single.txt"
machine_clean single
for expected in "asset Demo-3.0.0-4146.xcarchive.zip" "asset Demo-3.0.0-4146.app.dSYM.zip" "Demo.xcarchive/dSYMs/Demo.app.dSYM/Contents/Resources/DWARF/Demo " "^upload .* COMPLETE" \
  "^review submission IOS WAITING_FOR_REVIEW: 3.0.0" "^group QA: 3.0.0 (4146)" "^certificate DISTRIBUTION"; do
  if ! grep -q -- "$expected" "$work/single.txt"; then
    echo "simulate-distribute: the one-machine release lacks '$expected':" >&2
    cat "$work/single.txt" >&2
    exit 1
  fi
done

# 3. and 4. The workflow, job by job, on both engines.
play() { # ENGINE FILE NAME
  rm -rf "$work/artifacts"
  signing_setup "$3"
  echo "simulate-distribute: $1, job by job" >&2
  HOME="$work/home-$3" RELEASE_FAKE_STATE="$work/fake-$3" \
    "$python" "$root/scripts/simulate-actions.py" "$origin/$2" --engine "$1" --origin "$origin" --branch "$branch" \
    --work "$work" --env "GITHUB_API_URL=$(url_of "$work" "github-$3")" --env "APP_STORE_CONNECT_API_URL=$(url_of "$work" "appstore-$3")" \
    --env "APP_STORE_CONNECT_KEY_ID=$key_id" --env "APP_STORE_CONNECT_ISSUER_ID=$issuer" \
    --secret "GITHUB_TOKEN=$token" --secret "APP_STORE_CONNECT_KEY=$key" --secret "CERTIFICATE_KEY=$certificate_key"
  summary "$3" > "$work/$3.txt"
  if ! diff -u "$work/single.txt" "$work/$3.txt" >&2; then
    echo "simulate-distribute: $1: the release differs from the one-machine release (above)" >&2
    exit 1
  fi
  machine_clean "$3"
}
play github-actions .github/workflows/release.yml simulated
play gitlab-ci .gitlab-ci.yml gitlab
echo "simulate-distribute: GitHub Actions and GitLab CI made the one-machine release, and no job left a keychain or a profile:" >&2
cat "$work/single.txt"

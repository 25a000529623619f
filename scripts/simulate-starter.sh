#!/usr/bin/env bash
# Proves, on the starter `release init` writes and not only on the demo, that an exported workflow played as CI
# plays it carries commits from job to job (issue 24 item 2): the bump and its commit, the archive and the tag run in
# three jobs on separate checkouts, and the archive must see the bumped version and the tag name the bump's commit.
#  1. lays out a repository that is a copy of Fixtures/DemoApp (or APP_DIR), runs `release init --yes` in it and commits the
#     starter it writes, which puts only what needs Xcode on macOS: the git gate, the bump, its commit and its push on
#     a Linux runner, signing, project generation, archive and export on the Mac, the checks, dSYMs, App Store steps,
#     the tag and its push on Linux again (three jobs: linux, macos, linux-2);
#  2. serves tarballs of this build on 127.0.0.1 (as scripts/simulate-actions.sh does) and exports the starter to
#     GitHub Actions and to GitLab CI with `--tool-source download:` that server;
#  3. plays the workflow with scripts/simulate-actions.py, the fake Xcode tools of `release rehearse-tools` first on
#     PATH behind a stand-in `xcodebuild` that records the version `release version` reads in the checkout it
#     archives in, and a local App Store Connect (`release appstore-server`) for the upload and TestFlight; every job
#     checks out the commit the run started on, as GitHub's do;
#  4. checks that the stand-in saw the version the bump wrote in the earlier job, not the committed one;
#  5. checks that the tag the last job made and pushed names the commit that holds the bump, and that the branch was
#     pushed at that commit too;
#  6. checks that the play made the release one machine makes (the whole starter in one checkout, first): the same
#     App Store Connect state (upload, build, TestFlight group and what to test, the signing assets), the same tag
#     naming a commit with the same tree, the branch at that tree.
# Steps 3 to 6 run for the GitHub workflow, then again for the GitLab configuration (--engine gitlab-ci), the origin
# put back as it was in between, each against an App Store Connect of its own. A starter that signs with
# signing.sync gets the certificate's private key as a secret, and the team's one-time set-up from a laptop first
# (`release run PIPELINE --only signing` without CI: in CI signing.sync only reads App Store Connect).
#
#   scripts/simulate-starter.sh [WORK_DIR [APP_DIR [INIT_FLAG]...]]
#                                              # WORK_DIR default: a new temporary folder; APP_DIR: the app to lay
#                                              # out (default: Fixtures/DemoApp), INIT_FLAGs for `release init`
#   RELEASE_BINARY=PATH                        # the release to use (default: swift build, .build/debug/release)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
app="$(cd "${2:-$root/Fixtures/DemoApp}" && pwd)"
init_flags=("${@:3}")
# shellcheck source=scripts/simulate-lib.sh
source "$root/scripts/simulate-lib.sh"
simulate_begin simulate-starter "${1:-}"
rm -rf "$work/origin" "$work/artifacts" "$work/macos" "$work/linux" "$work/downloads" "$work/stubs" "$work/tagged" "$work/single" "$work/laptop"

# 1. The app, and the starter `release init` writes for it.
origin="$work/origin/$(basename "$app")"
mkdir -p "$(dirname "$origin")"
cp -R "$app" "$origin"
# The release model: the app's version lives on its release branch (cut with `release bump` on a laptop), and CI runs
# there give each commit the next build number.
branch="release/$(cd "$origin" && "$release" version --json | "$python" -c 'import json, sys; print(json.load(sys.stdin)["version"])')"
(cd "$origin" && git init -q -b "$branch" && printf 'build/\nPods/\n' > .gitignore && git add -A && git commit -q -m "The app")
(cd "$origin" && "$release" init --yes ${init_flags[@]+"${init_flags[@]}"} >&2)
pipeline="$(cd "$origin" && ls Pipelines/*.json | head -1)"
(cd "$origin" && git add -A && git commit -q -m "The starter release pipeline")
version_of() { # DIR: the app's version and build as `release version` reads them there: 3.0.0 (4146)
  (cd "$1" && "$release" version --json) | "$python" -c 'import json, sys; r = json.load(sys.stdin); print("%s (%s)" % (r["version"], r["build"]))'
}
committed="$(version_of "$origin")"

# 2. This build, served; the workflow exported to install it from there.
serve_this_build "$root" "$work" simulate-starter
(cd "$origin" && "$release" export github-actions "$pipeline" --output .github/workflows/release.yml --tool-source "$tool_source" >&2 \
  && "$release" export gitlab-ci "$pipeline" --output .gitlab-ci.yml --tool-source "$tool_source" >&2 \
  && git add .github .gitlab-ci.yml && git commit -q -m "The release workflow, for GitHub Actions and GitLab CI")
# The jobs a push runs (the others resume a release that waits on Apple: scripts/simulate-waiting.sh plays them).
jobs="$("$python" -c 'import sys, yaml; print(" ".join(j for j, s in yaml.safe_load(open(sys.argv[1]))["jobs"].items() if "push" in s.get("if", "push")))' "$origin/.github/workflows/release.yml")"
if [[ "$jobs" != "linux macos linux-2" ]]; then
  echo "simulate-starter: expected the jobs linux, macos and linux-2, the export has: $jobs" >&2
  exit 1
fi
started="$(git -C "$origin" rev-parse HEAD)"

# 3. The fake Xcode tools (`release rehearse-tools`) behind a stand-in xcodebuild that records the version it sees,
#    a local App Store Connect for the release profile's upload and TestFlight group, and the play. The job gets the
#    secrets a team would set (a throwaway API key the stand-in accepts).
mkdir -p "$work/stubs"
"$release" rehearse-tools "$work/fake-xcode" 2>/dev/null
cat > "$work/stubs/xcodebuild" <<EOF
#!/usr/bin/env bash
set -euo pipefail
if [[ " \$* " == *" archive "* ]]; then
  seen="\$("$release" version --json | "$python" -c 'import json, sys; r = json.load(sys.stdin); print("%s (%s)" % (r["version"], r["build"]))')"
  echo "xcodebuild (stand-in): version \$seen" >&2
  echo "\$seen" >> "$work/xcodebuild-saw"
fi
exec "$work/fake-xcode/xcodebuild" "\$@"
EOF
chmod +x "$work/stubs/xcodebuild"
rm -f "$work/xcodebuild-saw"
openssl ecparam -genkey -name prime256v1 -noout 2>/dev/null | openssl pkcs8 -topk8 -nocrypt -out "$work/AuthKey.p8" 2>/dev/null
key_id=SIMULATE42 issuer_id=69a6de70-0000-47e3-e053-5b8c7c11a4d1
# The distribution certificate's private key, for a starter that signs with signing.sync (`init --signing sync`).
certificate_key="$(cat "$root/Fixtures/Signing/CertificateKey.pem")"
# The stand-in issues the pipeline's team's certificates and profiles, as the team's account does: Xcode looks a
# manual profile up by DEVELOPMENT_TEAM and name.
team="$("$python" -c 'import json, sys, re; t = json.load(open(sys.argv[1])).get("variables", {}).get("team", ""); print(t if re.match(r"^[A-Z0-9]{10}$", t) else "")' "$origin/$pipeline")"
for name in single github-actions gitlab-ci; do serve_appstore "$work" "$name" "$key_id" "$issuer_id" "$work/AuthKey.p8" 0 "$team"; done
syncs="$("$python" -c 'import json, sys; print(" ".join(s["id"] for s in json.load(open(sys.argv[1]))["steps"] if s["uses"] == "signing.sync"))' "$origin/$pipeline")"
# A CI job pushes to the repository it cloned: let the simulated origin take a push to its checked-out branch.
git -C "$origin" config receive.denyCurrentBranch updateInstead
echo "simulate-starter: $pipeline as $(cd "$origin" && git log -1 --format=%h), version $committed committed" >&2
tools() { # COMMAND...: runs it with the fake Xcode tools, the stand-in xcodebuild first, on PATH
  PATH="$work/stubs:$work/fake-xcode:$PATH" RELEASE_FAKE_RELEASE="$release" RELEASE_FAKE_STATE="$work/fake-state" HOME="$work/home" "$@"
}
signing_setup() { # NAME: the team's one-time signing set-up from a laptop, against that App Store Connect
  [[ -n "$syncs" ]] || return 0
  local only=() id
  for id in $syncs; do only+=(--only "$id"); done
  rm -rf "$work/laptop"
  git clone -q --no-local --branch "$branch" "$origin" "$work/laptop"
  echo "simulate-starter: $1: the one-time signing set-up from a laptop (signing.sync only reads where CI is set)" >&2
  (cd "$work/laptop" && tools env -u CI APP_STORE_CONNECT_API_URL="$(url_of "$work" "appstore-$1")" APP_STORE_CONNECT_KEY="$(cat "$work/AuthKey.p8")" \
    APP_STORE_CONNECT_KEY_ID="$key_id" APP_STORE_CONNECT_ISSUER_ID="$issuer_id" CERTIFICATE_KEY="$certificate_key" \
    "$release" run "$pipeline" "${only[@]}" --os macos --log-format plain >&2)
  rm -rf "$work/laptop"
}
outcome() { # NAME: what the release made: App Store Connect's state, the tags and what they and the branch name
  appstore_summary "$work/appstore-$1/state.json"
  local tag
  for tag in $(git -C "$origin" tag --list 'v*'); do
    echo "tag $tag: tree $(git -C "$origin" rev-parse "$tag^{tree}") \"$(git -C "$origin" log -1 --format=%s "$tag")\""
  done
  echo "branch $branch: tree $(git -C "$origin" rev-parse "refs/heads/$branch^{tree}")"
}
reset_origin() { # the origin as it was before any release
  git -C "$origin" reset -q --hard "$started"
  git -C "$origin" tag --list 'v*' | while read -r tag; do git -C "$origin" tag -d "$tag" >/dev/null; done
}

# 3. One machine: the whole starter in one checkout, pushing to the origin, which is then put back as it was.
signing_setup single
echo "simulate-starter: one machine" >&2
rm -rf "$work/single"
git clone -q --no-local --branch "$branch" "$origin" "$work/single"
(cd "$work/single" && tools env APP_STORE_CONNECT_API_URL="$(url_of "$work" appstore-single)" APP_STORE_CONNECT_KEY="$(cat "$work/AuthKey.p8")" \
  APP_STORE_CONNECT_KEY_ID="$key_id" APP_STORE_CONNECT_ISSUER_ID="$issuer_id" CERTIFICATE_KEY="$certificate_key" \
  "$release" run "$pipeline" --os macos --log-format plain >&2)
rm -rf "$work/single"
outcome single > "$work/single.txt"
reset_origin

play() { # ENGINE FILE: plays the exported file, then checks 4. and 5. and the release against the one machine's
  rm -rf "$work/artifacts" "$work/xcodebuild-saw" "$work/fake-state"
  reset_origin
  signing_setup "$1"
  echo "simulate-starter: $1, job by job" >&2
  tools "$python" "$root/scripts/simulate-actions.py" "$origin/$2" --engine "$1" \
    --origin "$origin" --branch "$branch" --work "$work" \
    --env "APP_STORE_CONNECT_KEY_ID=$key_id" --env "APP_STORE_CONNECT_ISSUER_ID=$issuer_id" \
    --env "APP_STORE_CONNECT_API_URL=$(url_of "$work" "appstore-$1")" \
    --secret "APP_STORE_CONNECT_KEY=$(cat "$work/AuthKey.p8")" --secret "CERTIFICATE_KEY=$certificate_key"

  # 4. What the archive job saw.
  saw="$(sort -u "$work/xcodebuild-saw" | tr '\n' ' ')"
  if [[ "$saw" == *"$committed"* ]]; then
    echo "simulate-starter: $1: the archive job built version $committed, the committed one: the bump did not reach the archive" >&2
    exit 1
  fi
  echo "simulate-starter: the archive job built version $saw(committed: $committed): the bump reached the archive" >&2

  # 5. What the last job tagged and pushed.
  tags="$(git -C "$origin" tag --list 'v*')"
  if [[ -z "$tags" || "$tags" == *$'\n'* ]]; then
    echo "simulate-starter: $1: expected one tag pushed by job linux-2, origin has: ${tags:-none}" >&2
    exit 1
  fi
  tagged="$(git -C "$origin" rev-parse "$tags^{commit}")"
  rm -rf "$work/tagged" && mkdir -p "$work/tagged"
  git -C "$origin" archive "$tagged" | tar -x -C "$work/tagged"
  at_tag="$(version_of "$work/tagged")"
  if [[ "$tagged" == "$started" || "$at_tag" == "$committed" ]]; then
    echo "simulate-starter: tag $tags names $(git -C "$origin" log -1 --format='%h %s' "$tagged"), version $at_tag: not the bump's commit" >&2
    exit 1
  fi
  if [[ "$(git -C "$origin" rev-parse "refs/heads/$branch")" != "$tagged" ]]; then
    echo "simulate-starter: $1: the branch was pushed at $(git -C "$origin" rev-parse --short "refs/heads/$branch"), not at the tagged commit" >&2
    exit 1
  fi
  echo "simulate-starter: tag $tags names $(git -C "$origin" log -1 --format='%h "%s"' "$tagged") (version $at_tag), the commit the branch was pushed at: the commits reached the later job" >&2

  # The same release as one machine made: App Store Connect, the tag and the branch.
  outcome "$1" > "$work/$1.txt"
  if ! diff -u "$work/single.txt" "$work/$1.txt" >&2; then
    echo "simulate-starter: $1: the release differs from the one-machine release (above)" >&2
    exit 1
  fi
  echo "simulate-starter: $1 made the one-machine release" >&2
}
play github-actions .github/workflows/release.yml
play gitlab-ci .gitlab-ci.yml
cat "$work/single.txt"

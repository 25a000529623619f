#!/usr/bin/env bash
# Proves issue 37's "waiting holds no runner" on the starter `release init` writes, exported to both engines: Apple's
# processing outlasts the upload's wait budget, the first play ends green with the release waiting, and a scheduled
# play finishes TestFlight distribution and App Review submission without building or uploading again.
#  1. lays out a repository that is a copy of Fixtures/DemoApp on its release branch, runs `release init --yes` in it,
#     gives the starter an App Review submission after TestFlight (appstore.submit) and short wait budgets (2s, polling
#     every second: the budget, not the wait, is what the play shows), and exports it to GitHub Actions and GitLab CI
#     installing this build from a local server;
#  2. per engine, against its own App Store Connect stand-in, which keeps a build processing for 100,000 looks:
#     plays the push run (run 1): every job succeeds, the upload ends waiting, TestFlight, the submission, the tag and
#     the GitHub-side steps wait with it, and the waiting job keeps what it ran with (.git/release-waiting/JOB.tar.gz);
#  3. restarts the stand-in on the same state with processing done (Apple finished meanwhile), plays the scheduled run
#     (run 2: GitHub's `schedule`, GitLab's scheduled pipeline), whose one job finds the waiting release and starts a
#     resume on its branch (a `workflow_dispatch` with resume=true, a pipeline triggered with RELEASE_RESUME=true), and
#     plays that (run 3): only the waiting job runs, from its archive;
#  4. checks that App Store Connect has one upload of the build, in the TestFlight group, its version waiting for
#     review; that xcodebuild archived once; that the tag names the bump's commit, pushed with the branch;
#  5. plays the same release again per engine, resumed by a webhook delivery instead of the schedule: Apple's signed
#     delivery (HMAC-SHA256 of the body under the webhook's secret) goes through `release webhook`, which refuses a forged
#     one and names the release of a real one; the relay then dispatches (GitHub: repository_dispatch for that branch)
#     or triggers (GitLab: a pipeline with RELEASE_RESUME=true) the resume, checked as in 4.
#
#   scripts/simulate-waiting.sh [WORK_DIR]   # default: a new temporary folder
#   RELEASE_BINARY=PATH                      # the release to use (default: swift build, .build/debug/release)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=scripts/simulate-lib.sh
source "$root/scripts/simulate-lib.sh"
simulate_begin simulate-waiting "${1:-}"
rm -rf "$work/origin" "$work/artifacts" "$work/runs" "$work/macos" "$work/linux" "$work/downloads" "$work/stubs" "$work/dispatches"

# 1. The app on its release branch, the starter, its submission and budgets, the exports.
origin="$work/origin/DemoApp"
mkdir -p "$(dirname "$origin")"
cp -R "$root/Fixtures/DemoApp" "$origin"
branch="release/$(cd "$origin" && "$release" version --json | "$python" -c 'import json, sys; print(json.load(sys.stdin)["version"])')"
(cd "$origin" && git init -q -b "$branch" && printf 'build/\nPods/\n' > .gitignore && git add -A && git commit -q -m "The app")
(cd "$origin" && "$release" init --yes >&2)
pipeline=Pipelines/release.json
"$python" - "$origin/$pipeline" <<'EOF'
import json, sys
path = sys.argv[1]
document = json.load(open(path))
steps = document["steps"]
budget = {"wait": "2s", "poll_interval": 1}
for step in steps:
    if step["id"] == "upload" or step["id"] == "testflight":
        step["with"].update(budget)
testflight = next(i for i, s in enumerate(steps) if s["id"] == "testflight")
key = {k: steps[testflight]["with"][k] for k in ("key_id", "issuer_id", "key", "bundle_id", "version", "build", "platform")}
steps.insert(testflight + 1, {"id": "submit", "uses": "appstore.submit", "needs": ["testflight"], "when": {"profile": "release"},
                              "with": dict(key, whats_new="${steps.notes.outputs.text}", release_type="after_approval", **budget)})
json.dump(document, open(path, "w"), indent=2)
EOF
serve_this_build "$root" "$work" simulate-waiting
(cd "$origin" && git add -A && git commit -q -m "The starter release pipeline, with App Review" \
  && "$release" export github-actions "$pipeline" --output .github/workflows/release.yml --tool-source "$tool_source" >&2 \
  && "$release" export gitlab-ci "$pipeline" --output .gitlab-ci.yml --tool-source "$tool_source" >&2 \
  && git add .github .gitlab-ci.yml && git commit -q -m "The release workflow, for GitHub Actions and GitLab CI")
git -C "$origin" config receive.denyCurrentBranch updateInstead
started="$(git -C "$origin" rev-parse HEAD)"
if ! grep -q "^#   macos on " "$origin/.github/workflows/release.yml"; then
  echo "simulate-waiting: the workflow's header does not say which jobs run on macOS" >&2
  exit 1
fi

# The fake Xcode tools behind a stand-in xcodebuild that counts archives; the API key App Store Connect accepts.
mkdir -p "$work/stubs"
"$release" rehearse-tools "$work/fake-xcode" 2>/dev/null
cat > "$work/stubs/xcodebuild" <<EOF
#!/usr/bin/env bash
set -euo pipefail
if [[ " \$* " == *" archive "* ]]; then echo archive >> "$work/archives"; fi
exec "$work/fake-xcode/xcodebuild" "\$@"
EOF
chmod +x "$work/stubs/xcodebuild"
openssl ecparam -genkey -name prime256v1 -noout 2>/dev/null | openssl pkcs8 -topk8 -nocrypt -out "$work/AuthKey.p8" 2>/dev/null
key_id=SIMULATE42 issuer_id=69a6de70-0000-47e3-e053-5b8c7c11a4d1
tools() { # COMMAND...: with the fake Xcode tools, the counting xcodebuild first, on PATH
  PATH="$work/stubs:$work/fake-xcode:$PATH" RELEASE_FAKE_RELEASE="$release" RELEASE_FAKE_STATE="$work/fake-state" HOME="$work/home" "$@"
}
appstore() { # NAME POLLS: (re)starts that App Store Connect on its state; its pid in `appstore_pid`
  rm -f "$work/appstore-$1.url"
  "$release" appstore-server --storage "$work/appstore-$1" --key-id "$key_id" --issuer-id "$issuer_id" --public-key "$work/AuthKey.p8" \
    --processing-polls "$2" --auto-create < /dev/null > "$work/appstore-$1.url" 2>/dev/null &
  appstore_pid=$!
  servers+=("$appstore_pid")
}
play() { # ENGINE FILE RUN [ARGUMENT...]: one run of the exported file
  local engine="$1" file="$2" run="$3"
  shift 3
  tools "$python" "$root/scripts/simulate-actions.py" "$origin/$file" --engine "$engine" --origin "$origin" --branch "$branch" \
    --work "$work" --run-id "$run" --env "APP_STORE_CONNECT_KEY_ID=$key_id" --env "APP_STORE_CONNECT_ISSUER_ID=$issuer_id" \
    --env "APP_STORE_CONNECT_API_URL=$(url_of "$work" "appstore-$engine")" --secret "APP_STORE_CONNECT_KEY=$(cat "$work/AuthKey.p8")" "$@"
}
check() { # MESSAGE CONDITION...: fails the simulation with MESSAGE unless the command succeeds
  local message="$1"
  shift
  if ! "$@"; then
    echo "simulate-waiting: $message" >&2
    exit 1
  fi
}

push_run() { # ENGINE FILE WAITING_ARCHIVE: from the release's start, the push run, which ends green and waiting; then
  # Apple finishes (the stand-in restarts on the same state with processing done)
  local engine="$1" file="$2" archive="$3"
  git -C "$origin" reset -q --hard "$started"
  git -C "$origin" tag --list 'v*' | while read -r tag; do git -C "$origin" tag -d "$tag" >/dev/null; done
  rm -rf "$work/artifacts" "$work/runs" "$work/archives" "$work/dispatches" "$work/fake-state" "$work/appstore-$engine"
  appstore "$engine" 100000

  # 2. The push run: green, and waiting.
  echo "simulate-waiting: $engine: the push run, with Apple processing past the wait budget" >&2
  play "$engine" "$file" 1 > "$work/play-1.log" 2>&1 || { cat "$work/play-1.log" >&2; echo "simulate-waiting: $engine: the push run failed" >&2; exit 1; }
  check "$engine: the push run did not end waiting" grep -qE "release waiting \(not failed\): upload: (processing of build|the upload of)" "$work/play-1.log"
  check "$engine: the waiting job kept nothing to resume from" test -s "$work/runs/1/$archive"
  check "$engine: archived $(wc -l < "$work/archives" 2>/dev/null || echo 0) times in the push run" test "$(wc -l < "$work/archives")" -eq 1
  check "$engine: something was given to testers while the build was processing" \
    test -z "$(appstore_summary "$work/appstore-$engine/state.json" | grep '^group ')"
  check "$engine: a tag was made before TestFlight" test -z "$(git -C "$origin" tag --list 'v*')"
  echo "simulate-waiting: $engine: the push run ended green, waiting: $(grep -o 'release waiting (not failed): [^;]*' "$work/play-1.log" | head -1)" >&2

  # Apple finished meanwhile.
  kill "$appstore_pid" 2>/dev/null || true
  wait "$appstore_pid" 2>/dev/null || true
  appstore "$engine" 0
}

resumed() { # ENGINE RUN RESUME_ARGUMENTS: plays the resume (run RUN), and checks the release is done, nothing built or
  # uploaded again
  local engine="$1" run="$2" file="$3" resume="$4"
  # shellcheck disable=SC2086
  play "$engine" "$file" "$run" $resume > "$work/play-$run.log" 2>&1 || { cat "$work/play-$run.log" >&2; echo "simulate-waiting: $engine: the resume failed" >&2; exit 1; }
  cat "$work/play-$run.log" >&2

  # 4. The release is done, and nothing was built or uploaded again.
  appstore_summary "$work/appstore-$engine/state.json" > "$work/$engine.txt"
  cat "$work/$engine.txt" >&2
  check "$engine: archived again in the resume" test "$(wc -l < "$work/archives")" -eq 1
  check "$engine: not one upload" test "$(grep -c '^upload ' "$work/$engine.txt")" -eq 1
  check "$engine: the resume did not send the build again" grep -q "nothing to send" "$work/play-$run.log"
  check "$engine: no TestFlight group has the build" grep -q "^group Internal Testers: " "$work/$engine.txt"
  check "$engine: the version is not waiting for review" grep -q "^review submission IOS WAITING_FOR_REVIEW" "$work/$engine.txt"
  tags="$(git -C "$origin" tag --list 'v*')"
  check "$engine: expected one tag, origin has: ${tags:-none}" test -n "$tags"
  check "$engine: the tag $tags does not name the commit the branch was pushed at" \
    test "$(git -C "$origin" rev-parse "$tags^{commit}")" = "$(git -C "$origin" rev-parse "refs/heads/$branch")"
  check "$engine: the tag names the commit the release started on, not the bump's" test "$(git -C "$origin" rev-parse "$tags^{commit}")" != "$started"
}

simulate() { # ENGINE FILE WAITING_ARCHIVE SCHEDULE_ARGUMENTS RESUME_ARGUMENTS
  local engine="$1" file="$2" archive="$3" schedule="$4" resume="$5"
  push_run "$engine" "$file" "$archive"
  # 3. The scheduled run starts the resume, which runs the waiting job alone.
  echo "simulate-waiting: $engine: the scheduled run" >&2
  # shellcheck disable=SC2086
  play "$engine" "$file" 2 $schedule > "$work/play-2.log" 2>&1 || { cat "$work/play-2.log" >&2; exit 1; }
  check "$engine: the scheduled run started no resume on $branch: $(cat "$work/dispatches" 2>/dev/null)" grep -q "$branch" "$work/dispatches"
  echo "simulate-waiting: $engine: the scheduled run started: $(cat "$work/dispatches")" >&2
  resumed "$engine" 3 "$file" "$resume"
  echo "simulate-waiting: $engine: the resume finished TestFlight and App Review without building or uploading again; tag $tags" >&2
}

# The relay a team puts in front of `release webhook`: Apple POSTs a delivery signed with the webhook's secret (HMAC-SHA256
# of the body in x-apple-signature), the relay hands body and header to `release webhook`, which verifies them and
# names the release; only then does the relay resume it (GitHub: repository_dispatch with that branch; GitLab: a
# pipeline trigger on it).
secret="simulated webhook secret"
deliver() { # ENGINE SIGNATURE: `release webhook` on the delivery in $work/delivery.json; its JSON on stdout
  env APP_STORE_CONNECT_KEY_ID="$key_id" APP_STORE_CONNECT_ISSUER_ID="$issuer_id" APP_STORE_CONNECT_KEY="$(cat "$work/AuthKey.p8")" \
    APP_STORE_CONNECT_API_URL="$(url_of "$work" "appstore-$1")" \
    "$release" webhook --secret "$secret" --signature "$2" --json < "$work/delivery.json"
}
webhook() { # ENGINE FILE WAITING_ARCHIVE DISPATCH_ARGUMENTS RESUME_ARGUMENTS: the same release, resumed by a delivery
  local engine="$1" file="$2" archive="$3" dispatch="$4" resume="$5"
  push_run "$engine" "$file" "$archive"
  # Apple's delivery: the build upload's state changed (the upload's id from App Store Connect's state).
  upload="$("$python" -c 'import json, sys; print(json.load(open(sys.argv[1]))["buildUploads"][0]["id"])' "$work/appstore-$engine/state.json")"
  printf '{"data":{"type":"buildUploadStateUpdated","id":"delivery-1","attributes":{"oldState":"PROCESSING","newState":"COMPLETE","timestamp":"2026-12-06T10:00:00Z"},"relationships":{"instance":{"data":{"type":"buildUploads","id":"%s"}}}}}' \
    "$upload" > "$work/delivery.json"
  signature="hmacsha256=$(openssl dgst -sha256 -hmac "$secret" < "$work/delivery.json" | sed 's/^.*= //')"
  # A forged delivery (wrong signature) is refused, and the relay resumes nothing.
  if deliver "$engine" "hmacsha256=$(printf '%064d' 0)" > "$work/forged.json" 2> "$work/forged.log"; then
    echo "simulate-waiting: $engine: release webhook accepted a delivery with a wrong signature" >&2
    exit 1
  fi
  check "$engine: the forged delivery was not refused for its signature: $(cat "$work/forged.log")" grep -q "signature" "$work/forged.log"
  deliver "$engine" "$signature" > "$work/verified.json" 2> "$work/verified.log" || { cat "$work/verified.log" >&2; echo "simulate-waiting: $engine: release webhook refused Apple's delivery" >&2; exit 1; }
  ref="$("$python" -c 'import json, sys; print(json.load(open(sys.argv[1])).get("ref") or "")' "$work/verified.json")"
  check "$engine: release webhook named '$ref' to resume, not $branch: $(cat "$work/verified.json")" test "$ref" = "$branch"
  echo "simulate-waiting: $engine: release webhook verified the delivery and named $ref" >&2
  if [ -n "$dispatch" ]; then
    # GitHub: the relay's repository_dispatch runs open-releases for that branch, which starts the resume.
    # shellcheck disable=SC2086
    play "$engine" "$file" 2 $dispatch --payload-branch "$ref" > "$work/play-2.log" 2>&1 || { cat "$work/play-2.log" >&2; exit 1; }
    check "$engine: the dispatch started no resume on $branch: $(cat "$work/dispatches" 2>/dev/null)" grep -q "$branch" "$work/dispatches"
  fi
  resumed "$engine" 3 "$file" "$resume"
  echo "simulate-waiting: $engine: a verified webhook delivery resumed the release: TestFlight and App Review finished without building or uploading again; tag $tags" >&2
}

simulate github-actions .github/workflows/release.yml release-waiting-linux-2/linux-2.tar.gz \
  "--event schedule" "--event workflow_dispatch --input resume=true"
simulate gitlab-ci .gitlab-ci.yml linux-2/.git/release-waiting/linux-2.tar.gz \
  "--pipeline-source schedule" "--pipeline-source trigger --variable RELEASE_RESUME=true"
webhook github-actions .github/workflows/release.yml release-waiting-linux-2/linux-2.tar.gz \
  "--event repository_dispatch" "--event workflow_dispatch --input resume=true"
webhook gitlab-ci .gitlab-ci.yml linux-2/.git/release-waiting/linux-2.tar.gz \
  "" "--pipeline-source trigger --variable RELEASE_RESUME=true"
echo "simulate-waiting: on GitHub Actions and GitLab CI the first play ended green and waiting, and a scheduled play, or a verified webhook delivery, finished the release without building again" >&2

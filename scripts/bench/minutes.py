#!/usr/bin/env python3
"""Runner minutes of a release, played with scripted durations (scripts/bench-minutes.sh runs this; Python 3.9).

Reads an exported GitHub Actions workflow (`release export github-actions`) and the pipeline it came from, and
writes run reports (the shape `release run --report` writes: `runner`, `duration`, and `steps` with their own
`runner` and `duration`) for two ways of running the same release:

  ours  the exported workflow: each job on the runner its `runs-on` names, running the steps its
        `release run --only …` lists. A step that waits on Apple (appstore.upload and testflight.distribute for
        processing, appstore.submit for App Review) ends its job in the recorded waiting state: the wait holds no
        runner. A scheduled play resumes it later on the same kind of runner: one short job per wait (setup, and
        the convergence check of the step that waited).
  lane  what fastlane does: one job on one Mac runs every step in order and polls App Store Connect until the build
        is processed (upload_to_testflight waits for processing by default). deliver's submit_for_review returns once
        the version is submitted, so the lane is not charged for the day of App Review.

The release runs on `release/1.0.0` in CI (`CI` and `GITHUB_ACTIONS` set, no other variable): a step whose `when`
does not hold there (another profile's signing, an upload to a URL that is not configured) is skipped and costs
nothing, on both sides.

Usage: minutes.py WORKFLOW.yml PIPELINE.json OUT_DIR NAME
Scripted durations come from the environment (minutes): ARCHIVE_MIN (12), EXPORT_MIN (2), PROCESSING_MIN (25),
REVIEW_MIN (1440), STEP_MIN (0.5, every other step), SETUP_MIN (1, a job's checkout, tool install and artifacts).
Writes OUT_DIR/NAME-ours-N.json (one per job) and OUT_DIR/NAME-lane.json, and prints one summary line of JSON.
"""
import fnmatch
import json
import os
import re
import sys

try:
    import yaml
except ImportError:  # pragma: no cover - the message is the point
    sys.exit("minutes.py: PyYAML is missing (pip3 install pyyaml): it reads the exported workflow")


def minutes(name, default):
    value = os.environ.get(name, "")
    try:
        number = float(value) if value else default
    except ValueError:
        sys.exit("minutes.py: %s=%r is not a number of minutes" % (name, value))
    if number < 0 or number > 100000:
        sys.exit("minutes.py: %s=%r is out of range" % (name, value))
    return number


ARCHIVE = minutes("ARCHIVE_MIN", 12)
EXPORT = minutes("EXPORT_MIN", 2)
PROCESSING = minutes("PROCESSING_MIN", 25)
REVIEW = minutes("REVIEW_MIN", 1440)
STEP = minutes("STEP_MIN", 0.5)
SETUP = minutes("SETUP_MIN", 1)

# What each kind costs on a runner, and what it waits for at Apple.
WORK = {"xcode.archive": ARCHIVE, "xcode.export": EXPORT}
WAITS = {"appstore.upload": ("processing", PROCESSING), "testflight.distribute": ("processing", PROCESSING),
         "appstore.submit": ("review", REVIEW)}


def runner_kind(runs_on):
    labels = runs_on if isinstance(runs_on, list) else [runs_on]
    return "macos" if any("macos" in str(label).lower() for label in labels) else "linux"


def jobs_of(workflow_path):
    with open(workflow_path) as file:
        workflow = yaml.safe_load(file)
    if not isinstance(workflow, dict) or not isinstance(workflow.get("jobs"), dict):
        sys.exit("minutes.py: %s: no jobs (not an exported workflow)" % workflow_path)
    jobs = []
    for name, job in workflow["jobs"].items():
        steps = []
        for step in job.get("steps") or []:
            run = step.get("run") or ""
            if "release run" in run:
                steps += re.findall(r"--only ([a-z0-9][a-z0-9_-]*)", run)
        if steps:
            jobs.append({"name": name, "runner": runner_kind(job.get("runs-on")), "steps": steps})
    if not jobs:
        sys.exit("minutes.py: %s: no job runs release run --only" % workflow_path)
    return jobs


BRANCH = "release/1.0.0"
ENVIRONMENT = {"CI": "true", "GITHUB_ACTIONS": "true"}


def holds(condition, profile, system):
    """A pipeline `when` (DESIGN §4) on a CI run of BRANCH with ENVIRONMENT."""
    if not condition:
        return True
    results = []
    for key, value in condition.items():
        values = value if isinstance(value, list) else [value]
        if key == "profile":
            results.append(profile is not None and any(fnmatch.fnmatchcase(profile, v) for v in values))
        elif key == "branch":
            results.append(any(fnmatch.fnmatchcase(BRANCH, v) for v in values))
        elif key == "os":
            results.append(system in values)
        elif key == "env":
            results.append(all(name in ENVIRONMENT and fnmatch.fnmatchcase(ENVIRONMENT[name], glob) for name, glob in value.items()))
        elif key == "all":
            results.append(all(holds(c, profile, system) for c in value))
        elif key == "any":
            results.append(any(holds(c, profile, system) for c in value))
        elif key == "not":
            results.append(not holds(value, profile, system))
        else:
            sys.exit("minutes.py: unknown condition %r" % key)
    return all(results)


def steps_of(pipeline_path):
    """Step id -> (kind, condition), and the profile a CI run of BRANCH chooses."""
    with open(pipeline_path) as file:
        pipeline = json.load(file)
    profiles = pipeline.get("profiles") or {}
    profile = next((name for name, p in profiles.items() if p.get("when") and holds(p["when"], None, "linux")), None)
    if profile is None:
        profile = next((name for name, p in profiles.items() if p.get("default")), None)
    steps = {step["id"]: (step.get("uses", ""), step.get("when")) for step in pipeline.get("steps", [])}
    return steps, profile


def report(path, runner, steps):
    """A run report of one job: its wall clock is the setup and its steps, one after another."""
    entries = [{"id": step_id, "runner": runner, "duration": round(seconds, 3)} for step_id, seconds in steps]
    document = {"runner": runner, "duration": round(SETUP * 60 + sum(s for _, s in steps), 3), "steps": entries}
    with open(path, "w") as file:
        json.dump(document, file, indent=2)
        file.write("\n")
    return document["duration"]


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    workflow_path, pipeline_path, out, name = sys.argv[1:]
    jobs = jobs_of(workflow_path)
    pipeline_steps, profile = steps_of(pipeline_path)
    ours = []
    waiting = {"ours": 0.0, "lane": 0.0}
    lane_steps = []
    waited = set()
    for index, job in enumerate(jobs):
        steps = []
        resumes = []
        for step_id in job["steps"]:
            kind, condition = pipeline_steps.get(step_id, ("", None))
            if not holds(condition, profile, job["runner"]):
                continue  # skipped on this run: no time
            steps.append((step_id, WORK.get(kind, STEP) * 60))
            lane_steps.append((step_id, WORK.get(kind, STEP) * 60))
            if kind in WAITS:
                what, length = WAITS[kind]
                # The job ends in waiting: 0 runner minutes. A schedule resumes it once Apple is done.
                if what not in waited:
                    waited.add(what)
                    resumes.append((what, length))
                    # The lane polls through processing on its Mac; it does not wait for App Review.
                    if what == "processing":
                        lane_steps.append(("wait-" + what, length * 60))
                        waiting["lane"] += length
        path = os.path.join(out, "%s-ours-%d.json" % (name, index + 1))
        report(path, job["runner"], steps)
        ours.append({"job": job["name"], "runner": job["runner"], "steps": len(steps), "report": path})
        for number, (what, _) in enumerate(resumes):
            path = os.path.join(out, "%s-ours-%d-resume-%d.json" % (name, index + 1, number + 1))
            report(path, job["runner"], [("resume-after-" + what, STEP * 60)])
            ours.append({"job": job["name"] + " (resumed after " + what + ")", "runner": job["runner"], "steps": 1, "report": path})
    lane = os.path.join(out, "%s-lane.json" % name)
    report(lane, "macos", lane_steps)
    print(json.dumps({"jobs": ours, "lane": lane, "waiting_minutes": waiting, "profile": profile,
                      "scripted": {"archive": ARCHIVE, "export": EXPORT, "processing": PROCESSING, "review": REVIEW,
                                   "step": STEP, "setup": SETUP}}))


if __name__ == "__main__":
    main()

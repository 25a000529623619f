#!/usr/bin/env python3
"""Plays an exported GitHub Actions workflow (`release export github-actions`) on this machine, job by job.

Each job starts on a fresh "machine": its folder is wiped and the repository cloned into it again. Like GitHub's
hosted runners, every runner of one system has the same workspace path (macOS jobs in
WORK/macos/Users/runner/work/REPO/REPO, Linux ones in WORK/linux/home/runner/work/REPO/REPO), so the two systems'
paths differ and a job sees nothing another left except what the workflow carries. Jobs run in an order their
`needs` allow (file order among ready ones). What each step does:

  actions/checkout            a fresh `git clone` of ORIGIN (full history) on BRANCH, at the commit BRANCH was at when
                              the play started (GitHub's `github.sha`), whatever a job pushed since
  the step with id install-release
                              run as written (bash): it downloads `release` from the URL the workflow pins (the
                              simulation serves real tarballs of this build on 127.0.0.1), checks the pinned SHA-256
                              and puts it on GITHUB_PATH; every later `release` of the job is that binary. A macOS job
                              sees `uname -s` say Darwin (a shim on its PATH), so it fetches the darwin-universal
                              tarball. A workflow that installs `release` another way (Homebrew, Mint, SwiftPM) cannot
                              be played here, and the simulation says so
  actions/cache               a cache miss: nothing restored, nothing saved
  actions/attest-build-provenance
                              checks that each subject-path matches a file (no signature is made)
  actions/upload-artifact     the files its `path` lines match (hidden files too), rooted where upload-artifact
                              roots them (the least common ancestor of the search paths), kept under WORK/artifacts
  actions/download-artifact   those files, unpacked into `path`
  run:                        bash in the workspace, with the step's env (${{ secrets.NAME }} from --secret,
                              ${{ vars.NAME }} from --env)

Every job runs as a hosted runner would: no git identity (no global or system configuration, no identity variables;
the laptop that laid the repository out has one), and with `--engine gitlab-ci` on GitLab's detached HEAD at the
commit, the branch named only by CI_COMMIT_BRANCH.

Events (issue 37): `--event push` (the default), `workflow_dispatch` with `--input NAME=VALUE`, `schedule` or
`repository_dispatch` (`--payload-branch`) on GitHub, whose job-level `if:` are evaluated (`github.event_name`,
`github.event.schedule`: `--schedule CRON`, else the resumes' every 30 minutes, `inputs.*`, `needs.*.outputs.*`, `!`, `&&`, `||`, `==`, `!=`); on GitLab `--pipeline-source` (`push`, `schedule`,
`trigger`) and `--variable NAME=VALUE`, whose `rules:` are evaluated the same way (`$NAME`), and `needs:` marked
`optional` may name a job the pipeline does not run. Each play is a workflow run of its own (`--run-id`, default 1:
GITHUB_RUN_ID, GitLab's CI_PIPELINE_ID): every artifact it uploads is also kept under WORK/runs/RUN/NAME, which the
GitHub CLI's stand-in (`gh` on each job's PATH: `gh api …/actions/artifacts`, `gh run download RUN --name NAME --dir
DIR`, `gh workflow run WORKFLOW --ref BRANCH -f NAME=VALUE`, recorded in WORK/dispatches) and GitLab's API stand-in
(a server on 127.0.0.1 as CI_API_V4_URL: `jobs/artifacts/REF/raw/PATH?job=JOB` from the latest earlier run that has
that job's artifacts, `trigger/pipeline` recorded in WORK/dispatches) answer from.

Nothing else crosses from one job to the next. A macOS job runs on this Linux machine: `release run` gets
`--os macos` there (through a wrapper on its PATH, in front of the installed binary), the one change the simulation
makes to a command.

  simulate-actions.py WORKFLOW --origin REPO --branch BRANCH --work DIR
                      [--env NAME=VALUE]... [--secret NAME=VALUE]... [--job JOB]... [--run-id N]
                      [--event EVENT] [--schedule CRON] [--input NAME=VALUE]... [--payload-branch BRANCH]
                      [--pipeline-source SOURCE] [--variable NAME=VALUE]...

--job plays only the named jobs (again), with the artifacts an earlier play left in WORK/artifacts.
Exits 1 when a job fails, naming it.
"""
import argparse
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import urllib.parse

import yaml


def fail(message):
    print(f"simulate-actions: {message}", file=sys.stderr)
    sys.exit(1)


def job_order(jobs):
    """Job ids in an order `needs` allows; ties in file order."""
    done, order = set(), []
    while len(order) < len(jobs):
        ready = [job for job, spec in jobs.items() if job not in done
                 and all(need in done for need in as_list(spec.get("needs")))]
        if not ready:
            fail("the jobs' needs form a cycle")
        done.add(ready[0])
        order.append(ready[0])
    return order


def as_list(value):
    return [] if value is None else value if isinstance(value, list) else [value]


def system_of(runs_on):
    labels = " ".join(as_list(runs_on)).lower()
    return "macos" if "macos" in labels else "linux"


def is_arm(runs_on):
    """Whether the runner the labels choose is Arm: GitHub's `ubuntu-*-arm` and GitLab's `saas-linux-*-arm64`, and
    the macOS runners since macos-14 (Apple silicon; macos-13 and the `-intel` ones are Intel)."""
    labels = [label.lower() for label in as_list(runs_on)]
    if system_of(runs_on) == "macos":
        return not any(label == "macos-13" or label.startswith("macos-13-") or "intel" in label for label in labels)
    return any("arm" in label for label in labels)


def runner_shims(bin_folder, runs_on):
    """What the runner the labels choose says of itself, on this Linux x86_64 machine: `uname` (a shim in the job's
    bin folder) and the variables GitHub (RUNNER_OS, RUNNER_ARCH) and GitLab (CI_RUNNER_EXECUTABLE_ARCH) set."""
    system, arm = system_of(runs_on), is_arm(runs_on)
    kernel, machine = ("Darwin", "arm64" if arm else "x86_64") if system == "macos" else ("Linux", "aarch64" if arm else "x86_64")
    if (kernel, machine) != ("Linux", "x86_64"):
        with open(os.path.join(bin_folder, "uname"), "w") as out:
            out.write(f'#!/bin/sh\ncase "$1" in -s) echo {kernel} ;; -m) echo {machine} ;; *) PATH=/usr/bin:/bin exec uname "$@" ;; esac\n')
        os.chmod(os.path.join(bin_folder, "uname"), 0o755)
    return {"RUNNER_OS": "macOS" if system == "macos" else "Linux", "RUNNER_ARCH": "ARM64" if arm else "X64",
            "CI_RUNNER_EXECUTABLE_ARCH": ("darwin/" if system == "macos" else "linux/") + ("arm64" if arm else "amd64")}


def expand(text, secrets, variables, context=None):
    """${{ secrets.NAME }} from --secret, ${{ vars.NAME }} from --env, and the names `context` holds (github.*,
    inputs.*, steps.*.outputs.*, needs.*.outputs.*); any other expression is not something this simulation knows."""
    def replace(match):
        expression = match.group(1).strip()
        if expression.startswith("secrets."):
            return secrets.get(expression[len("secrets."):], "")
        if expression.startswith("vars."):
            return variables.get(expression[len("vars."):], "")
        if context is not None and re.fullmatch(r"[A-Za-z0-9_.-]+", expression) and expression.split(".")[0] in (
                "github", "inputs", "steps", "needs"):
            value = context.get(expression, "")
            return "true" if value is True else "false" if value is False else str(value)
        fail(f"cannot evaluate ${{{{ {expression} }}}}")
    return re.sub(r"\$\{\{(.*?)\}\}", replace, str(text))


def evaluate(condition, lookup):
    """A job's `if:` (GitHub) or a rule's `if:` (GitLab) as this simulation's exports write them: names (`lookup`
    gives their values; GitLab's start with `$`), quoted strings, true/false, `==`, `!=`, `!`, `&&`, `||` and
    parentheses. An empty string, null and false are false."""
    tokens = re.findall(r"\s*(\|\||&&|==|!=|!|\(|\)|'[^']*'|\"[^\"]*\"|\$?[A-Za-z_][A-Za-z0-9_.-]*)", condition)
    if "".join(tokens).replace(" ", "") != condition.replace(" ", ""):
        fail(f"cannot evaluate the condition {condition!r}")
    position = [0]

    def peek():
        return tokens[position[0]].strip() if position[0] < len(tokens) else None

    def take():
        position[0] += 1
        return tokens[position[0] - 1].strip()

    def truthy(value):
        return value not in (None, "", False, "false")

    def primary():
        token = take()
        if token == "!":
            return not truthy(primary())
        if token == "(":
            value = either()
            take()
            return value
        if token[0] in "'\"":
            return token[1:-1]
        if token in ("true", "false"):
            return token == "true"
        return lookup(token)

    def comparison():
        left = primary()
        while peek() in ("==", "!="):
            operator, right = take(), primary()
            same = (str(left).lower() if isinstance(left, bool) else left) == (str(right).lower() if isinstance(right, bool) else right)
            left = same if operator == "==" else not same
        return left

    def both():
        value = comparison()
        while peek() == "&&":
            take()
            right = comparison()
            value = truthy(value) and truthy(right)
        return value

    def either():
        value = both()
        while peek() == "||":
            take()
            right = both()
            value = truthy(value) or truthy(right)
        return value

    return truthy(either())


def keep_for_later_runs(arguments, name, source):
    """An artifact this run uploaded, kept as the run's own for later runs (`gh run download`, GitLab's API)."""
    target = os.path.join(arguments.work, "runs", arguments.run_id, name)
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(source, target, symlinks=True)
    index = os.path.join(arguments.work, "runs", "index.json")
    entries = json.load(open(index)) if os.path.exists(index) else []
    sequence = max([e["sequence"] for e in entries], default=0) + 1
    entries = [e for e in entries if not (e["run"] == arguments.run_id and e["name"] == name)]
    entries.append({"name": name, "run": arguments.run_id, "branch": arguments.branch, "sequence": sequence})
    with open(index, "w") as out:
        json.dump(entries, out)


GH_STAND_IN = r'''#!/usr/bin/env python3
# The GitHub CLI as the exported workflows use it, answered from the simulation's runs (WORK/runs).
import json, os, shutil, sys
work, arguments = os.environ["SIMULATE_WORK"], sys.argv[1:]
index = json.load(open(os.path.join(work, "runs", "index.json"))) if os.path.exists(os.path.join(work, "runs", "index.json")) else []
if arguments[:1] == ["api"] and "/actions/artifacts" in arguments[1]:
    ordered = sorted(index, key=lambda e: e["sequence"], reverse=True)
    print(json.dumps({"total_count": len(ordered), "artifacts": [
        {"name": e["name"], "expired": False, "created_at": "2026-01-01T00:00:%02dZ" % min(e["sequence"], 59),
         "workflow_run": {"id": int(e["run"]), "head_branch": e["branch"]}} for e in ordered[:100]]}))
elif arguments[:2] == ["run", "download"]:
    run, name, folder = arguments[2], arguments[arguments.index("--name") + 1], arguments[arguments.index("--dir") + 1]
    source = os.path.join(work, "runs", run, name)
    if not os.path.isdir(source):
        sys.exit("gh (simulated): no artifact %s in run %s" % (name, run))
    shutil.copytree(source, folder, dirs_exist_ok=True, symlinks=True)
elif arguments[:2] == ["workflow", "run"]:
    with open(os.path.join(work, "dispatches"), "a") as out:
        out.write("github %s\n" % " ".join(arguments[2:]))
else:
    sys.exit("gh (simulated): cannot play gh %s" % " ".join(arguments))
'''


def write_gh(bin_folder):
    with open(os.path.join(bin_folder, "gh"), "w") as out:
        out.write(GH_STAND_IN)
    os.chmod(os.path.join(bin_folder, "gh"), 0o755)


def search_path(pattern):
    """The literal folder part of a pattern, as @actions/glob computes its search path."""
    parts = pattern.rstrip("/").split("/")
    literal = []
    for part in parts:
        if any(c in part for c in "*?["):
            break
        literal.append(part)
    return "/".join(literal)


def workspace_glob(workspace, pattern):
    """The paths under `workspace`, relative to it, that `pattern` matches, as Python 3.11's
    glob.glob(pattern, root_dir=workspace, recursive=True, include_hidden=True) finds them (the runners' globs
    match hidden names): `**` any number of folders, `*` and `?` within one name, `[...]` a class. Written out
    because root_dir (3.10) and include_hidden (3.11) are newer than Xcode's Python 3.9."""
    regex = ""
    parts = [part for part in pattern.split("/") if part not in ("", ".")]
    for index, part in enumerate(parts):
        last = index == len(parts) - 1
        if part == "**":
            # Last, it matches the folder before it too (`dist/**` finds `dist`).
            regex = (regex[:-1] + "(?:/.*)?" if regex else ".*") if last else regex + "(?:[^/]+/)*"
            continue
        position = 0
        while position < len(part):
            character = part[position]
            close = part.find("]", position + 2) if character == "[" else -1
            if character == "*":
                regex += "[^/]*"
            elif character == "?":
                regex += "[^/]"
            elif close > 0:
                members = part[position + 1:close]
                regex += "[" + ("^" + members[1:] if members.startswith("!") else members).replace("\\", "\\\\").replace("[", "\\[") + "]"
                position = close
            else:
                regex += re.escape(character)
            position += 1
        regex += "" if last else "/"
    compiled = re.compile(regex)
    found = []
    for folder, folders, names in os.walk(workspace):
        folders.sort()
        for name in sorted(folders + names):
            path = os.path.relpath(os.path.join(folder, name), workspace)
            if compiled.fullmatch(path):
                found.append(path)
    return found


def upload(step, workspace, store, arguments=None, spec=None):
    spec = spec if spec is not None else step.get("with", {})
    name = spec["name"]
    patterns = [line.strip() for line in str(spec["path"]).splitlines() if line.strip()]
    files = set()
    for pattern in patterns:
        for match in workspace_glob(workspace, pattern.rstrip("/")):
            full = os.path.join(workspace, match)
            if os.path.isdir(full) and not os.path.islink(full):
                for folder, _, names in os.walk(full):
                    files.update(os.path.relpath(os.path.join(folder, n), workspace) for n in names)
            else:
                files.add(os.path.normpath(match))
    if not files:
        if spec.get("if-no-files-found", "warn") == "error":
            fail(f"upload {name}: no files match {patterns}")
        return
    # upload-artifact's root: the least common ancestor of the search paths (nested ones dropped); a single
    # search path that is the single file found roots at its folder.
    paths = sorted({search_path(p) for p in patterns})
    paths = [p for p in paths if not any(p != q and (q == "" or p.startswith(q + "/")) for q in paths)]
    if len(paths) > 1:
        root = os.path.commonpath([os.path.join(workspace, p) for p in paths])
    elif len(files) == 1 and os.path.normpath(paths[0]) == next(iter(files)):
        root = os.path.dirname(os.path.join(workspace, paths[0]))
    else:
        root = os.path.join(workspace, paths[0])
    target = os.path.join(store, name)
    if os.path.exists(target):
        if not spec.get("overwrite", False):
            fail(f"upload {name}: an artifact of that name exists and overwrite is not set")
        shutil.rmtree(target)
    for relative in sorted(files):
        source = os.path.join(workspace, relative)
        destination = os.path.join(target, os.path.relpath(source, root))
        os.makedirs(os.path.dirname(destination), exist_ok=True)
        shutil.copy2(source, destination, follow_symlinks=False)
    print(f"  uploaded {name}: {len(files)} files from {os.path.relpath(root, workspace)}/", file=sys.stderr)
    if arguments is not None:
        keep_for_later_runs(arguments, name, target)


def download(step, workspace, store):
    spec = step.get("with", {})
    name = spec["name"]
    source = os.path.join(store, name)
    if not os.path.isdir(source):
        fail(f"download {name}: no such artifact (did the job that uploads it run?)")
    target = os.path.normpath(os.path.join(workspace, spec.get("path", ".")))
    shutil.copytree(source, target, dirs_exist_ok=True, symlinks=True)
    print(f"  downloaded {name} into {os.path.relpath(target, workspace)}/", file=sys.stderr)


def checkout(arguments, workspace, detached=False):
    """A fresh clone of ORIGIN at the commit the run started on (GitHub's `github.sha`, GitLab's CI_COMMIT_SHA), even
    when an earlier job pushed to the branch since: actions/checkout on a push leaves the local branch BRANCH there;
    GitLab's runner leaves a detached HEAD (`detached`), the branch known only from CI_COMMIT_BRANCH."""
    subprocess.run(["git", "clone", "-q", "--no-local", "--branch", arguments.branch, arguments.origin, workspace], check=True)
    if detached:
        subprocess.run(["git", "-C", workspace, "checkout", "-q", "--detach", arguments.sha], check=True)
    else:
        subprocess.run(["git", "-C", workspace, "reset", "-q", "--hard", arguments.sha], check=True)


def runner_git(environment):
    """A hosted runner has no git identity: no global or system configuration and no identity variables (the laptop
    that laid the repository out has one; the jobs must not need it)."""
    for name in ("GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "EMAIL"):
        environment.pop(name, None)
    environment["GIT_CONFIG_GLOBAL"] = os.devnull
    environment["GIT_CONFIG_NOSYSTEM"] = "1"


def write_wrapper(path, target, system):
    """`release` for the job's steps: TARGET, with `--os macos` added to `run` on a macOS job."""
    with open(path, "w") as out:
        extra = "--os macos " if system == "macos" else ""
        out.write(f'#!/bin/sh\nif [ "$1" = run ]; then shift; exec "{target}" run {extra}"$@"; fi\n'
                  f'exec "{target}" "$@"\n')
    os.chmod(path, 0o755)


def github_context(arguments, job_outputs):
    """What the exports' expressions read: the event, the inputs, the jobs' outputs (steps' are added per job)."""
    context = {"github.event_name": arguments.event, "github.token": "simulated-token",
               "github.workflow_ref": f"owner/{os.path.basename(os.path.abspath(arguments.origin))}/.github/workflows/release.yml@refs/heads/{arguments.branch}",
               "github.event.client_payload.branch": arguments.payload_branch or "",
               # The cron a scheduled run was started by: --schedule, else the resumes' (every 30 minutes).
               "github.event.schedule": (arguments.schedule or "*/30 * * * *") if arguments.event == "schedule" else ""}
    for item in arguments.input:
        name, value = item.split("=", 1)
        context["inputs." + name] = value == "true" if value in ("true", "false") else value
    for job, outputs in job_outputs.items():
        for name, value in outputs.items():
            context[f"needs.{job}.outputs.{name}"] = value
    return context


def play(job_id, job, arguments, store, job_outputs=None, jobs=None):
    job_outputs = {} if job_outputs is None else job_outputs
    context = github_context(arguments, job_outputs)

    def runs_on_this_event(need):
        """Whether a job this one needs runs on this event (with --job, it ran in an earlier play if so)."""
        spec = (jobs or {}).get(need, {})
        return "if" not in spec or evaluate(str(spec["if"]), lambda name: context.get(name))
    # As GitHub does: a job whose needs did not all run is skipped (the exports' conditions use no status function).
    skipped = [need for need in as_list(job.get("needs")) if need not in job_outputs
               and not (arguments.job and runs_on_this_event(need))]
    if skipped:
        print(f"simulate-actions: job {job_id} not run: {', '.join(skipped)} did not run", file=sys.stderr)
        return False
    if "if" in job and not evaluate(str(job["if"]), lambda name: context.get(name)):
        print(f"simulate-actions: job {job_id} not run on {arguments.event} (if: {job['if']})", file=sys.stderr)
        return False
    system = system_of(job.get("runs-on"))
    repository = os.path.basename(os.path.abspath(arguments.origin))
    home = "Users" if system == "macos" else "home"
    machine = os.path.join(arguments.work, system)
    workspace = os.path.join(machine, home, "runner", "work", repository, repository)
    shutil.rmtree(machine, ignore_errors=True)
    bin_folder = os.path.join(arguments.work, "bin-" + system)
    shutil.rmtree(bin_folder, ignore_errors=True)
    os.makedirs(bin_folder)
    wrapper = os.path.join(bin_folder, "release")
    runner = runner_shims(bin_folder, job.get("runs-on"))
    environment = dict(os.environ)
    environment.update(dict(item.split("=", 1) for item in arguments.env))
    environment.update(runner)
    write_gh(bin_folder)
    environment.setdefault("GITHUB_REPOSITORY", "owner/" + repository)
    environment.update({"PATH": bin_folder + os.pathsep + environment["PATH"], "CI": "true", "SIMULATE_WORK": arguments.work,
                        "GITHUB_RUN_ID": arguments.run_id, "GITHUB_EVENT_NAME": arguments.event, "GITHUB_ENV": os.path.join(machine, "github-env"),
                        "GITHUB_REF_NAME": arguments.branch, "GITHUB_JOB": job_id, "GITHUB_SHA": arguments.sha,
                        "RUNNER_TEMP": os.path.join(machine, "temp"),
                        "GITHUB_PATH": os.path.join(machine, "github-path")})
    runner_git(environment)
    os.makedirs(environment["RUNNER_TEMP"])
    open(environment["GITHUB_PATH"], "w").close()
    open(environment["GITHUB_ENV"], "w").close()
    secrets = dict(item.split("=", 1) for item in arguments.secret)
    variables = dict(item.split("=", 1) for item in arguments.env)
    installed = False
    print(f"simulate-actions: job {job_id} ({system}) in {workspace}", file=sys.stderr)
    # The runner's workspace exists before any checkout (a job may check nothing out).
    os.makedirs(workspace, exist_ok=True)
    for step in job.get("steps", []):
        uses = step.get("uses", "")
        name = step.get("name", uses)
        if uses.startswith("actions/checkout@"):
            os.rmdir(workspace)
            checkout(arguments, workspace)
        elif uses.startswith("actions/cache@"):
            print(f"  cache {step.get('with', {}).get('path')}: a miss", file=sys.stderr)
        elif uses.startswith("actions/upload-artifact@"):
            spec = {key: expand(value, secrets, variables, context) if isinstance(value, str) else value for key, value in (step.get("with") or {}).items()}
            upload(step, workspace, store, arguments, spec)
        elif uses.startswith("actions/download-artifact@"):
            download(step, workspace, store)
        elif uses.startswith("actions/attest-build-provenance@"):
            patterns = [line.strip() for line in str(step.get("with", {}).get("subject-path", "")).splitlines() if line.strip()]
            for pattern in patterns:
                if not workspace_glob(workspace, pattern):
                    fail(f"job {job_id}: attest: subject-path {pattern!r} matches no file")
            print(f"  attest (simulated, nothing signed): {', '.join(patterns)}", file=sys.stderr)
        elif "run" in step:
            # `release` run as a command (not the word in a message).
            runs_release = re.search(r"(^|\n|[;&|(]|\bthen|\bdo)\s*release\s", step["run"]) is not None
            if not installed and runs_release and step.get("id") != "install-release":
                fail(f"job {job_id}: step '{name}' runs release before any step installed it")
            env = dict(environment)
            env.update({key: expand(value, secrets, variables, context) for key, value in (step.get("env") or {}).items()})
            command = expand(step["run"], secrets, variables, context)
            output = os.path.join(machine, "github-output")
            open(output, "w").close()
            env["GITHUB_OUTPUT"] = output
            print(f"  $ {command}", file=sys.stderr)
            if subprocess.run(["bash", "-eo", "pipefail", "-c", command], cwd=workspace, env=env).returncode != 0:
                fail(f"job {job_id}: step '{name}' failed")
            with open(output) as lines:
                for line in lines:
                    if "=" in line and step.get("id"):
                        key, value = line.rstrip("\n").split("=", 1)
                        context[f"steps.{step['id']}.outputs.{key}"] = value
            # GITHUB_ENV: NAME=VALUE lines set for the steps after this one.
            with open(environment["GITHUB_ENV"]) as lines:
                for line in lines:
                    if "=" in line:
                        key, value = line.rstrip("\n").split("=", 1)
                        environment[key] = value
            open(environment["GITHUB_ENV"], "w").close()
            if step.get("id") == "install-release":
                with open(environment["GITHUB_PATH"]) as paths:
                    folders = [line.strip() for line in paths if line.strip()]
                found = [os.path.join(f, "release") for f in folders if os.access(os.path.join(f, "release"), os.X_OK)]
                if not found:
                    fail(f"job {job_id}: step '{name}' put no release on GITHUB_PATH")
                write_wrapper(wrapper, found[-1], system)
                installed = True
                print(f"  installed {os.path.relpath(found[-1], machine)}", file=sys.stderr)
        else:
            fail(f"job {job_id}: cannot simulate step {step}")
    if not installed and any(re.search(r"(^|\n|[;&|(]|\bthen|\bdo)\s*release\s", str(step.get("run", ""))) for step in job.get("steps", [])):
        fail(f"job {job_id}: no step with id install-release installed release (only a download can be played here)")
    job_outputs[job_id] = {name: expand(value, secrets, variables, context) for name, value in (job.get("outputs") or {}).items()}
    return True


GITLAB_KEYWORDS = {"spec", "include", "stages", "default", "workflow", "variables", "image", "services", "cache",
                   "before_script", "after_script", "pages", "$schema"}


def gitlab_scopes(path):
    """environment -> secret names, from the header's "#   release/JOB: A, B" lines: what a team scopes as told."""
    scopes = {}
    with open(path) as file:
        for line in file:
            match = re.match(r"^#   (release/[a-z0-9-]+): (.*)$", line.rstrip("\n"))
            if match:
                scopes[match.group(1)] = [name.strip() for name in match.group(2).split(",")]
    return scopes


def variable_value(value):
    if isinstance(value, dict):
        if value.get("expand", True) is not False and "$" in str(value.get("value", "")):
            fail(f"variable {value!r} would be expanded")
        return str(value.get("value", ""))
    return str(value)


class GitLabAPI:
    """GitLab's API as the exported resume scripts use it, on 127.0.0.1: a job's artifacts by branch
    (`GET|HEAD /api/v4/projects/1/jobs/artifacts/REF/raw/PATH?job=JOB`: the latest earlier run with that job's
    artifacts, 404 when that run's job left no such file) and pipeline triggers (`POST …/trigger/pipeline`, recorded
    in WORK/dispatches)."""

    def __init__(self, arguments):
        work, current = arguments.work, arguments.run_id

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *_):
                pass

            def answer(self, body):
                parsed = urllib.parse.urlsplit(self.path)
                match = re.fullmatch(r"/api/v4/projects/1/jobs/artifacts/([^/]+)/raw/(.+)", parsed.path)
                if self.headers.get("JOB-TOKEN") != "simulated-job-token" or not match:
                    self.send_response(401 if match else 404)
                    self.end_headers()
                    return
                ref, path = urllib.parse.unquote(match.group(1)), urllib.parse.unquote(match.group(2))
                job = urllib.parse.parse_qs(parsed.query).get("job", [""])[0]
                index = os.path.join(work, "runs", "index.json")
                entries = json.load(open(index)) if os.path.exists(index) else []
                runs = sorted((e for e in entries if e["name"] == job and e["branch"] == ref and e["run"] != current),
                              key=lambda e: e["sequence"])
                file = os.path.join(work, "runs", runs[-1]["run"], job, path) if runs else ""
                if not file or not os.path.isfile(file):
                    self.send_response(404)
                    self.end_headers()
                    return
                data = open(file, "rb").read()
                self.send_response(200)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                if body:
                    self.wfile.write(data)

            def do_GET(self):
                self.answer(True)

            def do_HEAD(self):
                self.answer(False)

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                form = self.rfile.read(length).decode("utf-8", "replace")
                if self.path != "/api/v4/projects/1/trigger/pipeline":
                    self.send_response(404)
                    self.end_headers()
                    return
                fields = re.findall(r'name="([^"]+)"\r\n\r\n([^\r]*)\r\n', form)
                with open(os.path.join(work, "dispatches"), "a") as out:
                    out.write("gitlab " + " ".join(f"{k}={v}" for k, v in fields if k != "token") + "\n")
                body = b'{"id": 2}'
                self.send_response(201)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/api/v4"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()


def gitlab_rules_allow(job, environment):
    """Whether the job's `rules:` put it in this pipeline: the first rule whose `if` holds (or that has none) decides,
    `when: never` leaves it out; no rule holding leaves it out; no `rules:` puts it in."""
    rules = job.get("rules")
    if rules is None:
        return True
    for rule in rules:
        if "if" not in rule or evaluate(str(rule["if"]), lambda name: environment.get(name[1:], "") if name.startswith("$") else fail(f"rule reads {name}")):
            return rule.get("when", "on_success") != "never"
    return False


def play_gitlab(job_id, job, config, scopes, arguments, store, played=frozenset(), api_url=""):
    """One GitLab job: a fresh clone, the artifacts of the jobs it needs with `artifacts: true`, its script items in
    one bash (as GitLab's shell runs them), its artifacts' paths kept. CI/CD variables: --env for every job; a secret
    only for a job whose environment the header scopes it to."""
    pipeline = {"CI_PIPELINE_SOURCE": arguments.pipeline_source}
    pipeline.update(dict(item.split("=", 1) for item in arguments.variable))
    if not gitlab_rules_allow(job, pipeline):
        print(f"simulate-actions: job {job_id} not in a {arguments.pipeline_source} pipeline (rules)", file=sys.stderr)
        return False
    system = system_of(job.get("tags"))
    repository = os.path.basename(os.path.abspath(arguments.origin))
    machine = os.path.join(arguments.work, system)
    # The same folders as the GitHub runners' (a shell runner's builds_dir is the team's choice): the demo's Mach-O
    # UUIDs, hence its assets' digests, depend on the folder the macOS job builds in.
    home = "Users" if system == "macos" else "home"
    workspace = os.path.join(machine, home, "runner", "work", repository, repository)
    shutil.rmtree(machine, ignore_errors=True)
    bin_folder = os.path.join(arguments.work, "bin-" + system)
    shutil.rmtree(bin_folder, ignore_errors=True)
    os.makedirs(bin_folder)
    extra = "--os macos " if system == "macos" else ""
    with open(os.path.join(bin_folder, "release"), "w") as out:
        # The next `release` on PATH after this folder: the one the job installed.
        out.write('#!/bin/sh\nself="$(dirname "$0")"\ntarget=\nold_ifs="$IFS"; IFS=:\n'
                  'for d in $PATH; do [ "$d" = "$self" ] && continue; [ -x "$d/release" ] && { target="$d/release"; break; }; done\n'
                  'IFS="$old_ifs"\n[ -n "$target" ] || { echo "simulate-actions: no release installed" >&2; exit 127; }\n'
                  f'if [ "$1" = run ]; then shift; exec "$target" run {extra}"$@"; fi\nexec "$target" "$@"\n')
    os.chmod(os.path.join(bin_folder, "release"), 0o755)
    runner = runner_shims(bin_folder, job.get("tags"))
    print(f"simulate-actions: job {job_id} ({system}) in {workspace}", file=sys.stderr)
    os.makedirs(os.path.dirname(workspace), exist_ok=True)
    checkout(arguments, workspace, detached=True)
    for need in as_list(job.get("needs")):
        name, carry = (need.get("job"), need.get("artifacts", True)) if isinstance(need, dict) else (need, True)
        if name not in played:
            if not (isinstance(need, dict) and need.get("optional")):
                fail(f"job {job_id} needs {name}, which this pipeline does not run, and not as optional")
            continue
        source = os.path.join(store, name)
        if carry and os.path.isdir(source):
            shutil.copytree(source, workspace, dirs_exist_ok=True, symlinks=True)
            print(f"  downloaded the artifacts of {name}", file=sys.stderr)
    environment = dict(os.environ)
    environment.update(dict(item.split("=", 1) for item in arguments.env))
    for name, value in (config.get("variables") or {}).items():
        environment[name] = variable_value(value)
    for name, value in (job.get("variables") or {}).items():
        environment[name] = variable_value(value)
    secrets = dict(item.split("=", 1) for item in arguments.secret)
    scope = (job.get("environment") or {}).get("name")
    for name in scopes.get(scope, []):
        if name in secrets:
            environment[name] = secrets[name]
    environment.update({key: value for key, value in runner.items() if key.startswith("CI_")})
    environment.update({"PATH": bin_folder + os.pathsep + environment["PATH"], "CI": "true", "GITLAB_CI": "true",
                        "CI_COMMIT_BRANCH": arguments.branch, "CI_COMMIT_SHA": arguments.sha, "CI_JOB_NAME": job_id,
                        "CI_PROJECT_DIR": workspace, "CI_COMMIT_REF_NAME": arguments.branch, "CI_PIPELINE_ID": arguments.run_id,
                        "CI_PROJECT_ID": "1", "CI_JOB_TOKEN": "simulated-job-token", "CI_API_V4_URL": api_url})
    environment.update(pipeline)
    runner_git(environment)
    items = [str(item) for item in as_list(job.get("script"))]
    if not items:
        fail(f"job {job_id}: no script")
    # After the first item (the install), the wrapper goes back in front, and says what it found.
    script = ["set -eo pipefail", items[0],
              f'case "$(command -v release)" in "{bin_folder}"/*) echo "simulate-actions: the first script item installed no release" >&2; exit 1 ;; esac',
              'echo "  installed $(command -v release)" >&2',
              f'export PATH="{bin_folder}:$PATH"'] + items[1:]
    if not any(re.search(r"(^|\n|[;&|(]|\bthen|\bdo)\s*release\s", item) for item in items):
        script = ["set -eo pipefail"] + items  # a job that runs no release installs none
    for item in items:
        print(f"  $ {item.splitlines()[0]}{' …' if len(item.splitlines()) > 1 else ''}", file=sys.stderr)
    if subprocess.run(["bash", "-c", "\n".join(script)], cwd=workspace, env=environment).returncode != 0:
        fail(f"job {job_id}: its script failed")
    artifacts = job.get("artifacts") or {}
    if artifacts:
        target = os.path.join(store, job_id)
        shutil.rmtree(target, ignore_errors=True)
        count = 0
        for pattern in artifacts.get("paths", []):
            for match in workspace_glob(workspace, pattern.rstrip("/")):
                source = os.path.join(workspace, match)
                destination = os.path.join(target, match)
                if os.path.isdir(source) and not os.path.islink(source):
                    shutil.copytree(source, destination, dirs_exist_ok=True, symlinks=True)
                else:
                    os.makedirs(os.path.dirname(destination), exist_ok=True)
                    shutil.copy2(source, destination, follow_symlinks=False)
                count += 1
        if not artifacts.get("expire_in"):
            fail(f"job {job_id}: artifacts without expire_in")
        print(f"  artifacts of {job_id}: {count} paths, expire in {artifacts['expire_in']}", file=sys.stderr)
        if os.path.isdir(target):
            keep_for_later_runs(arguments, job_id, target)
    return True


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("workflow")
    parser.add_argument("--origin", required=True)
    parser.add_argument("--branch", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--env", action="append", default=[])
    parser.add_argument("--secret", action="append", default=[])
    parser.add_argument("--job", action="append", default=[])
    parser.add_argument("--engine", choices=["github-actions", "gitlab-ci"], default="github-actions")
    parser.add_argument("--run-id", default="1")
    parser.add_argument("--event", default="push")
    parser.add_argument("--input", action="append", default=[])
    parser.add_argument("--payload-branch", default="")
    parser.add_argument("--schedule", default="")
    parser.add_argument("--pipeline-source", default="push")
    parser.add_argument("--variable", action="append", default=[])
    arguments = parser.parse_args()
    arguments.work = os.path.abspath(arguments.work)
    arguments.sha = subprocess.run(["git", "-C", arguments.origin, "rev-parse", "refs/heads/" + arguments.branch],
                                   check=True, capture_output=True, text=True).stdout.strip()
    with open(arguments.workflow) as file:
        workflow = yaml.safe_load(file)
    store = os.path.join(arguments.work, "artifacts")
    os.makedirs(store, exist_ok=True)
    if arguments.engine == "gitlab-ci":
        jobs = {key: value for key, value in workflow.items() if key not in GITLAB_KEYWORDS and not key.startswith(".")}
        ordered = {key: {"needs": [n["job"] if isinstance(n, dict) else n for n in as_list(value.get("needs"))]} for key, value in jobs.items()}
        scopes = gitlab_scopes(arguments.workflow)
        api = GitLabAPI(arguments)
        played = set()
        try:
            for job_id in job_order(ordered):
                if arguments.job and job_id not in arguments.job:
                    continue
                if play_gitlab(job_id, jobs[job_id], workflow, scopes, arguments, store, played, api.url):
                    played.add(job_id)
        finally:
            api.stop()
        print("simulate-actions: every job succeeded", file=sys.stderr)
        return
    jobs = workflow["jobs"]
    job_outputs = {}
    for job_id in job_order(jobs):
        if arguments.job and job_id not in arguments.job:
            continue
        play(job_id, jobs[job_id], arguments, store, job_outputs, jobs)
    print("simulate-actions: every job succeeded", file=sys.stderr)


if __name__ == "__main__":
    main()

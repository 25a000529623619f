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

Nothing else crosses from one job to the next. A macOS job runs on this Linux machine: `release run` gets
`--os macos` there (through a wrapper on its PATH, in front of the installed binary), the one change the simulation
makes to a command.

  simulate-actions.py WORKFLOW --origin REPO --branch BRANCH --work DIR
                      [--env NAME=VALUE]... [--secret NAME=VALUE]... [--job JOB]...

--job plays only the named jobs (again), with the artifacts an earlier play left in WORK/artifacts.
Exits 1 when a job fails, naming it.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

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


def scheduled_only(job):
    """Whether a job runs only on a schedule (the rollout guard's): the simulated event is a push, which skips it."""
    if job.get("if") == "github.event_name == 'schedule'":
        return True
    rules = job.get("rules") or []
    return bool(rules) and all(rule.get("if") == '$CI_PIPELINE_SOURCE == "schedule"' for rule in rules if isinstance(rule, dict))


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


def expand(text, secrets, variables):
    """${{ secrets.NAME }} from --secret, ${{ vars.NAME }} from --env; any other expression is not something this
    simulation knows."""
    def replace(match):
        expression = match.group(1).strip()
        if expression.startswith("secrets."):
            return secrets.get(expression[len("secrets."):], "")
        if expression.startswith("vars."):
            return variables.get(expression[len("vars."):], "")
        fail(f"cannot evaluate ${{{{ {expression} }}}}")
    return re.sub(r"\$\{\{(.*?)\}\}", replace, str(text))


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


def upload(step, workspace, store):
    spec = step.get("with", {})
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


def play(job_id, job, arguments, store):
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
    environment.update({"PATH": bin_folder + os.pathsep + environment["PATH"], "CI": "true",
                        "GITHUB_REF_NAME": arguments.branch, "GITHUB_JOB": job_id, "GITHUB_SHA": arguments.sha,
                        "RUNNER_TEMP": os.path.join(machine, "temp"),
                        "GITHUB_PATH": os.path.join(machine, "github-path")})
    runner_git(environment)
    os.makedirs(environment["RUNNER_TEMP"])
    open(environment["GITHUB_PATH"], "w").close()
    secrets = dict(item.split("=", 1) for item in arguments.secret)
    variables = dict(item.split("=", 1) for item in arguments.env)
    installed = False
    print(f"simulate-actions: job {job_id} ({system}) in {workspace}", file=sys.stderr)
    for step in job.get("steps", []):
        uses = step.get("uses", "")
        name = step.get("name", uses)
        if uses.startswith("actions/checkout@"):
            os.makedirs(os.path.dirname(workspace), exist_ok=True)
            checkout(arguments, workspace)
        elif uses.startswith("actions/cache@"):
            print(f"  cache {step.get('with', {}).get('path')}: a miss", file=sys.stderr)
        elif uses.startswith("actions/upload-artifact@"):
            upload(step, workspace, store)
        elif uses.startswith("actions/download-artifact@"):
            download(step, workspace, store)
        elif uses.startswith("actions/attest-build-provenance@"):
            patterns = [line.strip() for line in str(step.get("with", {}).get("subject-path", "")).splitlines() if line.strip()]
            for pattern in patterns:
                if not workspace_glob(workspace, pattern):
                    fail(f"job {job_id}: attest: subject-path {pattern!r} matches no file")
            print(f"  attest (simulated, nothing signed): {', '.join(patterns)}", file=sys.stderr)
        elif "run" in step:
            if not installed and "release" in step["run"].split() and step.get("id") != "install-release":
                fail(f"job {job_id}: step '{name}' runs release before any step installed it")
            env = dict(environment)
            env.update({key: expand(value, secrets, variables) for key, value in (step.get("env") or {}).items()})
            command = expand(step["run"], secrets, variables)
            print(f"  $ {command}", file=sys.stderr)
            if subprocess.run(["bash", "-eo", "pipefail", "-c", command], cwd=workspace, env=env).returncode != 0:
                fail(f"job {job_id}: step '{name}' failed")
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
    if not installed:
        fail(f"job {job_id}: no step with id install-release installed release (only a download can be played here)")


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


def play_gitlab(job_id, job, config, scopes, arguments, store):
    """One GitLab job: a fresh clone, the artifacts of the jobs it needs with `artifacts: true`, its script items in
    one bash (as GitLab's shell runs them), its artifacts' paths kept. CI/CD variables: --env for every job; a secret
    only for a job whose environment the header scopes it to."""
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
                        "CI_COMMIT_BRANCH": arguments.branch, "CI_COMMIT_SHA": arguments.sha, "CI_PIPELINE_SOURCE": "push", "CI_JOB_NAME": job_id,
                        "CI_PROJECT_DIR": workspace})
    runner_git(environment)
    items = [str(item) for item in as_list(job.get("script"))]
    if not items:
        fail(f"job {job_id}: no script")
    # After the first item (the install), the wrapper goes back in front, and says what it found.
    script = ["set -eo pipefail", items[0],
              f'case "$(command -v release)" in "{bin_folder}"/*) echo "simulate-actions: the first script item installed no release" >&2; exit 1 ;; esac',
              'echo "  installed $(command -v release)" >&2',
              f'export PATH="{bin_folder}:$PATH"'] + items[1:]
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
        for job_id in job_order(ordered):
            if (arguments.job and job_id not in arguments.job) or scheduled_only(jobs[job_id]):
                continue
            play_gitlab(job_id, jobs[job_id], workflow, scopes, arguments, store)
        print("simulate-actions: every job succeeded", file=sys.stderr)
        return
    jobs = workflow["jobs"]
    for job_id in job_order(jobs):
        if (arguments.job and job_id not in arguments.job) or scheduled_only(jobs[job_id]):
            continue
        play(job_id, jobs[job_id], arguments, store)
    print("simulate-actions: every job succeeded", file=sys.stderr)


if __name__ == "__main__":
    main()

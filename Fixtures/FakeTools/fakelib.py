"""Shared by the fake Apple tools (xcodebuild, security, xcrun): records each call and keeps state.

RELEASE_FAKE_LOG    a file each call appends one JSON line to: {"tool", "argv", "cwd", "env"}
RELEASE_FAKE_STATE  a folder the fakes keep their state in (security's search list, keychains)
"""
import json
import os
import sys


def record(tool):
    log = os.environ.get("RELEASE_FAKE_LOG")
    if log:
        with open(log, "a") as handle:
            handle.write(json.dumps({"tool": tool, "argv": sys.argv[1:], "cwd": os.getcwd(), "env": dict(os.environ)}) + "\n")


def state_path(name):
    folder = os.environ.get("RELEASE_FAKE_STATE") or os.path.join(os.environ.get("HOME", "/tmp"), ".release-fake-state")
    os.makedirs(folder, exist_ok=True)
    return os.path.join(folder, name)


def load(name, default):
    try:
        with open(state_path(name)) as handle:
            return json.load(handle)
    except FileNotFoundError:
        return default


def save(name, value):
    with open(state_path(name), "w") as handle:
        json.dump(value, handle, indent=1)


def option(argv, name):
    """The value after `name` in argv, or None."""
    if name in argv:
        index = argv.index(name)
        if index + 1 < len(argv):
            return argv[index + 1]
    return None


def say(text, stream=sys.stdout):
    stream.write(text + "\n")
    stream.flush()

#!/usr/bin/env python3
"""Fails when code uses a declaration from a layer it may not use (DESIGN.md §2), read from the compiler's index.

The layers of ReleaseKit, each using only those to its right:
  Execution → Planning → Pipeline → Steps → {Apple, AppStoreConnect, GitHub, Sentry} → {Versioning, Artifacts} → HTTP → Support
Folders of one brace group do not use each other; Support uses nothing of ours. Above ReleaseKit sits Rehearsal (the
local servers), layered the same way: (its top folder) → Tools → {AppStoreConnect, GitHub, Recording, Sentry} → Server. Above
both, the executable `release`, whose two folders use each other, and nothing uses it. And the C libraries: only `ReleaseKit/HTTP/` imports CCurl, only `ReleaseKit/Artifacts/` imports CArchive and
CZlib; nothing else sees C.

A debug build (`swift build`) writes the compiler's index store: for every source file, every occurrence of every
symbol, with the symbol's USR, and every module the file imports. This script reads it through libIndexStore (the
library the toolchain ships for SourceKit-LSP), so it sees every use the compiler saw: types, members, extension
methods, initialisers, operators and implicit uses, not names found by a pattern. A symbol belongs to the folder of
the file that defines it: an extension method declared in Steps/ on a Support type is Steps'.

Run after `swift build`: a source file newer than its index unit is an error (the index would be stale).
`--self-test` compiles a planted upward use, a downward one and a stray `import CCurl` into a scratch index with
`swiftc` and checks that exactly the first and the last are reported (CI runs it before the real check).
Usage: check-layers.py [--store PATH] [--lib PATH] [--root PATH] [--edges] [--self-test]
"""
import ctypes
import glob
import os
import shutil
import subprocess
import sys
import tempfile
from collections import Counter

ROOT = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
SOURCES = os.path.join(ROOT, "Sources")

# Layer groups per target, each using only the groups after it; folders of one group do not use each other, except
# in the targets of MUTUAL. A folder of a target is the first path component below Sources/<target>/; files directly
# in Sources/<target>/ are the target's "(top)" folder.
MUTUAL = {"release"}
LAYERS = {
    "release": [["(top)", "Commands"]],
    "Rehearsal": [["(top)"], ["Tools"], ["AppStoreConnect", "GitHub", "Recording", "Sentry"], ["Server"]],
    "ReleaseKit": [["Execution"], ["Planning"], ["Pipeline"], ["Steps"], ["Apple", "AppStoreConnect", "GitHub", "Sentry"],
                   ["Versioning", "Artifacts"], ["HTTP"], ["Support"]],
}
# Targets, each using only those to its right.
TARGETS = ["release", "Rehearsal", "ReleaseKit"]
# Which of our folders may import each C module.
C_MODULES = {"CCurl": {("ReleaseKit", "HTTP")}, "CArchive": {("ReleaseKit", "Artifacts")},
             "CZlib": {("ReleaseKit", "Artifacts")}}

# indexstore.h: symbol roles and kinds.
DECLARATION, DEFINITION, REFERENCE = 1 << 0, 1 << 1, 1 << 2
KIND_EXTENSION = 9


class Ref(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("length", ctypes.c_size_t)]

    def text(self):
        return ctypes.string_at(self.data, self.length).decode("utf-8", "replace") if self.length else ""


def load(path):
    lib = ctypes.CDLL(path)
    p, b = ctypes.c_void_p, ctypes.c_bool
    for name, result, arguments in [
        ("indexstore_store_create", p, [ctypes.c_char_p, ctypes.POINTER(p)]),
        ("indexstore_error_get_description", ctypes.c_char_p, [p]),
        ("indexstore_store_units_apply_f", b, [p, ctypes.c_uint, p, p]),
        ("indexstore_unit_reader_create", p, [p, ctypes.c_char_p, ctypes.POINTER(p)]),
        ("indexstore_unit_reader_dispose", None, [p]),
        ("indexstore_unit_reader_get_main_file", Ref, [p]),
        ("indexstore_unit_reader_get_module_name", Ref, [p]),
        ("indexstore_unit_reader_get_modification_time", None, [p, ctypes.POINTER(ctypes.c_int64),
                                                                 ctypes.POINTER(ctypes.c_int64)]),
        ("indexstore_unit_reader_dependencies_apply_f", b, [p, p, p]),
        ("indexstore_unit_dependency_get_kind", ctypes.c_int, [p]),
        ("indexstore_unit_dependency_get_name", Ref, [p]),
        ("indexstore_unit_dependency_get_modulename", Ref, [p]),
        ("indexstore_unit_dependency_get_filepath", Ref, [p]),
        ("indexstore_record_reader_create", p, [p, ctypes.c_char_p, ctypes.POINTER(p)]),
        ("indexstore_record_reader_dispose", None, [p]),
        ("indexstore_record_reader_occurrences_apply_f", b, [p, p, p]),
        ("indexstore_occurrence_get_symbol", p, [p]),
        ("indexstore_occurrence_get_roles", ctypes.c_uint64, [p]),
        ("indexstore_occurrence_get_line_col", None, [p, ctypes.POINTER(ctypes.c_uint), ctypes.POINTER(ctypes.c_uint)]),
        ("indexstore_symbol_get_usr", Ref, [p]),
        ("indexstore_symbol_get_name", Ref, [p]),
        ("indexstore_symbol_get_kind", ctypes.c_int, [p]),
    ]:
        function = getattr(lib, name)
        function.restype, function.argtypes = result, arguments
    return lib


UNIT_APPLIER = ctypes.CFUNCTYPE(ctypes.c_bool, ctypes.c_void_p, Ref)
POINTER_APPLIER = ctypes.CFUNCTYPE(ctypes.c_bool, ctypes.c_void_p, ctypes.c_void_p)


def place(path):
    """(target, folder) of a file of ours, or None."""
    # Both resolved: a Mac's temporary folders are reached through symlinks (/var → /private/var), so one path
    # spelled as mkdtemp() gives it and one as realpath() gives it must still compare.
    relative = os.path.relpath(os.path.realpath(path), os.path.realpath(SOURCES))
    parts = relative.split(os.sep)
    if relative.startswith("..") or len(parts) < 2 or parts[0] not in LAYERS:
        return None
    return parts[0], parts[1] if len(parts) > 2 else "(top)"


def rank(where):
    target, folder = where
    for index, group in enumerate(LAYERS[target]):
        if folder in group:
            return index
    return None


def allowed(user, used):
    """Whether code in folder `user` may use a declaration of folder `used` (both (target, folder))."""
    if user == used or rank(user) is None or rank(used) is None:
        return True  # (a folder not in the list is reported once, as such)
    if user[0] != used[0]:
        return TARGETS.index(used[0]) > TARGETS.index(user[0])
    return rank(used) > rank(user) or (rank(used) == rank(user) and user[0] in MUTUAL)


class Index:
    def __init__(self, lib, store_path):
        self.lib = lib
        error = ctypes.c_void_p()
        self.store = lib.indexstore_store_create(store_path.encode(), ctypes.byref(error))
        if not self.store:
            raise SystemExit(f"check-layers: cannot open the index store '{store_path}': "
                             f"{lib.indexstore_error_get_description(error).decode()}")

    def units(self):
        names = []

        @UNIT_APPLIER
        def collect(_, name):
            names.append(name.text())
            return True
        self.lib.indexstore_store_units_apply_f(self.store, 0, None, collect)
        return names

    def unit(self, name):
        """(main file, modification time, [imported modules], [record names]) of one unit."""
        lib = self.lib
        reader = lib.indexstore_unit_reader_create(self.store, name.encode(), None)
        if not reader:
            return None
        try:
            main = lib.indexstore_unit_reader_get_main_file(reader).text()
            seconds, nanoseconds = ctypes.c_int64(), ctypes.c_int64()
            lib.indexstore_unit_reader_get_modification_time(reader, ctypes.byref(seconds), ctypes.byref(nanoseconds))
            modules, records = [], []

            @POINTER_APPLIER
            def dependency(_, item):
                kind = lib.indexstore_unit_dependency_get_kind(item)
                if kind == 1:
                    modules.append(lib.indexstore_unit_dependency_get_modulename(item).text())
                elif kind == 2:
                    records.append(lib.indexstore_unit_dependency_get_name(item).text())
                return True
            lib.indexstore_unit_reader_dependencies_apply_f(reader, None, dependency)
            return main, seconds.value + nanoseconds.value / 1e9, modules, records
        finally:
            lib.indexstore_unit_reader_dispose(reader)

    def occurrences(self, record):
        """(usr, name, kind, roles, line) of every occurrence in one record."""
        lib = self.lib
        reader = lib.indexstore_record_reader_create(self.store, record.encode(), None)
        if not reader:
            return []
        found = []
        line, column = ctypes.c_uint(), ctypes.c_uint()

        @POINTER_APPLIER
        def occurrence(_, item):
            symbol = lib.indexstore_occurrence_get_symbol(item)
            lib.indexstore_occurrence_get_line_col(item, ctypes.byref(line), ctypes.byref(column))
            found.append((lib.indexstore_symbol_get_usr(symbol).text(), lib.indexstore_symbol_get_name(symbol).text(),
                          lib.indexstore_symbol_get_kind(symbol), lib.indexstore_occurrence_get_roles(item), line.value))
            return True
        try:
            lib.indexstore_record_reader_occurrences_apply_f(reader, None, occurrence)
        finally:
            lib.indexstore_record_reader_dispose(reader)
        return found


def library_path(argument):
    candidates = [argument] if argument else []
    candidates += [os.environ.get("INDEXSTORE_LIB", "")]
    swifts = [os.path.join(p, "swift") for p in os.environ.get("PATH", "").split(os.pathsep)]
    if sys.platform == "darwin":  # /usr/bin/swift is a shim: ask for the selected Xcode's
        found = subprocess.run(["xcrun", "--find", "swift"], capture_output=True, text=True)
        swifts.insert(0, found.stdout.strip())
    for swift in [os.path.realpath(path) for path in swifts if path and os.path.exists(path)]:
        usr = os.path.dirname(os.path.dirname(swift))  # …/usr/bin/swift → …/usr
        candidates += [os.path.join(usr, "lib", "libIndexStore.so"), os.path.join(usr, "lib", "libIndexStore.dylib")]
    candidates += ["/opt/swift/usr/lib/libIndexStore.so",
                   "/Applications/Xcode.app/Contents/Developer/Toolchains/XcodeDefault.xctoolchain/usr/lib/"
                   "libIndexStore.dylib"]
    for candidate in candidates:
        if candidate and os.path.exists(candidate):
            return candidate
    raise SystemExit("check-layers: libIndexStore not found next to the toolchain; pass --lib PATH")


def store_path(argument):
    if argument:
        return argument
    found = [os.path.realpath(os.path.join(ROOT, ".build", "debug", "index", "store"))]
    found += sorted(glob.glob(os.path.join(ROOT, ".build", "*", "debug", "index", "store")))
    found = [path for path in found if os.path.isdir(path)]
    if not found:
        raise SystemExit("check-layers: no index store under .build/*/debug/index/store: run `swift build` first")
    return found[0]


def self_test(library):
    """Plants uses in a scratch ReleaseKit, indexes it with swiftc, and checks what the check reports."""
    global ROOT, SOURCES
    # Resolved, as every path check() compares is (mkdtemp() answers /var/folders/… on a Mac, /private/var/… resolved).
    scratch = os.path.realpath(tempfile.mkdtemp(prefix="check-layers-"))
    saved = ROOT, SOURCES
    try:
        ROOT, SOURCES = scratch, os.path.join(scratch, "Sources")
        files = {
            "Sources/ReleaseKit/Support/Low.swift": "import CCurl\nstruct Low {\n    var high: Int { High().value }\n}\n",
            "Sources/ReleaseKit/Steps/High.swift": "struct High {\n    var value = 1\n    var low: Low { Low() }\n}\n",
            "Sources/CCurl/module.modulemap": "module CCurl {\n    header \"shim.h\"\n}\n",
            "Sources/CCurl/shim.h": "static inline int release_curl_planted(void) { return 1; }\n",
        }
        for name, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(scratch, name)), exist_ok=True)
            with open(os.path.join(scratch, name), "w", encoding="utf-8") as file:
                file.write(text)
        store = os.path.join(scratch, "store")
        swift = [name for name in files if name.endswith(".swift")]
        compiled = subprocess.run(["swiftc", "-parse-as-library", "-module-name", "ReleaseKit", "-c", *swift,
                                   "-I", "Sources/CCurl", "-index-store-path", store, "-module-cache-path", "cache"],
                                  cwd=scratch, capture_output=True, text=True)
        if compiled.returncode != 0:
            print(f"check-layers --self-test: swiftc failed:\n{compiled.stderr}", file=sys.stderr)
            return 1
        problems = check(Index(load(library), store))[0]
        # The type, its implicit initialiser, the property and its getter: every symbol the compiler saw.
        expected = [f"Sources/ReleaseKit/Support/Low.swift:3: ReleaseKit/Support uses {name} (ReleaseKit/Steps)"
                    for name in ["High", "init()", "getter:value", "value"]] + [
                    "Sources/ReleaseKit/Support/Low.swift: ReleaseKit/Support imports CCurl"]
        if sorted(problems) != sorted(expected):
            print("check-layers --self-test: expected\n  " + "\n  ".join(expected) + "\nfound\n  "
                  + "\n  ".join(problems), file=sys.stderr)
            return 1
        print("check-layers --self-test: a planted upward use and a stray import CCurl are reported, "
              "a downward use is not")
        return 0
    finally:
        ROOT, SOURCES = saved
        shutil.rmtree(scratch, ignore_errors=True)


def main(arguments):
    global ROOT, SOURCES
    options = {"--store": None, "--lib": None, "--root": None}
    flags = {a for a in arguments if a in ("--edges", "--self-test")}
    rest = [a for a in arguments if a not in flags]
    while rest:
        key = rest.pop(0)
        if key not in options or not rest:
            print(__doc__.strip().splitlines()[-1], file=sys.stderr)
            return 2
        options[key] = rest.pop(0)
    if options["--root"]:
        ROOT = os.path.realpath(options["--root"])
        SOURCES = os.path.join(ROOT, "Sources")
    if "--self-test" in flags:
        return self_test(library_path(options["--lib"]))
    index = Index(load(library_path(options["--lib"])), store_path(options["--store"]))
    problems, edges, sources = check(index)
    if "--edges" in flags:
        for (user, used), count in sorted(edges.items()):
            print(f"{'/'.join(user):28} → {'/'.join(used):28} {count}")
        return 0
    for problem in problems:
        print(problem)
    between = sum(edges.values())
    if problems:
        print(f"check-layers: {len(problems)} problems ({between} uses between folders in {len(sources)} files)",
              file=sys.stderr)
        return 1
    print(f"check-layers: {between} uses between folders in {len(sources)} files, every one to a layer below")
    return 0


def check(index):
    """(problems, uses between folders, source files) of the sources under SOURCES, from `index`."""

    # The newest unit of each of our source files that still exists.
    units = {}
    for name in index.units():
        unit = index.unit(name)
        if unit is None or not unit[0]:
            continue
        main_file = os.path.realpath(unit[0])
        if place(main_file) is None or not os.path.exists(main_file):
            continue
        if main_file not in units or units[main_file][1] < unit[1]:
            units[main_file] = unit
    sources = sorted(os.path.realpath(path) for path in glob.glob(os.path.join(SOURCES, "*", "**", "*.swift"),
                                                                  recursive=True) if place(path) is not None)
    problems = []
    stale = [path for path in sources if path not in units or os.path.getmtime(path) > units[path][1] + 1]
    for path in stale:
        problems.append(f"{os.path.relpath(path, ROOT)}: not in the index or changed since: run `swift build` first")
    for folder in sorted({"/".join(place(path)) for path in sources if rank(place(path)) is None}):
        problems.append(f"Sources/{folder}: a folder not in the layer list")

    # Every definition's folder, then every reference against it.
    occurrences = {path: [o for record in units[path][3] for o in index.occurrences(record)]
                   for path in sources if path in units}
    owner = {}
    for path, found in occurrences.items():
        for usr, _, kind, roles, _ in found:
            if roles & (DEFINITION | DECLARATION) and kind != KIND_EXTENSION:
                owner.setdefault(usr, place(path))
    edges = Counter()
    for path, found in sorted(occurrences.items()):
        user = place(path)
        for usr, name, kind, roles, line in found:
            used = owner.get(usr)
            if not roles & REFERENCE or used is None or used == user:
                continue
            edges[(user, used)] += 1
            if not allowed(user, used):
                problems.append(f"{os.path.relpath(path, ROOT)}:{line}: {'/'.join(user)} uses {name} "
                                f"({'/'.join(used)})")
        for module in sorted(set(units[path][2])):
            if module in C_MODULES and user not in C_MODULES[module]:
                problems.append(f"{os.path.relpath(path, ROOT)}: {'/'.join(user)} imports {module}")
    return problems, edges, sources


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env python3
"""Fails when a file imports one of this package's modules that its target does not declare, or when code in
Rehearsal uses a declaration from a folder of Rehearsal it may not use (DESIGN.md §2).

ReleaseKit's layers are SwiftPM targets (Package.swift), each depending only on layers below it, so the compiler
refuses a use of a module a file does not import. What the compiler lets through is an import itself: every built
module sits in one folder on every target's search path, so a file can import a layer its target does not depend on
(sideways, or upward in an incremental build) whenever that module happens to be built first, and a C module
(CCurl, CArchive, CZlib) reaches every target above the one that declares it. So the first check: each `import` of a
module of this package (a target or a C module) names a direct dependency of the importing file's target, as
`swift package dump-package` reports them. (SwiftPM's `--explicit-target-dependency-import-check` does not catch
either case on Linux.)

The second check keeps the folders inside the Rehearsal target (the local servers, one module because they share
the server core's internals) in order, each using only those to its right:
  (its top folder) → Tools → {AppStoreConnect, GitHub, Recording, Sentry} → Server
Folders of one group do not use each other.
A debug build (`swift build`) writes the compiler's index store: for every source file, every occurrence of every
symbol, with the symbol's USR. This script reads it through libIndexStore (the library the toolchain ships for
SourceKit-LSP), so it sees every use the compiler saw: types, members, extension methods, initialisers, operators and
implicit uses, not names found by a pattern. A symbol belongs to the folder of the file that defines it: an extension
method declared in GitHub/ on a Server type is GitHub's.

Run after `swift build`: a source file newer than its index unit is an error (the index would be stale).
`--self-test` compiles a planted upward use and a downward one into a scratch index with `swiftc`, and plants an
undeclared import of a layer and of a C module, and checks that exactly those are reported (CI runs it before the
real check).
Usage: check-layers.py [--store PATH] [--lib PATH] [--root PATH] [--edges] [--self-test]
"""
import ctypes
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter

ROOT = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
SOURCES = os.path.join(ROOT, "Sources")

# Layer groups per target, each using only the groups after it; folders of one group do not use each other. A folder
# of a target is the first path component below Sources/<target>/; files directly in Sources/<target>/ are the
# target's "(top)" folder.
LAYERS = {
    "Rehearsal": [["(top)"], ["Tools"], ["AppStoreConnect", "GitHub", "Recording", "Sentry"], ["Server"]],
}

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
    if user == used or user[0] != used[0] or rank(user) is None or rank(used) is None:
        return True  # (other targets are the compiler's; a folder not in the list is reported once, as such)
    return rank(used) > rank(user)


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
        """(main file, modification time, [record names]) of one unit."""
        lib = self.lib
        reader = lib.indexstore_unit_reader_create(self.store, name.encode(), None)
        if not reader:
            return None
        try:
            main = lib.indexstore_unit_reader_get_main_file(reader).text()
            seconds, nanoseconds = ctypes.c_int64(), ctypes.c_int64()
            lib.indexstore_unit_reader_get_modification_time(reader, ctypes.byref(seconds), ctypes.byref(nanoseconds))
            records = []

            @POINTER_APPLIER
            def dependency(_, item):
                kind = lib.indexstore_unit_dependency_get_kind(item)
                if kind == 2:
                    records.append(lib.indexstore_unit_dependency_get_name(item).text())
                return True
            lib.indexstore_unit_reader_dependencies_apply_f(reader, None, dependency)
            return main, seconds.value + nanoseconds.value / 1e9, records
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


IMPORT = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?import\s+"
                    r"(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?(\w+)")


def manifest(root):
    """The package as `swift package dump-package` describes it."""
    # A scratch path of its own: .build may be locked by a `swift test` running meanwhile.
    scratch = tempfile.mkdtemp(prefix="check-layers-")
    try:
        dumped = subprocess.run(["swift", "package", "--package-path", root, "--scratch-path", scratch, "dump-package"],
                                capture_output=True, text=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    if dumped.returncode != 0:
        raise SystemExit(f"check-layers: swift package dump-package failed:\n{dumped.stderr}")
    return json.loads(dumped.stdout)


def check_imports(root, package):
    """(problems, files) for imports of the package's own modules that the importing target does not declare."""
    modules = {target["name"] for target in package["targets"]}
    problems, files = [], 0
    for target in package["targets"]:
        folder = target.get("path") or os.path.join("Tests" if target["type"] == "test" else "Sources", target["name"])
        declared = set()
        for dependency in target.get("dependencies", []):
            for kind in ("byName", "target"):
                if kind in dependency:
                    declared.add(dependency[kind][0])
        for path in sorted(glob.glob(os.path.join(root, folder, "**", "*.swift"), recursive=True)):
            files += 1
            with open(path, encoding="utf-8") as file:
                for number, line in enumerate(file, 1):
                    found = IMPORT.match(line)
                    if found and found.group(1) in modules and found.group(1) not in declared | {target["name"]}:
                        problems.append(f"{os.path.relpath(path, root)}:{number}: {target['name']} imports "
                                        f"{found.group(1)}, which is not among its dependencies in Package.swift")
    return problems, files


def self_test(library):
    """Plants uses in a scratch Rehearsal, indexes it with swiftc, and checks what the check reports."""
    global ROOT, SOURCES
    # Resolved, as every path check() compares is (mkdtemp() answers /var/folders/… on a Mac, /private/var/… resolved).
    scratch = os.path.realpath(tempfile.mkdtemp(prefix="check-layers-"))
    saved = ROOT, SOURCES
    try:
        ROOT, SOURCES = scratch, os.path.join(scratch, "Sources")
        files = {
            "Sources/Rehearsal/Server/Low.swift": "struct Low {\n    var high: Int { High().value }\n}\n",
            "Sources/Rehearsal/Tools/High.swift": "struct High {\n    var value = 1\n    var low: Low { Low() }\n}\n",
        }
        for name, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(scratch, name)), exist_ok=True)
            with open(os.path.join(scratch, name), "w", encoding="utf-8") as file:
                file.write(text)
        store = os.path.join(scratch, "store")
        swift = [name for name in files if name.endswith(".swift")]
        compiled = subprocess.run(["swiftc", "-parse-as-library", "-module-name", "Rehearsal", "-c", *swift,
                                   "-index-store-path", store, "-module-cache-path", "cache"],
                                  cwd=scratch, capture_output=True, text=True)
        if compiled.returncode != 0:
            print(f"check-layers --self-test: swiftc failed:\n{compiled.stderr}", file=sys.stderr)
            return 1
        problems = check(Index(load(library), store))[0]
        # Imports: B depends on A, A on the C module CA; B importing CA (reachable, not declared) and A importing B
        # (upward) are reported, B importing A is not.
        planted = {"Sources/A/A.swift": "internal import CA\nimport B\n", "Sources/B/B.swift": "import A\n@preconcurrency import CA\n"}
        for name, text in planted.items():
            os.makedirs(os.path.dirname(os.path.join(scratch, name)), exist_ok=True)
            with open(os.path.join(scratch, name), "w", encoding="utf-8") as file:
                file.write(text)
        package = {"targets": [{"name": "CA", "type": "system"}, {"name": "A", "type": "regular", "dependencies": [{"byName": ["CA", None]}]},
                               {"name": "B", "type": "regular", "dependencies": [{"target": ["A", None]}]}]}
        problems += check_imports(scratch, package)[0]
        # The type, its implicit initialiser, the property and its getter: every symbol the compiler saw.
        expected = [f"Sources/Rehearsal/Server/Low.swift:2: Rehearsal/Server uses {name} (Rehearsal/Tools)"
                    for name in ["High", "init()", "getter:value", "value"]] + [
                    "Sources/A/A.swift:2: A imports B, which is not among its dependencies in Package.swift",
                    "Sources/B/B.swift:2: B imports CA, which is not among its dependencies in Package.swift"]
        if sorted(problems) != sorted(expected):
            print("check-layers --self-test: expected\n  " + "\n  ".join(expected) + "\nfound\n  "
                  + "\n  ".join(problems), file=sys.stderr)
            return 1
        print("check-layers --self-test: a planted upward use in Rehearsal and undeclared imports of a target and of a "
              "C module are reported, a downward use and a declared import are not")
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
    undeclared, files = check_imports(ROOT, manifest(ROOT))
    problems += undeclared
    if "--edges" in flags:
        for (user, used), count in sorted(edges.items()):
            print(f"{'/'.join(user):28} → {'/'.join(used):28} {count}")
        return 0
    for problem in problems:
        print(problem)
    between = sum(edges.values())
    if problems:
        print(f"check-layers: {len(problems)} problems (imports of {files} files; {between} uses between Rehearsal's "
              f"folders in {len(sources)} files)", file=sys.stderr)
        return 1
    print(f"check-layers: every import of {files} files is a declared dependency; {between} uses between Rehearsal's "
          f"folders in {len(sources)} files, every one to a layer below")
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
    occurrences = {path: [o for record in units[path][2] for o in index.occurrences(record)]
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
    return problems, edges, sources


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

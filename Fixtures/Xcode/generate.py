#!/usr/bin/env python3
"""Writes the Xcode fixtures under Fixtures/Xcode and, for each, the files expected after its bump.

The projects are laid out the way Xcode 15 writes them (object ids, section comments, sorted build
settings). The expected files are made here by plain text substitution on known lines, independently of
the Swift engine, so the tests compare the engine against something it did not produce.
Run: python3 Fixtures/Xcode/generate.py   (rewrites every fixture folder it owns)
"""
import hashlib, json, os, plistlib, re, shutil

ROOT = os.path.dirname(os.path.abspath(__file__))


def oid(*parts):
    return hashlib.md5("/".join(parts).encode()).hexdigest()[:24].upper()


class Q(str):
    """A value Xcode writes in quotes even though it would not need them."""


BARE = re.compile(r"^[A-Za-z0-9_$/:.\-]+$")


def fmt(value):
    if isinstance(value, Q) or not BARE.match(value):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return value


def settings_block(settings, indent):
    lines = []
    for key in sorted(settings):
        value = settings[key]
        k = fmt(key)
        if isinstance(value, list):
            lines.append(f"{indent}{k} = (")
            for item in value:
                lines.append(f"{indent}\t{fmt(item)},")
            lines.append(f"{indent});")
        else:
            lines.append(f"{indent}{k} = {fmt(value)};")
    return lines


PRODUCT = {
    "com.apple.product-type.application": ("app", "wrapper.application"),
    "com.apple.product-type.app-extension": ("appex", '"wrapper.app-extension"'),
    "com.apple.product-type.application.watchapp2": ("app", "wrapper.application"),
    "com.apple.product-type.watchkit2-extension": ("appex", '"wrapper.app-extension"'),
    "com.apple.product-type.application.watchapp2-container": ("app", "wrapper.application"),
    "com.apple.product-type.bundle.unit-test": ("xctest", "wrapper.cfbundle"),
    "com.apple.product-type.framework": ("framework", "wrapper.framework"),
    "com.apple.product-type.bundle.ui-testing": ("xctest", "wrapper.cfbundle"),
}

EMBED = {
    "extensions": ("Embed Foundation Extensions", "13", '""'),
    "watch": ("Embed Watch Content", "16", '"$(CONTENTS_FOLDER_PATH)/Watch"'),
    "frameworks": ("Embed Frameworks", "10", '""'),
    "loginitems": ("Copy Login Items", "1", "Contents/Library/LoginItems"),
}


def project(name, files, targets, project_settings, project_xcconfig=None, configs=("Debug", "Release"),
            default_config="Release", line_ending="\n", missing=()):
    """files: relative paths referenced by the project. targets: list of dicts with keys
    name, type, settings {config: {...}}, xcconfig {config: path}, embeds [(kind, [target names])],
    depends [names]."""
    # Referenced but not in the repository (git-ignored secrets and CocoaPods files): only the reference exists.
    files = list(files) + [path for path in missing if path not in files]
    P = lambda *p: oid(name, *p)
    root_id = P("project")
    main_group = P("group", "")
    products_group = P("group", "Products")
    sections = {}

    def add(section, line_or_lines):
        sections.setdefault(section, []).extend(line_or_lines if isinstance(line_or_lines, list) else [line_or_lines])

    # Groups mirror folders; each file reference is named relative to its group.
    groups = {"": []}
    for path in files:
        parts = path.split("/")
        for depth in range(1, len(parts)):
            folder = "/".join(parts[:depth])
            parent = "/".join(parts[:depth - 1])
            groups.setdefault(folder, [])
            if folder not in groups[parent]:
                groups[parent].append(folder)
        groups["/".join(parts[:-1])].append(path)
    file_ids = {}
    for path in files:
        base = os.path.basename(path)
        kind = {"plist": "text.plist.xml", "xcconfig": "text.xcconfig", "swift": "sourcecode.swift"}.get(base.rsplit(".", 1)[-1], "text")
        if base.endswith(".plist") and "Binary" in path:
            kind = "text.plist"
        file_ids[path] = P("file", path)
        add("PBXFileReference", f"\t\t{file_ids[path]} /* {base} */ = {{isa = PBXFileReference; lastKnownFileType = {kind}; path = {fmt(base)}; sourceTree = \"<group>\"; }};")
    product_ids = {}
    for t in targets:
        ext, ftype = PRODUCT[t["type"]]
        product_ids[t["name"]] = P("product", t["name"])
        add("PBXFileReference", f"\t\t{product_ids[t['name']]} /* {t['name']}.{ext} */ = {{isa = PBXFileReference; explicitFileType = {ftype}; includeInIndex = 0; path = {fmt(t['name'] + '.' + ext)}; sourceTree = BUILT_PRODUCTS_DIR; }};")

    def group_lines(folder):
        gid = main_group if folder == "" else P("group", folder)
        comment = "" if folder == "" else f" /* {os.path.basename(folder)} */"
        lines = [f"\t\t{gid}{comment} = {{", "\t\t\tisa = PBXGroup;", "\t\t\tchildren = ("]
        for child in groups[folder]:
            if child in groups:
                lines.append(f"\t\t\t\t{P('group', child)} /* {os.path.basename(child)} */,")
            else:
                lines.append(f"\t\t\t\t{file_ids[child]} /* {os.path.basename(child)} */,")
        if folder == "":
            lines.append(f"\t\t\t\t{products_group} /* Products */,")
        lines.append("\t\t\t);")
        if folder:
            lines.append(f"\t\t\tpath = {fmt(os.path.basename(folder))};")
        lines.append("\t\t\tsourceTree = \"<group>\";")
        lines.append("\t\t};")
        return lines

    for folder in sorted(groups, key=lambda f: P("group", f) if f else main_group):
        add("PBXGroup", group_lines(folder))
    prod_lines = [f"\t\t{products_group} /* Products */ = {{", "\t\t\tisa = PBXGroup;", "\t\t\tchildren = ("]
    for t in targets:
        ext, _ = PRODUCT[t["type"]]
        prod_lines.append(f"\t\t\t\t{product_ids[t['name']]} /* {t['name']}.{ext} */,")
    prod_lines += ["\t\t\t);", "\t\t\tname = Products;", "\t\t\tsourceTree = \"<group>\";", "\t\t};"]
    add("PBXGroup", prod_lines)

    target_ids = {t["name"]: P("target", t["name"]) for t in targets}
    config_lists = []

    def config_list(owner_id, label, configs_ids):
        lid = P("list", owner_id)
        lines = [f"\t\t{lid} /* Build configuration list for {label} */ = {{", "\t\t\tisa = XCConfigurationList;", "\t\t\tbuildConfigurations = ("]
        for cname, cid in configs_ids:
            lines.append(f"\t\t\t\t{cid} /* {cname} */,")
        lines += ["\t\t\t);", "\t\t\tdefaultConfigurationIsVisible = 0;", f"\t\t\tdefaultConfigurationName = {default_config};", "\t\t};"]
        config_lists.append((lid, lines))
        return lid

    def build_configuration(owner, cname, settings, xcconfig):
        cid = P("config", owner, cname)
        lines = [f"\t\t{cid} /* {cname} */ = {{", "\t\t\tisa = XCBuildConfiguration;"]
        if xcconfig:
            lines.append(f"\t\t\tbaseConfigurationReference = {file_ids[xcconfig]} /* {os.path.basename(xcconfig)} */;")
        lines.append("\t\t\tbuildSettings = {")
        lines += settings_block(settings, "\t\t\t\t")
        lines += ["\t\t\t};", f"\t\t\tname = {fmt(cname)};", "\t\t};"]
        add("XCBuildConfiguration", lines)
        return cid

    project_config_ids = [(c, build_configuration("project", c, project_settings.get(c, {}), (project_xcconfig or {}).get(c))) for c in configs]
    project_list = config_list("project", f'PBXProject "{name}"', project_config_ids)

    for t in targets:
        tid = target_ids[t["name"]]
        ids = [(c, build_configuration(t["name"], c, t["settings"].get(c, {}), t.get("xcconfig", {}).get(c))) for c in configs]
        lid = config_list(tid, f'PBXNativeTarget "{t["name"]}"', ids)
        phases = [(P("sources", t["name"]), "Sources", "PBXSourcesBuildPhase"),
                  (P("frameworks", t["name"]), "Frameworks", "PBXFrameworksBuildPhase"),
                  (P("resources", t["name"]), "Resources", "PBXResourcesBuildPhase")]
        for kind, embedded in t.get("embeds", []):
            label, spec, dst = EMBED[kind]
            pid = P("embed", t["name"], kind)
            phases.append((pid, label, "PBXCopyFilesBuildPhase"))
            lines = [f"\t\t{pid} /* {label} */ = {{", "\t\t\tisa = PBXCopyFilesBuildPhase;", "\t\t\tbuildActionMask = 2147483647;",
                     f"\t\t\tdstPath = {dst};", f"\t\t\tdstSubfolderSpec = {spec};", "\t\t\tfiles = ("]
            for e in embedded:
                ext, _ = PRODUCT[next(x for x in targets if x["name"] == e)["type"]]
                bid = P("buildfile", t["name"], e)
                lines.append(f"\t\t\t\t{bid} /* {e}.{ext} in {label} */,")
                add("PBXBuildFile", f"\t\t{bid} /* {e}.{ext} in {label} */ = {{isa = PBXBuildFile; fileRef = {product_ids[e]} /* {e}.{ext} */; settings = {{ATTRIBUTES = (RemoveHeadersOnCopy, ); }}; }};")
            lines += ["\t\t\t);", f"\t\t\tname = {fmt(label)};", "\t\t\trunOnlyForDeploymentPostprocessing = 0;", "\t\t};"]
            add("PBXCopyFilesBuildPhase", lines)
        for pid, label, isa in phases[:3]:
            add(isa, [f"\t\t{pid} /* {label} */ = {{", f"\t\t\tisa = {isa};", "\t\t\tbuildActionMask = 2147483647;",
                      "\t\t\tfiles = (", "\t\t\t);", "\t\t\trunOnlyForDeploymentPostprocessing = 0;", "\t\t};"])
        dep_ids = []
        for d in t.get("depends", []):
            did, proxy = P("dependency", t["name"], d), P("proxy", t["name"], d)
            dep_ids.append(did)
            add("PBXTargetDependency", [f"\t\t{did} /* PBXTargetDependency */ = {{", "\t\t\tisa = PBXTargetDependency;",
                                        f"\t\t\ttarget = {target_ids[d]} /* {d} */;", f"\t\t\ttargetProxy = {proxy} /* PBXContainerItemProxy */;", "\t\t};"])
            add("PBXContainerItemProxy", [f"\t\t{proxy} /* PBXContainerItemProxy */ = {{", "\t\t\tisa = PBXContainerItemProxy;",
                                          f"\t\t\tcontainerPortal = {root_id} /* Project object */;", "\t\t\tproxyType = 1;",
                                          f"\t\t\tremoteGlobalIDString = {target_ids[d]};", f"\t\t\tremoteInfo = {fmt(d)};", "\t\t};"])
        ext, _ = PRODUCT[t["type"]]
        lines = [f"\t\t{tid} /* {t['name']} */ = {{", "\t\t\tisa = PBXNativeTarget;",
                 f"\t\t\tbuildConfigurationList = {lid} /* Build configuration list for PBXNativeTarget \"{t['name']}\" */;",
                 "\t\t\tbuildPhases = ("]
        lines += [f"\t\t\t\t{pid} /* {label} */," for pid, label, _ in phases]
        lines += ["\t\t\t);", "\t\t\tbuildRules = (", "\t\t\t);", "\t\t\tdependencies = ("]
        lines += [f"\t\t\t\t{d} /* PBXTargetDependency */," for d in dep_ids]
        lines += ["\t\t\t);", f"\t\t\tname = {fmt(t['name'])};", f"\t\t\tproductName = {fmt(t['name'])};",
                  f"\t\t\tproductReference = {product_ids[t['name']]} /* {t['name']}.{ext} */;",
                  f"\t\t\tproductType = \"{t['type']}\";", "\t\t};"]
        add("PBXNativeTarget", lines)

    lines = [f"\t\t{root_id} /* Project object */ = {{", "\t\t\tisa = PBXProject;", "\t\t\tattributes = {",
             "\t\t\t\tBuildIndependentTargetsInParallel = 1;", "\t\t\t\tLastSwiftUpdateCheck = 1500;", "\t\t\t\tLastUpgradeCheck = 1500;",
             "\t\t\t\tTargetAttributes = {"]
    for t in targets:
        lines += [f"\t\t\t\t\t{target_ids[t['name']]} = {{", "\t\t\t\t\t\tCreatedOnToolsVersion = 15.0;", "\t\t\t\t\t};"]
    lines += ["\t\t\t\t};", "\t\t\t};", f"\t\t\tbuildConfigurationList = {project_list} /* Build configuration list for PBXProject \"{name}\" */;",
              '\t\t\tcompatibilityVersion = "Xcode 14.0";', "\t\t\tdevelopmentRegion = en;", "\t\t\thasScannedForEncodings = 0;",
              "\t\t\tknownRegions = (", "\t\t\t\ten,", "\t\t\t\tBase,", "\t\t\t);", f"\t\t\tmainGroup = {main_group};",
              f"\t\t\tproductRefGroup = {products_group} /* Products */;", '\t\t\tprojectDirPath = "";', '\t\t\tprojectRoot = "";',
              "\t\t\ttargets = ("]
    lines += [f"\t\t\t\t{target_ids[t['name']]} /* {t['name']} */," for t in targets]
    lines += ["\t\t\t);", "\t\t};"]
    add("PBXProject", lines)
    for _, l in config_lists:
        add("XCConfigurationList", l)

    out = ["// !$*UTF8*$!", "{", "\tarchiveVersion = 1;", "\tclasses = {", "\t};", "\tobjectVersion = 56;", "\tobjects = {", ""]
    for section in sorted(sections):
        body = sections[section]
        # Xcode sorts objects by id inside a section; keep multi-line objects together.
        objects, current = [], []
        for line in body:
            current.append(line)
            if line.startswith("\t\t") and not line.startswith("\t\t\t") and (line.endswith("};") and (" = {isa" in line or line == "\t\t};")):
                objects.append(current)
                current = []
        objects.sort(key=lambda o: o[0].strip())
        out.append(f"/* Begin {section} section */")
        for o in objects:
            out += o
        out.append(f"/* End {section} section */")
        out.append("")
    out[-1:] = ["\t};", f"\trootObject = {root_id} /* Project object */;", "}", ""]
    return line_ending.join(out)


def info_plist(values, binary=False):
    base = {
        "CFBundleDevelopmentRegion": "$(DEVELOPMENT_LANGUAGE)",
        "CFBundleExecutable": "$(EXECUTABLE_NAME)",
        "CFBundleIdentifier": "$(PRODUCT_BUNDLE_IDENTIFIER)",
        "CFBundleInfoDictionaryVersion": "6.0",
        "CFBundleName": "$(PRODUCT_NAME)",
        "CFBundlePackageType": "$(PRODUCT_BUNDLE_PACKAGE_TYPE)",
    }
    base.update(values)
    if binary:
        return plistlib.dumps(base, fmt=plistlib.FMT_BINARY, sort_keys=True)
    return plistlib.dumps(base, sort_keys=True)


def extension_plist(values, point):
    d = dict(values)
    d["NSExtension"] = {"NSExtensionPointIdentifier": point, "NSExtensionPrincipalClass": "$(PRODUCT_MODULE_NAME).ShareViewController"}
    return info_plist(d)


def write(folder, files):
    # expected/report.json and report.txt are snapshots the Swift tests record (RECORD_SNAPSHOTS=1); keep them.
    snapshots = {}
    for name in ("report.json", "report.txt"):
        path = os.path.join(folder, "expected", name)
        if os.path.exists(path):
            snapshots[path] = open(path, "rb").read()
    shutil.rmtree(folder, ignore_errors=True)
    for path, report in snapshots.items():
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(report)
    for rel, content in files.items():
        path = os.path.join(folder, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(content if isinstance(content, bytes) else content.encode())


def expect(folder, files, edits, bump):
    """edits: {path: [(old, new, count)]} applied to `files` as plain text; the results go to expected/after."""
    after = {}
    for path, changes in edits.items():
        content = files[path]
        for old, new, count in changes:
            found = content.count(old)
            assert found == count, f"{folder}: {path}: '{old}' found {found} times, expected {count}"
            content = content.replace(old, new)
        after["expected/after/" + path] = content
    after["expected/bump.json"] = json.dumps(bump, indent=2, sort_keys=True) + "\n"
    for rel, content in after.items():
        path = os.path.join(folder, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(content if isinstance(content, bytes) else content.encode())


APP = "com.apple.product-type.application"
APPEX = "com.apple.product-type.app-extension"
WATCH = "com.apple.product-type.application.watchapp2"
WATCHEXT = "com.apple.product-type.watchkit2-extension"
TEST = "com.apple.product-type.bundle.unit-test"

COMMON_PROJECT = {
    "Debug": {"ALWAYS_SEARCH_USER_PATHS": "NO", "DEBUG_INFORMATION_FORMAT": "dwarf", "ENABLE_TESTABILITY": "YES",
              "IPHONEOS_DEPLOYMENT_TARGET": "16.0", "ONLY_ACTIVE_ARCH": "YES", "SDKROOT": "iphoneos",
              "SWIFT_ACTIVE_COMPILATION_CONDITIONS": "DEBUG $(inherited)"},
    "Release": {"ALWAYS_SEARCH_USER_PATHS": "NO", "DEBUG_INFORMATION_FORMAT": "dwarf-with-dsym", "IPHONEOS_DEPLOYMENT_TARGET": "16.0",
                "SDKROOT": "iphoneos", "VALIDATE_PRODUCT": "YES"},
}


def app_settings(extra, bundle, plist=None):
    s = {"ASSETCATALOG_COMPILER_APPICON_NAME": "AppIcon", "CODE_SIGN_STYLE": "Automatic",
         "LD_RUNPATH_SEARCH_PATHS": ["$(inherited)", "@executable_path/Frameworks"],
         "PRODUCT_BUNDLE_IDENTIFIER": bundle, "PRODUCT_NAME": "$(TARGET_NAME)", "SWIFT_VERSION": "5.0", "TARGETED_DEVICE_FAMILY": "1,2"}
    if plist:
        s["INFOPLIST_FILE"] = plist
    s.update(extra)
    return s


def literal_plist():
    """Info.plist literals, as projects from before Xcode 11 have them."""
    folder = os.path.join(ROOT, "literal-plist")
    plist = info_plist({"CFBundleShortVersionString": "3.0.0", "CFBundleVersion": "4146"}).decode()
    files = {
        "Classic/Info.plist": plist,
        "Classic/AppDelegate.swift": "import UIKit\n",
    }
    targets = [{"name": "Classic", "type": APP, "settings": {c: app_settings({}, "com.example.classic", "Classic/Info.plist") for c in ("Debug", "Release")}}]
    files["Classic.xcodeproj/project.pbxproj"] = project("Classic", ["Classic/AppDelegate.swift", "Classic/Info.plist"], targets, COMMON_PROJECT)
    write(folder, files)
    expect(folder, files, {"Classic/Info.plist": [("<string>3.0.0</string>", "<string>3.0.1</string>", 1),
                                                  ("<string>4146</string>", "<string>4321</string>", 1)]},
           {"choice": "patch", "build": "4321", "version": "3.0.1"})


def pbxproj_per_target():
    """$(MARKETING_VERSION) in the plists; the values in target build settings, quoted and bare; an extension
    that has fallen behind its app."""
    folder = os.path.join(ROOT, "pbxproj-per-target")
    app_plist = info_plist({"CFBundleShortVersionString": "$(MARKETING_VERSION)", "CFBundleVersion": "$(CURRENT_PROJECT_VERSION)"}).decode()
    ext_plist = extension_plist({"CFBundleShortVersionString": "${MARKETING_VERSION}", "CFBundleVersion": "${CURRENT_PROJECT_VERSION}"},
                                "com.apple.share-services").decode()
    files = {"Demo/Info.plist": app_plist, "Demo/AppDelegate.swift": "import UIKit\n",
             "ShareExtension/Info.plist": ext_plist, "ShareExtension/ShareViewController.swift": "import UIKit\n"}
    targets = [
        {"name": "Demo", "type": APP, "embeds": [("extensions", ["ShareExtension"])], "depends": ["ShareExtension"],
         "settings": {"Debug": app_settings({"MARKETING_VERSION": "3.0.0", "CURRENT_PROJECT_VERSION": "4146"}, "com.example.demo", "Demo/Info.plist"),
                      "Release": app_settings({"MARKETING_VERSION": "3.0.0", "CURRENT_PROJECT_VERSION": "4146"}, "com.example.demo", "Demo/Info.plist")}},
        {"name": "ShareExtension", "type": APPEX,
         "settings": {c: {"CODE_SIGN_STYLE": "Automatic", "CURRENT_PROJECT_VERSION": Q("4146"), "INFOPLIST_FILE": "ShareExtension/Info.plist",
                          "MARKETING_VERSION": Q("2.9"), "PRODUCT_BUNDLE_IDENTIFIER": "com.example.demo.share",
                          "PRODUCT_NAME": "$(TARGET_NAME)", "SKIP_INSTALL": "YES"} for c in ("Debug", "Release")}},
    ]
    files["Demo.xcodeproj/project.pbxproj"] = project("Demo", sorted(f for f in files if not f.endswith(".pbxproj")), targets, COMMON_PROJECT)
    write(folder, files)
    expect(folder, files, {"Demo.xcodeproj/project.pbxproj": [
        ("\t\t\t\tMARKETING_VERSION = 3.0.0;\n", "\t\t\t\tMARKETING_VERSION = 3.1.0;\n", 2),
        ("\t\t\t\tMARKETING_VERSION = \"2.9\";\n", "\t\t\t\tMARKETING_VERSION = \"3.1.0\";\n", 2),
        ("\t\t\t\tCURRENT_PROJECT_VERSION = 4146;\n", "\t\t\t\tCURRENT_PROJECT_VERSION = 4321;\n", 2),
        ("\t\t\t\tCURRENT_PROJECT_VERSION = \"4146\";\n", "\t\t\t\tCURRENT_PROJECT_VERSION = \"4321\";\n", 2)]},
        {"choice": "minor", "build": "4321", "version": "3.1.0"})


def xcconfig_chain():
    """Versions in an .xcconfig include chain: KEY=value without spaces, an indirection through APP_VERSION,
    a missing optional include, $(inherited), a conditional setting, comments, CRLF line endings."""
    folder = os.path.join(ROOT, "xcconfig-chain")
    files = {
        "Config/Base.xcconfig": "// Project-wide settings\nSWIFT_VERSION = 5.0\nOTHER_SWIFT_FLAGS = $(inherited) -DBASE\n",
        "Config/Shared.xcconfig": ("// Shared by every target\r\n#include \"Version.xcconfig\"\r\n#include? \"Local.xcconfig\"\r\n\r\n"
                                   "MARKETING_VERSION = $(APP_VERSION)\r\nCURRENT_PROJECT_VERSION = $(APP_BUILD)\r\n"
                                   "PRODUCT_BUNDLE_IDENTIFIER = com.example.chain\r\nPRODUCT_BUNDLE_IDENTIFIER[sdk=iphonesimulator*] = com.example.chain.sim\r\n"),
        "Config/Version.xcconfig": "// The release manager bumps these\nAPP_VERSION=3.0.0\nAPP_BUILD=4146 // CI overrides with --build\n",
        "Config/App-Debug.xcconfig": "#include \"Shared.xcconfig\"\n\nOTHER_SWIFT_FLAGS = $(inherited) -DDEBUG_MENU\n",
        "Config/App-Release.xcconfig": "#include \"Shared.xcconfig\"\n",
        "Chain/Info.plist": info_plist({"CFBundleShortVersionString": "$(MARKETING_VERSION)", "CFBundleVersion": "$(CURRENT_PROJECT_VERSION)"}).decode(),
        "Chain/AppDelegate.swift": "import UIKit\n",
    }
    targets = [{"name": "Chain", "type": APP,
                "xcconfig": {"Debug": "Config/App-Debug.xcconfig", "Release": "Config/App-Release.xcconfig"},
                "settings": {c: app_settings({}, "$(inherited)", "Chain/Info.plist") for c in ("Debug", "Release")}}]
    for c in targets[0]["settings"].values():
        del c["PRODUCT_BUNDLE_IDENTIFIER"]
    files["Chain.xcodeproj/project.pbxproj"] = project("Chain", sorted(f for f in files if not f.endswith(".pbxproj")), targets, COMMON_PROJECT,
                                                      project_xcconfig={"Debug": "Config/Base.xcconfig", "Release": "Config/Base.xcconfig"})
    write(folder, files)
    expect(folder, files, {"Config/Version.xcconfig": [("APP_VERSION=3.0.0\n", "APP_VERSION=4.0.0\n", 1),
                                                       ("APP_BUILD=4146 //", "APP_BUILD=4147 //", 1)]},
           {"choice": "major", "build": "increment", "version": "4.0.0"})


def generated_plist():
    """GENERATE_INFOPLIST_FILE with the version in project build settings, a watch app and its extension
    embedded by the iOS app, and a test bundle with its own version that a bump leaves alone."""
    folder = os.path.join(ROOT, "generated-plist")
    files = {"Modern/ContentView.swift": "import SwiftUI\n", "ModernWatch/ContentView.swift": "import SwiftUI\n",
             "ModernTests/ModernTests.swift": "import XCTest\n"}
    gen = {"GENERATE_INFOPLIST_FILE": "YES", "INFOPLIST_KEY_UILaunchScreen_Generation": "YES"}
    targets = [
        {"name": "Modern", "type": APP, "embeds": [("watch", ["ModernWatch"])], "depends": ["ModernWatch"],
         "settings": {c: app_settings(dict(gen, INFOPLIST_KEY_CFBundleDisplayName="Modern"), "com.example.modern") for c in ("Debug", "Release")}},
        {"name": "ModernWatch", "type": WATCH,
         "settings": {c: app_settings(dict(gen, INFOPLIST_KEY_WKCompanionAppBundleIdentifier="com.example.modern", SDKROOT="watchos"),
                                      "com.example.modern.watchkitapp") for c in ("Debug", "Release")}},
        {"name": "ModernTests", "type": TEST, "depends": ["Modern"],
         "settings": {c: {"BUNDLE_LOADER": "$(TEST_HOST)", "CURRENT_PROJECT_VERSION": "1", "GENERATE_INFOPLIST_FILE": "YES",
                          "MARKETING_VERSION": "1.0", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.modern.tests", "PRODUCT_NAME": "$(TARGET_NAME)",
                          "TEST_HOST": "$(BUILT_PRODUCTS_DIR)/Modern.app/Modern"} for c in ("Debug", "Release")}},
    ]
    settings = {c: dict(COMMON_PROJECT[c], MARKETING_VERSION="2.4", CURRENT_PROJECT_VERSION="87") for c in ("Debug", "Release")}
    files["Modern.xcodeproj/project.pbxproj"] = project("Modern", sorted(files), targets, settings)
    write(folder, files)
    expect(folder, files, {"Modern.xcodeproj/project.pbxproj": [
        ("\t\t\t\tMARKETING_VERSION = 2.4;\n", "\t\t\t\tMARKETING_VERSION = 2.4.1;\n", 2),
        ("\t\t\t\tCURRENT_PROJECT_VERSION = 87;\n", "\t\t\t\tCURRENT_PROJECT_VERSION = 88;\n", 2)]},
        {"choice": "patch", "build": "increment", "version": "2.4.1"})


def binary_plist():
    """A binary Info.plist with literal values, and an extension whose XML plist refers to build settings."""
    folder = os.path.join(ROOT, "binary-plist")
    files = {"Binary/Info.plist": info_plist({"CFBundleShortVersionString": "3.0.0", "CFBundleVersion": "4146"}, binary=True),
             "Binary/AppDelegate.swift": "import UIKit\n",
             "Widget/Info.plist": extension_plist({"CFBundleShortVersionString": "$(MARKETING_VERSION)", "CFBundleVersion": "$(CURRENT_PROJECT_VERSION)"},
                                                  "com.apple.widgetkit-extension").decode()}
    targets = [
        {"name": "Binary", "type": APP, "embeds": [("extensions", ["Widget"])], "depends": ["Widget"],
         "settings": {c: app_settings({}, "com.example.binary", "Binary/Info.plist") for c in ("Debug", "Release")}},
        {"name": "Widget", "type": APPEX,
         "settings": {c: {"CURRENT_PROJECT_VERSION": "4146", "INFOPLIST_FILE": "Widget/Info.plist", "MARKETING_VERSION": "3.0.0",
                          "PRODUCT_BUNDLE_IDENTIFIER": "com.example.binary.widget", "PRODUCT_NAME": "$(TARGET_NAME)"} for c in ("Debug", "Release")}},
    ]
    files["Binary.xcodeproj/project.pbxproj"] = project("Binary", sorted(f for f in files if not f.endswith(".pbxproj")), targets, COMMON_PROJECT)
    write(folder, files)
    after_plist = info_plist({"CFBundleShortVersionString": "3.0.1", "CFBundleVersion": "4321"}, binary=True)
    expect(folder, files, {"Binary.xcodeproj/project.pbxproj": [
        ("\t\t\t\tMARKETING_VERSION = 3.0.0;\n", "\t\t\t\tMARKETING_VERSION = 3.0.1;\n", 2),
        ("\t\t\t\tCURRENT_PROJECT_VERSION = 4146;\n", "\t\t\t\tCURRENT_PROJECT_VERSION = 4321;\n", 2)]},
        {"choice": "patch", "build": "4321", "version": "3.0.1"})
    os.makedirs(os.path.join(folder, "expected/after/Binary"), exist_ok=True)
    with open(os.path.join(folder, "expected/after/Binary/Info.plist"), "wb") as f:
        f.write(after_plist)


def configurations_disagree():
    """Three configurations whose versions disagree (Debug lags behind), CRLF line endings in the project."""
    folder = os.path.join(ROOT, "configurations-disagree")
    files = {"Disagree/Info.plist": info_plist({"CFBundleShortVersionString": "$(MARKETING_VERSION)", "CFBundleVersion": "$(CURRENT_PROJECT_VERSION)"}).decode(),
             "Disagree/AppDelegate.swift": "import UIKit\n"}
    per = {"Debug": ("2.9.0", "1"), "Release": ("3.0.0", "4146"), "AdHoc": ("3.0.0", "4145")}
    targets = [{"name": "Disagree", "type": APP,
                "settings": {c: app_settings({"MARKETING_VERSION": v, "CURRENT_PROJECT_VERSION": b}, "com.example.disagree", "Disagree/Info.plist")
                             for c, (v, b) in per.items()}}]
    proj = dict(COMMON_PROJECT, AdHoc=COMMON_PROJECT["Release"])
    files["Disagree.xcodeproj/project.pbxproj"] = project("Disagree", sorted(f for f in files if not f.endswith(".pbxproj")), targets, proj,
                                                         configs=("Debug", "Release", "AdHoc"), line_ending="\r\n")
    write(folder, files)
    expect(folder, files, {"Disagree.xcodeproj/project.pbxproj": [
        ("\t\t\t\tMARKETING_VERSION = 2.9.0;\r\n", "\t\t\t\tMARKETING_VERSION = 3.0.1;\r\n", 1),
        ("\t\t\t\tMARKETING_VERSION = 3.0.0;\r\n", "\t\t\t\tMARKETING_VERSION = 3.0.1;\r\n", 2),
        ("\t\t\t\tCURRENT_PROJECT_VERSION = 1;\r\n", "\t\t\t\tCURRENT_PROJECT_VERSION = 4147;\r\n", 1),
        ("\t\t\t\tCURRENT_PROJECT_VERSION = 4146;\r\n", "\t\t\t\tCURRENT_PROJECT_VERSION = 4147;\r\n", 1),
        ("\t\t\t\tCURRENT_PROJECT_VERSION = 4145;\r\n", "\t\t\t\tCURRENT_PROJECT_VERSION = 4147;\r\n", 1)]},
        {"choice": "patch", "build": "increment", "version": "3.0.1"})


def many_places():
    """An app, two extensions, a watch app and its extension, each defining the version in both
    configurations: ten MARKETING_VERSION lines (prerelease 7.1.3b5) and ten CURRENT_PROJECT_VERSION lines."""
    folder = os.path.join(ROOT, "many-places")
    ref = info_plist({"CFBundleShortVersionString": "$(MARKETING_VERSION)", "CFBundleVersion": "$(CURRENT_PROJECT_VERSION)"}).decode()
    names = [("Many", APP), ("ManyShare", APPEX), ("ManyWidget", APPEX), ("ManyWatch", WATCH), ("ManyWatchExtension", WATCHEXT)]
    files = {}
    for n, _ in names:
        files[f"{n}/Info.plist"] = ref
    targets = []
    for n, kind in names:
        t = {"name": n, "type": kind,
             "settings": {c: app_settings({"MARKETING_VERSION": "7.1.3b5", "CURRENT_PROJECT_VERSION": "812"}, "com.example.many." + n.lower(), f"{n}/Info.plist")
                          for c in ("Debug", "Release")}}
        targets.append(t)
    targets[0]["embeds"] = [("extensions", ["ManyShare", "ManyWidget"]), ("watch", ["ManyWatch"])]
    targets[0]["depends"] = ["ManyShare", "ManyWidget", "ManyWatch"]
    targets[3]["embeds"] = [("extensions", ["ManyWatchExtension"])]
    targets[3]["depends"] = ["ManyWatchExtension"]
    files["Many.xcodeproj/project.pbxproj"] = project("Many", sorted(files), targets, COMMON_PROJECT)
    write(folder, files)
    expect(folder, files, {"Many.xcodeproj/project.pbxproj": [
        ("\t\t\t\tMARKETING_VERSION = 7.1.3b5;\n", "\t\t\t\tMARKETING_VERSION = 7.1.3;\n", 10),
        ("\t\t\t\tCURRENT_PROJECT_VERSION = 812;\n", "\t\t\t\tCURRENT_PROJECT_VERSION = 900;\n", 10)]},
        {"choice": "patch", "build": "900", "version": "7.1.3"})


def real_world_traps():
    """What real projects do that the other fixtures do not: a git-ignored CocoaPods base configuration and a
    required #include that the repository does not hold (warnings, not errors); MARKETING_VERSION =
    "$(MARKETING_VERSION)" at target level (XcodeGen's way of saying inherited); ${VAR} through custom
    variables; a configuration name with a space; an Info.plist run through the C preprocessor (#ifdef); two
    test bundles sharing one plist at Xcode's template 1.0 (1); a framework with INFOPLIST_FILE = ""; a
    login-item helper app at 1.0 that the app embeds but that keeps its own numbering; a calendar version with a
    zero-padded month and a four-group build."""
    folder = os.path.join(ROOT, "real-world-traps")
    configs = ("Debug", "Alpha Debug", "Release")
    app_plist = info_plist({"CFBundleShortVersionString": "$(MARKETING_VERSION)", "CFBundleVersion": "$(CURRENT_PROJECT_VERSION)"}).decode()
    # The preprocessor directives Xcode runs over the plist (INFOPLIST_PREPROCESS = YES).
    app_plist = app_plist.replace("\t<key>CFBundleName</key>", "#ifdef ALPHA\n\t<key>CFBundleDisplayName</key>\n\t<string>Traps α</string>\n#endif\n\t<key>CFBundleName</key>")
    files = {
        "Config/Base.xcconfig": "// Secrets.xcconfig is git-ignored; every developer makes their own.\n#include \"Secrets.xcconfig\"\n#include \"Version.xcconfig\"\n\nSWIFT_VERSION = 5.0\n",
        "Config/Version.xcconfig": "APP_SHORT_VERSION = 26.07.4\nAPP_BUILD = 7.75.0.3\n",
        "Traps/Info.plist": app_plist,
        "Traps/AppDelegate.swift": "import UIKit\n",
        "TrapsWidget/Info.plist": extension_plist({"CFBundleShortVersionString": "$(MARKETING_VERSION)", "CFBundleVersion": "$(CURRENT_PROJECT_VERSION)"},
                                                  "com.apple.widgetkit-extension").decode(),
        "Tests/Info.plist": info_plist({"CFBundleShortVersionString": "1.0", "CFBundleVersion": "1"}).decode(),
        "TrapsKit/TrapsKit.swift": "public enum TrapsKit {}\n",
        "TrapsHelper/main.swift": "import AppKit\n",
    }
    pods = {c: f"Pods/Target Support Files/Pods-Traps/Pods-Traps.{c.lower().replace(' ', '')}.xcconfig" for c in configs}
    app = {c: app_settings({"MARKETING_VERSION": Q("$(MARKETING_VERSION)"), "INFOPLIST_PREPROCESS": "YES"}, "com.example.traps", "Traps/Info.plist")
           for c in configs}
    app["Alpha Debug"]["INFOPLIST_PREPROCESSOR_DEFINITIONS"] = "ALPHA"
    targets = [
        {"name": "Traps", "type": APP, "xcconfig": pods, "depends": ["TrapsWidget"],
         "embeds": [("extensions", ["TrapsWidget"]), ("frameworks", ["TrapsKit"]), ("loginitems", ["TrapsHelper"])], "settings": app},
        {"name": "TrapsWidget", "type": APPEX,
         "settings": {c: {"INFOPLIST_FILE": "TrapsWidget/Info.plist", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.traps.widget",
                          "PRODUCT_NAME": "$(TARGET_NAME)", "SKIP_INSTALL": "YES"} for c in configs}},
        {"name": "TrapsKit", "type": "com.apple.product-type.framework",
         "settings": {c: {"GENERATE_INFOPLIST_FILE": "YES", "INFOPLIST_FILE": Q(""), "PRODUCT_BUNDLE_IDENTIFIER": "com.example.traps.kit",
                          "PRODUCT_NAME": "$(TARGET_NAME)"} for c in configs}},
        {"name": "TrapsHelper", "type": APP,
         "settings": {c: {"CURRENT_PROJECT_VERSION": "1", "GENERATE_INFOPLIST_FILE": "YES", "MARKETING_VERSION": "1.0",
                          "PRODUCT_BUNDLE_IDENTIFIER": "com.example.traps.helper", "PRODUCT_NAME": "$(TARGET_NAME)", "SDKROOT": "macosx"} for c in configs}},
        {"name": "TrapsTests", "type": TEST,
         "settings": {c: {"INFOPLIST_FILE": "Tests/Info.plist", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.traps.tests", "PRODUCT_NAME": "$(TARGET_NAME)"}
                      for c in configs}},
        {"name": "TrapsUITests", "type": "com.apple.product-type.bundle.ui-testing",
         "settings": {c: {"INFOPLIST_FILE": "Tests/Info.plist", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.traps.uitests", "PRODUCT_NAME": "$(TARGET_NAME)"}
                      for c in configs}},
    ]
    settings = {c: dict(COMMON_PROJECT["Release" if c == "Release" else "Debug"], MARKETING_VERSION=Q("${APP_SHORT_VERSION}"),
                        CURRENT_PROJECT_VERSION=Q("$(APP_BUILD)")) for c in configs}
    sources = sorted(f for f in files if not f.endswith(".pbxproj"))
    files["Traps.xcodeproj/project.pbxproj"] = project("Traps", sources, targets, settings, configs=configs,
                                                      project_xcconfig={c: "Config/Base.xcconfig" for c in configs}, missing=sorted(pods.values()))
    write(folder, files)
    expect(folder, files, {"Config/Version.xcconfig": [("APP_SHORT_VERSION = 26.07.4\n", "APP_SHORT_VERSION = 26.07.5\n", 1),
                                                       ("APP_BUILD = 7.75.0.3\n", "APP_BUILD = 7.75.0.4\n", 1)]},
           {"choice": "patch", "build": "increment", "version": "26.07.5"})


def xcodegen():
    """An XcodeGen spec without a generated project: targets in an included file, settings at project level,
    configs matched by part of the configuration name, a target template, configFiles, info.properties with a
    literal single-quoted version for the widget; a bump edits the YAML in place."""
    folder = os.path.join(ROOT, "xcodegen")
    files = {
        "project.yml": (
            "name: Gen\n"
            "include:\n"
            "  - targets.yml\n"
            "configs:\n"
            "  Debug: debug\n"
            "  Beta Release: release\n"
            "  Release: release\n"
            "settings:\n"
            "  base:\n"
            "    MARKETING_VERSION: 26.07.4   # the release manager's line\n"
            "    CURRENT_PROJECT_VERSION: 41\n"
            "  configs:\n"
            "    release:\n"
            "      SWIFT_OPTIMIZATION_LEVEL: -O\n"
        ),
        "targets.yml": (
            "targetTemplates:\n"
            "  Extension:\n"
            "    type: app-extension\n"
            "    platform: iOS\n"
            "    settings:\n"
            "      SKIP_INSTALL: YES\n"
            "targets:\n"
            "  Gen:\n"
            "    type: application\n"
            "    platform: iOS\n"
            "    configFiles:\n"
            "      Debug: Config/App.xcconfig\n"
            "      Beta Release: Config/App.xcconfig\n"
            "      Release: Config/App.xcconfig\n"
            "    info:\n"
            "      path: App/Info.plist\n"
            "      properties:\n"
            "        CFBundleShortVersionString: $(MARKETING_VERSION)\n"
            "        CFBundleVersion: \"$(CURRENT_PROJECT_VERSION)\"\n"
            "    dependencies:\n"
            "      - target: GenWidget\n"
            "  GenWidget:\n"
            "    templates: [Extension]\n"
            "    info:\n"
            "      path: Widget/Info.plist\n"
            "      properties:\n"
            "        CFBundleShortVersionString: '26.07.4'\n"
            "        CFBundleVersion: $(CURRENT_PROJECT_VERSION)\n"
            "  GenTests:\n"
            "    type: bundle.unit-test\n"
            "    platform: iOS\n"
            "    settings:\n"
            "      MARKETING_VERSION: \"1.0\"\n"
            "      CURRENT_PROJECT_VERSION: 1\n"
        ),
        "Config/App.xcconfig": "PRODUCT_BUNDLE_IDENTIFIER = com.example.gen\n",
    }
    write(folder, files)
    expect(folder, files, {"project.yml": [("MARKETING_VERSION: 26.07.4   #", "MARKETING_VERSION: 26.08.0   #", 1),
                                           ("CURRENT_PROJECT_VERSION: 41\n", "CURRENT_PROJECT_VERSION: 42\n", 1)],
                           "targets.yml": [("CFBundleShortVersionString: '26.07.4'\n", "CFBundleShortVersionString: '26.08.0'\n", 1)]},
           {"choice": "minor", "build": "increment", "version": "26.08.0"})


def version_file():
    """A plain VERSION file with a build number after '+'."""
    folder = os.path.join(ROOT, "version-file")
    files = {"VERSION": "3.0.0+4146\n"}
    write(folder, files)
    expect(folder, files, {"VERSION": [("3.0.0+4146\n", "3.0.1+4147\n", 1)]}, {"choice": "patch", "build": "increment", "version": "3.0.1"})


if __name__ == "__main__":
    for make in (literal_plist, pbxproj_per_target, xcconfig_chain, generated_plist, binary_plist, configurations_disagree,
                 many_places, version_file, real_world_traps, xcodegen):
        make()
    print("fixtures written to", ROOT)

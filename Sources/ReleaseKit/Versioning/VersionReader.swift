import Foundation
import ReleaseSupport

/// Reads what version a project is at, the way Xcode resolves it.
///
/// For every native target and build configuration: the settings are layered (target settings, target
/// `.xcconfig`, project settings, project `.xcconfig`, defaults); the Info.plist named by `INFOPLIST_FILE` is
/// read (XML or binary, preprocessed when `INFOPLIST_PREPROCESS = YES`) and its
/// `CFBundleShortVersionString`/`CFBundleVersion` expanded through the settings; with
/// `GENERATE_INFOPLIST_FILE = YES` and no such key in a file, `INFOPLIST_KEY_CFBundleShortVersionString` or else
/// `MARKETING_VERSION` (and `CURRENT_PROJECT_VERSION`) is used, as Xcode does. A target with neither falls back
/// to the build settings, as `agvtool` does.
///
/// Files the project refers to but the repository does not hold (a git-ignored secrets or CocoaPods
/// `.xcconfig`, an `#include` of one, an Info.plist) do not stop the read: Xcode warns and builds, and so the
/// report carries a warning naming the file and the values it could change. Which targets a bump moves is
/// decided later, by ``BumpScope``.
package enum VersionReader {
    /// Reads the project at `project`, or the version file at `file`, or whatever `directory` holds: a single
    /// `.xcodeproj` (with its XcodeGen spec when one is beside it), an XcodeGen `project.yml`/`project.json`, a
    /// `VERSION` file, or a single `.xcodeproj` in a subfolder.
    ///
    /// A version or build number that is not one (``ProjectVersions/isVersionText(_:)``: a quote, `;`, `$`, a space)
    /// is refused here, naming its file and line, before it reaches a step's outputs, a branch name, a tag or a script.
    /// - Throws: ``VersioningError``.
    package static func read(project: String? = nil, file: String? = nil, in directory: String) throws -> ProjectVersions {
        try readProject(project: project, file: file, in: directory).validated()
    }

    private static func readProject(project: String?, file: String?, in directory: String) throws -> ProjectVersions {
        func absolute(_ path: String) -> String {
            let expanded = (path as NSString).expandingTildeInPath
            return FilePath.absolute(expanded, in: directory)
        }
        if let file {
            return try readVersionFile(absolute(file))
        }
        let folder = absolute(project ?? ".")
        var isDirectory: ObjCBool = false
        if let project, FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), !isDirectory.boolValue,
            !project.hasSuffix(".pbxproj")
        {
            if XcodeGenSpec.isSpec(folder) { return try readXcodeGen(folder) }
            return try readVersionFile(folder)
        }
        if let xcodeproj = try XcodeProject.locate(in: folder) {
            return try readXcode(try XcodeProject(contentsOf: xcodeproj), xcodegenSpec: XcodeGenSpec.locate(beside: xcodeproj))
        }
        if let spec = XcodeGenSpec.locate(in: folder) {
            return try readXcodeGen(spec)
        }
        let versionFile = folder + "/VERSION"
        if FileManager.default.fileExists(atPath: versionFile) {
            return try readVersionFile(versionFile)
        }
        if let xcodeproj = try XcodeProject.locateBelow(folder) {
            return try readXcode(try XcodeProject(contentsOf: xcodeproj), xcodegenSpec: XcodeGenSpec.locate(beside: xcodeproj))
        }
        throw VersioningError.noProject(directory: folder)
    }

    /// Reads a plain version file.
    package static func readVersionFile(_ path: String) throws -> ProjectVersions {
        let file = try VersionFile(contentsOf: path)
        let base = FilePath.parent(of: path)
        let name = (path as NSString).lastPathComponent
        let entry = VersionEntry(
            target: name, configuration: nil, productType: nil, host: nil, bundleIdentifier: nil, infoPlist: nil,
            version: file.version,
            versionDefinedAt: DefinitionLocation(file: name, line: file.versionSite.line, key: "version"),
            build: file.build,
            buildDefinedAt: file.buildSite.map { DefinitionLocation(file: name, line: $0.line, key: "build") }
        )
        let report = VersionReport(
            kind: .file, project: name, primaryTarget: nil, primaryConfiguration: nil, version: file.version,
            build: file.build, entries: [entry]
        )
        let tracked = ProjectVersions.Tracked(
            entry: entry, versionOrigin: ValueOrigin(site: file.versionSite, editable: true),
            buildOrigin: file.buildSite.map { ValueOrigin(site: $0, editable: true) }
        )
        return ProjectVersions(report: report, tracked: [tracked], baseDirectory: base)
    }

    /// Reads an XcodeGen spec on its own (no generated `.xcodeproj` beside it).
    package static func readXcodeGen(_ path: String) throws -> ProjectVersions {
        try readXcode(try XcodeGenSpec(contentsOf: path).project(), kind: .xcodegen)
    }

    /// Reads every target × configuration of a loaded Xcode project; `xcodegenSpec` is the spec it is generated
    /// from, whose values are compared with the project's.
    package static func readXcode(_ project: XcodeProject, xcodegenSpec: String? = nil, kind: VersionReport.Kind = .xcode) throws -> ProjectVersions {
        var reading = Reading(project: project)
        return try reading.read(xcodegenSpec: xcodegenSpec, kind: kind)
    }

    /// One read of one project: the caches and what missing files affect.
    private struct Reading {
        /// What a missing file leaves uncertain: one value of one target in one configuration.
        struct Effect: Equatable {
            var target: String
            var configuration: String
            var value: String
            var unknown: Bool
        }

        let project: XcodeProject
        let base: String
        var xcconfigs: [String: BuildSettings.Layer] = [:]
        var plists: [String: InfoPlistFile] = [:]
        var missing: [MissingFile] = []
        /// Notes from the xcconfig chains read (an include found under another letter case), each once.
        var notes: [String] = []
        var effects: [MissingFile: [Effect]] = [:]

        init(project: XcodeProject) {
            self.project = project
            self.base = FilePath.parent(of: project.path)
        }

        func relative(_ path: String) -> String {
            ProjectVersions.relative(path, to: base)
        }

        func location(_ origin: ValueOrigin?) -> DefinitionLocation? {
            origin.map { DefinitionLocation(file: relative($0.site.path), line: $0.site.line, key: $0.site.key) }
        }

        /// Records `file` and returns the first record of the same file referred to the same way, so a file named
        /// by several configurations gets one warning.
        @discardableResult
        mutating func note(_ file: MissingFile) -> MissingFile {
            if let first = missing.first(where: { $0.path == file.path && $0.reference == file.reference }) { return first }
            missing.append(file)
            return file
        }

        /// The layer of a base configuration: the file's assignments, or a hole where a missing file would be.
        mutating func layer(_ configuration: XcodeBuildConfiguration?) throws -> BuildSettings.Layer {
            guard let configuration, let path = configuration.baseConfigurationPath else { return BuildSettings.Layer(definitions: []) }
            if let cached = xcconfigs[path] { return cached }
            let layer: BuildSettings.Layer
            if FileManager.default.fileExists(atPath: path) {
                layer = try XCConfigFile(contentsOf: path).layer
            } else {
                let referencedAt = configuration.baseConfigurationReference ?? project.projectFile
                let file = MissingFile(path: path, reference: .baseConfiguration, referencedAt: referencedAt)
                layer = BuildSettings.Layer(definitions: [], holes: [.init(file: file, after: 0)])
            }
            for hole in layer.holes { note(hole.file) }
            for line in layer.notes where !notes.contains(line) { notes.append(line) }
            xcconfigs[path] = layer
            return layer
        }

        mutating func infoPlist(_ path: String, definitions: [String]?) throws -> InfoPlistFile {
            let key = path + "\u{0}" + (definitions?.joined(separator: " ") ?? "-")
            if let cached = plists[key] { return cached }
            let plist = try InfoPlistFile(contentsOf: path, preprocessorDefinitions: definitions)
            plists[key] = plist
            return plist
        }

        mutating func read(xcodegenSpec: String?, kind: VersionReport.Kind) throws -> ProjectVersions {
            for file in project.missingFiles { note(file) }
            var tracked: [ProjectVersions.Tracked] = []
            for target in project.targets {
                // Only what must carry its app's version is reported "in" the app; an embedded framework or
                // login-item helper keeps its own numbering.
                let host = target.mustMatchHost ? project.topHost(of: target) : nil
                for configuration in target.configurations {
                    let projectConfiguration = project.configurations.first { $0.name == configuration.name }
                    let settings = BuildSettings(
                        layers: [
                            BuildSettings.Layer(definitions: configuration.settings),
                            try layer(configuration),
                            BuildSettings.Layer(definitions: projectConfiguration?.settings ?? []),
                            try layer(projectConfiguration),
                        ],
                        defaults: VersionReader.defaults(project: project, target: target, configuration: configuration.name)
                    )
                    var infoPlist: InfoPlistFile? = project.generatedInfoPlists[target.name]
                    var infoPlistName: String? = infoPlist.map { relative($0.path) }
                    var missingPlist: MissingFile?
                    if infoPlist == nil, let plistSetting = try settings.value(of: "INFOPLIST_FILE"), !plistSetting.isEmpty {
                        let path = FilePath.absolute(plistSetting, in: project.sourceRoot)
                        infoPlistName = relative(path)
                        if FileManager.default.fileExists(atPath: path) {
                            let preprocess = try settings.value(of: "INFOPLIST_PREPROCESS")?.uppercased() == "YES"
                            let definitions = try settings.value(of: "INFOPLIST_PREPROCESSOR_DEFINITIONS")?
                                .split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
                            infoPlist = try self.infoPlist(path, definitions: preprocess ? (definitions ?? []) : nil)
                        } else {
                            let definedAt = settings.definition(of: "INFOPLIST_FILE")?.site.location ?? project.projectFile
                            missingPlist = note(MissingFile(path: path, reference: .infoPlist, referencedAt: definedAt))
                        }
                    }
                    let generated = try settings.value(of: "GENERATE_INFOPLIST_FILE")?.uppercased() == "YES"
                    if infoPlist == nil, missingPlist == nil, generated { infoPlistName = "generated" }

                    func resolve(_ plistKey: String, setting: String) throws -> (BuildSettings.Resolution, ValueOrigin?, ProjectVersions.Tracked.Mirror?) {
                        if let (raw, site) = infoPlist?.entry(plistKey) {
                            let resolution = try settings.resolveText(
                                raw,
                                at: site
                                    ?? ValueSite(
                                        path: infoPlist?.path ?? "", line: nil, key: plistKey, format: .binaryPlist, range: nil, quoted: false, rawValue: raw))
                            var mirror: ProjectVersions.Tracked.Mirror?
                            if site != nil, !raw.contains("$"), let origin = settings.origin(of: setting), origin.editable {
                                mirror = .init(origin: origin, value: try settings.value(of: setting))
                            }
                            if let site { return (resolution, settings.origin(ofText: raw, at: site), mirror) }
                            if let name = BuildSettings.singleReference(raw), let origin = settings.origin(of: name) {
                                return (resolution, origin, nil)
                            }
                            let unlocated = ValueSite(
                                path: infoPlist?.path ?? "", line: nil, key: plistKey, format: .xmlPlist, range: nil, quoted: false, rawValue: raw
                            )
                            return (resolution, ValueOrigin(site: unlocated, editable: false), nil)
                        }
                        let infoKey = "INFOPLIST_KEY_\(plistKey)"
                        if generated, settings.isDefined(infoKey) {
                            return (try settings.resolve(infoKey), settings.origin(of: infoKey), nil)
                        }
                        return (try settings.resolve(setting), settings.origin(of: setting), nil)
                    }
                    let (version, versionOrigin, versionMirror) = try resolve("CFBundleShortVersionString", setting: "MARKETING_VERSION")
                    let (build, buildOrigin, buildMirror) = try resolve("CFBundleVersion", setting: "CURRENT_PROJECT_VERSION")
                    for (name, resolution) in [("version", version), ("build", build)] {
                        var files = resolution.uncertainBecause
                        if let missingPlist { files.insert(missingPlist, at: 0) }
                        for file in files {
                            effects[note(file), default: []].append(
                                Effect(
                                    target: target.name, configuration: configuration.name, value: name,
                                    unknown: (resolution.value ?? "").isEmpty
                                ))
                        }
                    }
                    let bundleIdentifier =
                        try infoPlist?.entry("CFBundleIdentifier").map { try settings.expand($0.value, at: $0.site) }
                        ?? settings.value(of: "PRODUCT_BUNDLE_IDENTIFIER")
                    let entry = VersionEntry(
                        target: target.name, configuration: configuration.name, productType: target.productType,
                        host: host?.name, bundleIdentifier: bundleIdentifier.flatMap { $0.isEmpty ? nil : $0 },
                        infoPlist: infoPlistName,
                        version: version.value.flatMap { $0.isEmpty ? nil : $0 }, versionDefinedAt: location(versionOrigin),
                        build: build.value.flatMap { $0.isEmpty ? nil : $0 }, buildDefinedAt: location(buildOrigin)
                    )
                    var row = ProjectVersions.Tracked(
                        entry: entry, versionOrigin: versionOrigin, buildOrigin: buildOrigin,
                        mustMatchHost: host != nil,
                        versionMirror: versionMirror, buildMirror: buildMirror
                    )
                    // For `release init`: the platform to archive for and the team to sign with. A value that cannot
                    // be resolved (an absent xcconfig) is left unknown rather than failing the read.
                    row.sdk = (try? settings.value(of: "SDKROOT")).flatMap { $0.isEmpty ? nil : $0 }
                    row.developmentTeam = (try? settings.value(of: "DEVELOPMENT_TEAM")).flatMap { $0.isEmpty ? nil : $0 }
                    let deviceSDK = row.sdk ?? ApplePlatform.iOS.sdk
                    func signingValue(_ key: String) -> String? { settings.value(of: key, sdk: deviceSDK).flatMap { $0.isEmpty ? nil : $0 } }
                    row.signing = SigningSettings(
                        style: signingValue("CODE_SIGN_STYLE"), identity: signingValue("CODE_SIGN_IDENTITY"),
                        profileSpecifier: signingValue("PROVISIONING_PROFILE_SPECIFIER") ?? signingValue("PROVISIONING_PROFILE"),
                        styleDefinedAt: settings.definition(of: "CODE_SIGN_STYLE").map { "\($0.site.location)" })
                    tracked.append(row)
                }
            }

            let primary = project.targets.first { $0.isApplication && $0.hostID == nil } ?? project.targets.first
            let primaryConfiguration = primary.flatMap { target -> String? in
                let names = target.configurations.map(\.name)
                if let name = target.defaultConfigurationName, names.contains(name) { return name }
                if let name = project.defaultConfigurationName, names.contains(name) { return name }
                return names.contains("Release") ? "Release" : names.last
            }
            let primaryEntry = tracked.first { $0.entry.target == primary?.name && $0.entry.configuration == primaryConfiguration }?.entry
            // The spec beside a generated project: a bump edits both, and they had better agree already.
            var specWarnings: [String] = []
            var xcodegen: XcodeProject?
            if let xcodegenSpec {
                let spec = try XcodeGenSpec(contentsOf: xcodegenSpec).project()
                xcodegen = spec
                var keys: Set<String> = ["MARKETING_VERSION", "CURRENT_PROJECT_VERSION"]
                for item in tracked {
                    for origin in [item.versionOrigin, item.buildOrigin].compactMap({ $0 }) where origin.site.format == .pbxproj {
                        keys.insert(origin.site.key)
                    }
                }
                for file in spec.missingFiles { note(file) }
                specWarnings = spec.notes + XcodeGenSync.disagreements(project: project, spec: spec, keys: keys)
            }
            let report = VersionReport(
                kind: kind, project: relative(project.path), primaryTarget: primary?.name,
                primaryConfiguration: primaryConfiguration, version: primaryEntry?.version, build: primaryEntry?.build,
                entries: tracked.map(\.entry), xcodegenSpec: xcodegenSpec.map(relative),
                warnings: warnings().map(\.line) + project.notes.map(relativeLocation) + notes.map(relativeLocation) + specWarnings.map(relativeLocation)
            )
            var versions = ProjectVersions(report: report, tracked: tracked, baseDirectory: base, project: project, xcodegen: xcodegen)
            for (line, file) in warnings() { versions.missingFiles[line] = file }
            return versions
        }

        /// `path:line` (or a sentence starting with one) with the path made relative to the project folder.
        func relativeLocation(_ text: String) -> String {
            guard text.hasPrefix("/") else { return text }
            let prefix = base.hasSuffix("/") ? base : base + "/"
            return text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : text
        }

        /// One line per missing file: where it is referred to, and which values it leaves uncertain.
        func warnings() -> [(line: String, file: String)] {
            var lines: [(line: String, file: String)] = []
            for file in missing {
                let effects = self.effects[file] ?? []
                // Xcode says nothing about an optional include; neither do we, unless a version could depend on it.
                if file.reference == .optionalInclude, effects.isEmpty { continue }
                var line = "\(relativeLocation(file.referencedAt)): \(file.reference.rawValue) '\(relative(file.path))' does not exist"
                if file.reference == .xcodegen {
                    line += "; targets and settings it declares are not read"
                } else if effects.isEmpty {
                    line += "; no version or build depends on it"
                } else {
                    line += "; " + describe(effects)
                }
                lines.append((line, file.path))
            }
            return lines
        }

        /// `the version and build of 'podcasts' (Debug, Release) may differ; the build of 'X' (Debug) is unknown`.
        func describe(_ effects: [Effect]) -> String {
            // Per target and configuration: which values, and whether any is unknown.
            var order: [String] = []
            var byTarget: [String: [(configuration: String, values: [String], unknown: Bool)]] = [:]
            for effect in effects {
                if byTarget[effect.target] == nil { order.append(effect.target) }
                var rows = byTarget[effect.target, default: []]
                if let index = rows.firstIndex(where: { $0.configuration == effect.configuration }) {
                    if !rows[index].values.contains(effect.value) { rows[index].values.append(effect.value) }
                    rows[index].unknown = rows[index].unknown || effect.unknown
                } else {
                    rows.append((effect.configuration, [effect.value], effect.unknown))
                }
                byTarget[effect.target] = rows
            }
            // Many targets: one count, so the line stays one line worth reading.
            if order.count > VersionReader.targetsListedInWarnings {
                let values = ["version", "build"].filter { value in effects.contains { $0.value == value } }.joined(separator: " and ")
                let unknown = effects.allSatisfy(\.unknown)
                var configurations: [String] = []
                for effect in effects where !configurations.contains(effect.configuration) { configurations.append(effect.configuration) }
                let named = order.prefix(VersionReader.targetsListedInWarnings).map { "'\($0)'" }.joined(separator: ", ")
                return
                    "the \(values) of \(order.count) targets \(unknown ? "are unknown" : "may differ from what is shown"): \(named) and \(order.count - VersionReader.targetsListedInWarnings) more (\(configurations.joined(separator: ", ")))"
            }
            var parts: [String] = []
            for target in order {
                var groups: [(values: [String], unknown: Bool, configurations: [String])] = []
                for row in byTarget[target] ?? [] {
                    if let index = groups.firstIndex(where: { $0.values == row.values && $0.unknown == row.unknown }) {
                        groups[index].configurations.append(row.configuration)
                    } else {
                        groups.append((row.values, row.unknown, [row.configuration]))
                    }
                }
                for group in groups {
                    let values = group.values.joined(separator: " and ")
                    let verb =
                        group.unknown
                        ? (group.values.count > 1 ? "are unknown" : "is unknown")
                        : "may differ from what is shown"
                    parts.append("the \(values) of '\(target)' (\(group.configurations.joined(separator: ", "))) \(verb)")
                }
            }
            return parts.joined(separator: "; ")
        }
    }

    /// How many targets a missing-file warning names before it counts them instead.
    static let targetsListedInWarnings = 2

    /// Settings Xcode defines for every target, enough to expand the paths and identifiers projects use.
    static func defaults(project: XcodeProject, target: XcodeTarget, configuration: String) -> [String: String] {
        [
            "SRCROOT": project.sourceRoot,
            "SOURCE_ROOT": project.sourceRoot,
            "PROJECT_DIR": project.sourceRoot,
            "PROJECT_FILE_PATH": project.path,
            "PROJECT_NAME": project.name,
            "TARGET_NAME": target.name,
            "TARGETNAME": target.name,
            "PRODUCT_NAME": "$(TARGET_NAME)",
            "PRODUCT_MODULE_NAME": "$(PRODUCT_NAME:c99extidentifier)",
            "CONFIGURATION": configuration,
            "PLATFORM_NAME": ApplePlatform.iOS.sdk,
            "EFFECTIVE_PLATFORM_NAME": "-" + ApplePlatform.iOS.sdk,
            "DEVELOPMENT_LANGUAGE": "en",
        ]
    }
}

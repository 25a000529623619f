import Foundation

/// Reads what version a project is at, the way Xcode resolves it.
///
/// For every native target and build configuration: the settings are layered (target settings, target
/// `.xcconfig`, project settings, project `.xcconfig`, defaults); the Info.plist named by `INFOPLIST_FILE` is
/// read (XML or binary) and its `CFBundleShortVersionString`/`CFBundleVersion` expanded through the settings;
/// with `GENERATE_INFOPLIST_FILE = YES` and no such key in a file, `INFOPLIST_KEY_CFBundleShortVersionString`
/// or else `MARKETING_VERSION` (and `CURRENT_PROJECT_VERSION`) is used, as Xcode does. A target with neither
/// falls back to the build settings, as `agvtool` does.
///
/// Bump scope: apps and everything an app embeds (extensions, watch apps, App Clips) are bumped together, so
/// extensions always carry their app's version; frameworks and test bundles are left alone unless they share a
/// definition with an app (or the project has no app at all).
public enum VersionReader {
    /// Reads the project at `project`, or the version file at `file`, or whatever `directory` holds (a single
    /// `.xcodeproj`, else a `VERSION` file).
    /// - Throws: ``VersioningError``.
    public static func read(project: String? = nil, file: String? = nil, in directory: String) throws -> ProjectVersions {
        func absolute(_ path: String) -> String {
            let expanded = (path as NSString).expandingTildeInPath
            return expanded.hasPrefix("/")
                ? URL(fileURLWithPath: expanded).standardizedFileURL.path
                : URL(fileURLWithPath: directory).appendingPathComponent(expanded).standardizedFileURL.path
        }
        if let file {
            return try readVersionFile(absolute(file))
        }
        let folder = absolute(project ?? ".")
        var isDirectory: ObjCBool = false
        if let project, FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), !isDirectory.boolValue,
           !project.hasSuffix(".pbxproj") {
            return try readVersionFile(folder)
        }
        if let xcodeproj = try XcodeProject.locate(in: folder) {
            return try readXcode(try XcodeProject(contentsOf: xcodeproj))
        }
        let versionFile = folder + "/VERSION"
        if FileManager.default.fileExists(atPath: versionFile) {
            return try readVersionFile(versionFile)
        }
        throw VersioningError.noProject(directory: folder)
    }

    /// Reads a plain version file.
    public static func readVersionFile(_ path: String) throws -> ProjectVersions {
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
            buildOrigin: file.buildSite.map { ValueOrigin(site: $0, editable: true) }, bumps: true
        )
        return ProjectVersions(report: report, tracked: [tracked], baseDirectory: base)
    }

    /// Reads every target × configuration of a loaded Xcode project.
    public static func readXcode(_ project: XcodeProject) throws -> ProjectVersions {
        let base = FilePath.parent(of: project.path)
        var xcconfigs: [String: XCConfigFile] = [:]
        var plists: [String: InfoPlistFile] = [:]
        func xcconfig(_ path: String?) throws -> [SettingDefinition] {
            guard let path else { return [] }
            if let cached = xcconfigs[path] { return cached.assignments }
            let file = try XCConfigFile(contentsOf: path)
            xcconfigs[path] = file
            return file.assignments
        }
        func location(_ origin: ValueOrigin?) -> DefinitionLocation? {
            origin.map { DefinitionLocation(file: ProjectVersions.relative($0.site.path, to: base), line: $0.site.line, key: $0.site.key) }
        }

        let bumpAll = !project.targets.contains { $0.isApplication || $0.isEmbeddable }
        var tracked: [ProjectVersions.Tracked] = []
        for target in project.targets {
            let host = project.topHost(of: target)
            for configuration in target.configurations {
                let projectConfiguration = project.configurations.first { $0.name == configuration.name }
                let settings = BuildSettings(
                    layers: [
                        configuration.settings,
                        try xcconfig(configuration.baseConfigurationPath),
                        projectConfiguration?.settings ?? [],
                        try xcconfig(projectConfiguration?.baseConfigurationPath),
                    ],
                    defaults: defaults(project: project, target: target, configuration: configuration.name)
                )
                var infoPlist: InfoPlistFile?
                var infoPlistName: String?
                if let plistSetting = settings.value(of: "INFOPLIST_FILE"), !plistSetting.isEmpty {
                    let path = plistSetting.hasPrefix("/")
                        ? plistSetting
                        : URL(fileURLWithPath: project.sourceRoot).appendingPathComponent(plistSetting).standardizedFileURL.path
                    guard FileManager.default.fileExists(atPath: path) else {
                        let definedAt = settings.definition(of: "INFOPLIST_FILE")?.site.location ?? project.pbxproj.path
                        throw VersioningError.missingInfoPlist(path: plistSetting, definedAt: definedAt)
                    }
                    if plists[path] == nil { plists[path] = try InfoPlistFile(contentsOf: path) }
                    infoPlist = plists[path]
                    infoPlistName = ProjectVersions.relative(path, to: base)
                }
                let generated = settings.value(of: "GENERATE_INFOPLIST_FILE")?.uppercased() == "YES"
                if infoPlist == nil, generated { infoPlistName = "generated" }

                func resolve(_ plistKey: String, setting: String) -> (String?, ValueOrigin?) {
                    if let (raw, site) = infoPlist?.entry(plistKey) {
                        let value = settings.expand(raw)
                        if let site { return (value, settings.origin(ofText: raw, at: site)) }
                        if let name = BuildSettings.singleReference(raw), let origin = settings.origin(of: name) {
                            return (value, origin)
                        }
                        let path = infoPlist?.path ?? ""
                        let unlocated = ValueSite(path: path, line: nil, key: plistKey, format: .xmlPlist, range: nil, quoted: false, rawValue: raw)
                        return (value, ValueOrigin(site: unlocated, editable: false))
                    }
                    let infoKey = "INFOPLIST_KEY_\(plistKey)"
                    if generated, settings.isDefined(infoKey) {
                        return (settings.value(of: infoKey), settings.origin(of: infoKey))
                    }
                    return (settings.value(of: setting), settings.origin(of: setting))
                }
                let (version, versionOrigin) = resolve("CFBundleShortVersionString", setting: "MARKETING_VERSION")
                let (build, buildOrigin) = resolve("CFBundleVersion", setting: "CURRENT_PROJECT_VERSION")
                let bundleIdentifier = infoPlist?.entry("CFBundleIdentifier").map { settings.expand($0.value) }
                    ?? settings.value(of: "PRODUCT_BUNDLE_IDENTIFIER")
                let entry = VersionEntry(
                    target: target.name, configuration: configuration.name, productType: target.productType,
                    host: host?.name, bundleIdentifier: bundleIdentifier.flatMap { $0.isEmpty ? nil : $0 },
                    infoPlist: infoPlistName,
                    version: version.flatMap { $0.isEmpty ? nil : $0 }, versionDefinedAt: location(versionOrigin),
                    build: build.flatMap { $0.isEmpty ? nil : $0 }, buildDefinedAt: location(buildOrigin)
                )
                tracked.append(ProjectVersions.Tracked(
                    entry: entry, versionOrigin: versionOrigin, buildOrigin: buildOrigin,
                    bumps: bumpAll || target.isApplication || target.isEmbeddable || host != nil
                ))
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
        let report = VersionReport(
            kind: .xcode, project: ProjectVersions.relative(project.path, to: base), primaryTarget: primary?.name,
            primaryConfiguration: primaryConfiguration, version: primaryEntry?.version, build: primaryEntry?.build,
            entries: tracked.map(\.entry)
        )
        return ProjectVersions(report: report, tracked: tracked, baseDirectory: base)
    }

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
            "PLATFORM_NAME": "iphoneos",
            "EFFECTIVE_PLATFORM_NAME": "-iphoneos",
            "DEVELOPMENT_LANGUAGE": "en",
        ]
    }
}

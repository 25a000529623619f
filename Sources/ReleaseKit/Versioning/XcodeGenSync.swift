import ReleaseSupport

/// Keeps an XcodeGen spec and the project it generates saying the same thing: finds, for a value defined in the
/// `.xcodeproj`, the spec scalar that generates it, and reports where the two disagree.
///
/// Values are matched by level: a project-level setting in configuration `C` to the spec's project `settings`
/// for `C`, a target-level setting to the same target's `settings`, an Info.plist value to the target's
/// `info: properties:`. `.xcconfig` files and hand-written Info.plists are shared by both and need nothing.
package enum XcodeGenSync {
    /// The spec definition that generates `site`, or why there is none.
    package enum Counterpart: Sendable, Equatable {
        /// The spec defines it here.
        case site(ValueSite)
        /// Both read the same file: nothing to do in the spec.
        case shared
        /// The spec has no definition at that level: a sentence saying where it is missing.
        case missing(String)
    }

    /// The spec definition that generates the value at `site` in `project`.
    package static func counterpart(of site: ValueSite, in project: XcodeProject, spec: XcodeProject) -> Counterpart {
        let specName = ProjectVersions.relative(spec.projectFile, to: FilePath.parent(of: spec.projectFile))
        switch site.format {
        case .pbxproj:
            if let configuration = project.configurations.first(where: { $0.settings.contains { $0.site == site } }) {
                guard let specConfiguration = spec.configurations.first(where: { $0.name == configuration.name }),
                    let found = winning(site.key, in: specConfiguration.settings)
                else {
                    return .missing("\(specName) does not define \(site.key) for configuration '\(configuration.name)'")
                }
                return .site(found.site)
            }
            for target in project.targets {
                guard let configuration = target.configurations.first(where: { $0.settings.contains { $0.site == site } }) else { continue }
                guard let specTarget = spec.targets.first(where: { $0.name == target.name }) else {
                    return .missing("\(specName) does not declare target '\(target.name)' (is it in a missing include?)")
                }
                guard let specConfiguration = specTarget.configurations.first(where: { $0.name == configuration.name }),
                    let found = winning(site.key, in: specConfiguration.settings)
                else {
                    return .missing("\(specName) does not define \(site.key) for target '\(target.name)' (\(configuration.name))")
                }
                return .site(found.site)
            }
            return .shared
        case .xmlPlist, .binaryPlist:
            for (_, plist) in spec.generatedInfoPlists where plist.path == site.path {
                guard let found = plist.sites[site.key] else {
                    return .missing("\(specName) generates '\(ProjectVersions.relative(site.path, to: spec.sourceRoot))' without \(site.key) in its properties")
                }
                return .site(found)
            }
            return .shared
        case .xcconfig, .text, .yaml, .yamlSingleQuoted:
            return .shared
        }
    }

    /// The definition that wins for `key` in one level's settings (the last unconditional one).
    static func winning(_ key: String, in settings: [SettingDefinition]) -> SettingDefinition? {
        settings.last { $0.key == key && $0.condition == nil }
    }

    /// Where the spec and the project it generates define `keys` differently, one sentence each.
    package static func disagreements(project: XcodeProject, spec: XcodeProject, keys: Set<String>) -> [String] {
        var lines: [String] = []
        let specFolder = FilePath.parent(of: spec.projectFile)
        func compare(_ generated: [SettingDefinition], _ source: [SettingDefinition], level: String) {
            for key in keys.sorted() {
                guard let mine = winning(key, in: generated), let theirs = winning(key, in: source), mine.value != theirs.value else { continue }
                let at = ProjectVersions.relative(theirs.site.path, to: specFolder) + (theirs.site.line.map { ":\($0)" } ?? "")
                lines.append("\(at): \(key) is '\(theirs.value)' but the generated project has '\(mine.value)' (\(level)); run xcodegen or bump again")
            }
        }
        for configuration in project.configurations {
            guard let specConfiguration = spec.configurations.first(where: { $0.name == configuration.name }) else { continue }
            compare(configuration.settings, specConfiguration.settings, level: "project, \(configuration.name)")
        }
        for target in project.targets {
            guard let specTarget = spec.targets.first(where: { $0.name == target.name }) else { continue }
            for configuration in target.configurations {
                guard let specConfiguration = specTarget.configurations.first(where: { $0.name == configuration.name }) else { continue }
                compare(configuration.settings, specConfiguration.settings, level: "'\(target.name)', \(configuration.name)")
            }
        }
        return lines
    }
}

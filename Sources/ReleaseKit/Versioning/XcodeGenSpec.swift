import Foundation
import ReleaseSupport

/// An XcodeGen project spec (`project.yml`, or `project.json`) with its `include:` files merged, read into the
/// shape of an ``XcodeProject`` so the version engine reads and bumps it like any project.
///
/// What is read: `configs` (default `Debug`/`Release`), `settings` at project and target level (`base`,
/// `configs` matched the way XcodeGen matches them, by a case-insensitive part of the configuration name,
/// `groups` from `settingGroups`), `configFiles`, target `type`, `templates` from `targetTemplates`, `info`
/// (`path` becomes `INFOPLIST_FILE`; `properties` over XcodeGen's defaults are the generated Info.plist) and
/// `dependencies` (an app that depends on an extension, a watch app or an App Clip embeds it). Every scalar keeps
/// its file and byte range, so a bump rewrites the value in the spec and nothing else.
package struct XcodeGenSpec: Sendable {
    /// The names XcodeGen looks for, in order.
    package static let fileNames = ["project.yml", "project.yaml", "project.json"]

    /// Absolute path of the spec.
    package let path: String
    /// The spec with its includes merged under it.
    package let root: XcodeGenNode
    /// Included files that do not exist.
    package let missing: [MissingFile]

    /// The spec's `name`: the name of the `.xcodeproj` it generates.
    package var name: String? { root["name"]?.string }

    /// Reads the spec at `path` and the files it includes.
    /// - Throws: ``VersioningError`` for unreadable files, YAML syntax errors and include cycles.
    package init(contentsOf path: String) throws {
        let absolute = FilePath.absolute(path)
        var missing: [MissingFile] = []
        self.root = try Self.load(absolute, stack: [], missing: &missing)
        self.path = absolute
        self.missing = missing
    }

    /// Whether `path` names an XcodeGen spec (a `.yml`/`.yaml` file or `project.json`) rather than a version file.
    package static func isSpec(_ path: String) -> Bool {
        let name = (path as NSString).lastPathComponent
        return name.hasSuffix(".yml") || name.hasSuffix(".yaml") || name == "project.json"
    }

    /// The spec in `folder`, if there is one.
    package static func locate(in folder: String) -> String? {
        fileNames.map { folder + "/" + $0 }.first { FileManager.default.fileExists(atPath: $0) }
    }

    /// The spec that generates `xcodeproj`: one beside it whose `name` is the project's name.
    package static func locate(beside xcodeproj: String) -> String? {
        let projectName = ((xcodeproj as NSString).lastPathComponent as NSString).deletingPathExtension
        guard let candidate = locate(in: FilePath.parent(of: xcodeproj)),
            let spec = try? XcodeGenSpec(contentsOf: candidate), spec.name == projectName
        else { return nil }
        return candidate
    }

    private static func load(_ path: String, stack: [String], missing: inout [MissingFile]) throws -> XcodeGenNode {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw VersioningError.unreadable(path: path, reason: "no such file or not readable")
        }
        let node = try XcodeGenNode.parse(Array(data), path: path)
        var merged = XcodeGenNode.mapping([])
        let includes = node["include"].map { $0.elements ?? [$0] } ?? []
        for include in includes {
            guard let scalar = include.scalar ?? include["path"]?.scalar else { continue }
            if let enable = include["enable"]?.string, ["false", "no", "0"].contains(enable.lowercased()) { continue }
            let resolved = resolve(scalar.value, from: scalar.file)
            let chain = stack + [path]
            if let start = chain.firstIndex(of: resolved) {
                let cycle = Array(chain[start...]) + [resolved]
                let base = FilePath.parent(of: cycle[0])
                throw VersioningError.includeCycle(file: path, line: scalar.line, chain: cycle.map { ProjectVersions.relative($0, to: base) })
            }
            guard FileManager.default.fileExists(atPath: resolved) else {
                missing.append(MissingFile(path: resolved, reference: .xcodegen, referencedAt: "\(path):\(scalar.line)"))
                continue
            }
            guard chain.count < XCConfigFile.maximumIncludeDepth else {
                throw VersioningError.syntax(file: path, line: scalar.line, message: "'include' nested deeper than \(XCConfigFile.maximumIncludeDepth) files")
            }
            merged = merged.merged(with: try load(resolved, stack: chain, missing: &missing))
        }
        return merged.merged(with: node)
    }

    /// `path` relative to the folder of the file that names it (XcodeGen's `relativePaths`, on by default).
    static func resolve(_ path: String, from file: String) -> String {
        FilePath.absolute(path, in: FilePath.parent(of: file))
    }

    /// The spec as a project: configurations, targets with their settings per configuration, generated
    /// Info.plists and missing includes.
    package func project() throws -> XcodeProject {
        let folder = FilePath.parent(of: path)
        let configurationNames = root["configs"]?.pairs?.map(\.key) ?? ["Debug", "Release"]
        var notes: [String] = []

        func baseConfiguration(_ node: XcodeGenNode?, _ configuration: String) -> (String, String)? {
            guard let scalar = node?[configuration]?.scalar else { return nil }
            return (Self.resolve(scalar.value, from: scalar.file), "\(scalar.file):\(scalar.line)")
        }
        let configurations = configurationNames.map { name -> XcodeBuildConfiguration in
            let base = baseConfiguration(root["configFiles"], name)
            return XcodeBuildConfiguration(
                id: "project:\(name)", name: name, settings: settings(root["settings"], configuration: name, depth: 0, notes: &notes),
                baseConfigurationPath: base?.0, baseConfigurationReference: base?.1, line: 0
            )
        }

        var targets: [XcodeTarget] = []
        var generated: [String: InfoPlistFile] = [:]
        var dependencies: [String: [String]] = [:]
        for pair in root["targets"]?.pairs ?? [] {
            var target = pair.value
            for template in target["templates"]?.elements?.compactMap(\.string) ?? [] {
                if let node = root["targetTemplates"]?[template] { target = node.merged(with: target) }
            }
            if target["platform"]?.elements != nil {
                notes.append("\(pair.file):\(pair.line): target '\(pair.key)' is generated once per platform; its versions are not read")
                continue
            }
            let type = target["type"]?.string ?? ""
            let productType = type.hasPrefix("com.apple.product-type.") ? type : "com.apple.product-type." + type
            var infoPlistFile: (String, SettingDefinition)?
            if let info = target["info"], let scalar = info["path"]?.scalar {
                let absolute = Self.resolve(scalar.value, from: scalar.file)
                let relative = ProjectVersions.relative(absolute, to: folder)
                infoPlistFile = (absolute, SettingDefinition(key: "INFOPLIST_FILE", condition: nil, value: relative, site: scalar.site(key: "INFOPLIST_FILE")))
                generated[pair.key] = infoPlist(at: absolute, properties: info["properties"])
            }
            let configurations = configurationNames.map { name -> XcodeBuildConfiguration in
                var definitions = settings(target["settings"], configuration: name, depth: 0, notes: &notes)
                // XcodeGen names the generated Info.plist unless the settings name one.
                if let (_, definition) = infoPlistFile { definitions.insert(definition, at: 0) }
                let base = baseConfiguration(target["configFiles"], name)
                return XcodeBuildConfiguration(
                    id: "\(pair.key):\(name)", name: name, settings: definitions, baseConfigurationPath: base?.0,
                    baseConfigurationReference: base?.1, line: pair.line
                )
            }
            dependencies[pair.key] = (target["dependencies"]?.elements ?? []).compactMap { dependency in
                if let embed = dependency["embed"]?.string, ["false", "no"].contains(embed.lowercased()) { return nil }
                return dependency["target"]?.string
            }
            targets.append(
                XcodeTarget(
                    id: pair.key, name: pair.key, productType: productType, configurations: configurations,
                    defaultConfigurationName: nil, hostID: nil, embedPath: nil, line: pair.line
                ))
        }
        // An app embeds the extensions, watch apps and App Clips it depends on.
        for host in targets where host.isApplication {
            for name in dependencies[host.name] ?? [] {
                guard let index = targets.firstIndex(where: { $0.name == name }), targets[index].isEmbeddable,
                    targets[index].hostID == nil, name != host.name
                else { continue }
                targets[index].hostID = host.id
            }
        }
        // The same scalar is read once per configuration: say each thing once.
        var unique: [String] = []
        for note in notes where !unique.contains(note) { unique.append(note) }
        return XcodeProject(
            path: path, projectFile: path, sourceRoot: folder, configurations: configurations,
            defaultConfigurationName: root["options"]?["defaultConfig"]?.string, targets: targets, name: name,
            generatedInfoPlists: generated, missingFiles: missing, notes: unique
        )
    }

    /// The definitions of a `settings` value for one configuration, lowest precedence first: groups, `base`,
    /// then every `configs` entry whose key is part of the configuration's name.
    func settings(_ node: XcodeGenNode?, configuration: String, depth: Int, notes: inout [String]) -> [SettingDefinition] {
        guard let node, node.pairs != nil, depth < 16 else { return [] }
        let structured = node["base"] != nil || node["configs"] != nil || node["groups"] != nil || node["presets"] != nil
        guard structured else { return flat(node, notes: &notes) }
        var definitions: [SettingDefinition] = []
        for group in (node["groups"] ?? node["presets"])?.elements?.compactMap(\.string) ?? [] {
            definitions += settings(
                (root["settingGroups"] ?? root["settingPresets"])?[group], configuration: configuration, depth: depth + 1, notes: &notes
            )
        }
        definitions += flat(node["base"], notes: &notes)
        for pair in node["configs"]?.pairs ?? [] where configuration.lowercased().contains(pair.key.lowercased()) {
            definitions += settings(pair.value, configuration: configuration, depth: depth + 1, notes: &notes)
        }
        return definitions
    }

    /// The `KEY: value` entries of a plain settings mapping.
    private func flat(_ node: XcodeGenNode?, notes: inout [String]) -> [SettingDefinition] {
        var definitions: [SettingDefinition] = []
        for pair in node?.pairs ?? [] {
            let (key, condition) = SettingDefinition.split(pair.key)
            switch pair.value {
            case .scalar(let scalar):
                if scalar.value != scalar.written, scalar.quote == nil {
                    notes.append(
                        "\(scalar.file):\(scalar.line): \(key) is the YAML number \(scalar.written), which XcodeGen writes as '\(scalar.value)'; quote it (\"\(scalar.written)\") to keep it as written"
                    )
                }
                definitions.append(SettingDefinition(key: key, condition: condition, value: scalar.value, site: scalar.site(key: key)))
            case .sequence(let elements):
                let value = elements.compactMap(\.string).joined(separator: " ")
                let site = ValueSite(path: pair.file, line: pair.line, key: key, format: .yaml, range: nil, quoted: false, rawValue: value)
                definitions.append(SettingDefinition(key: key, condition: condition, value: value, site: site))
            case .mapping:
                continue
            }
        }
        return definitions
    }

    /// The Info.plist XcodeGen writes for `info:`: its defaults, then `properties`.
    private func infoPlist(at path: String, properties: XcodeGenNode?) -> InfoPlistFile {
        var strings = [
            "CFBundleIdentifier": "$(PRODUCT_BUNDLE_IDENTIFIER)", "CFBundleShortVersionString": "1.0", "CFBundleVersion": "1",
        ]
        var sites: [String: ValueSite] = [:]
        for pair in properties?.pairs ?? [] {
            guard let scalar = pair.value.scalar else { continue }
            strings[pair.key] = scalar.value
            sites[pair.key] = scalar.site(key: pair.key)
        }
        return InfoPlistFile(path: path, strings: strings, sites: sites)
    }
}

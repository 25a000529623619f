import Foundation
import ReleaseSupport

/// The parts of an `.xcodeproj` the version engine needs: project and target build configurations, their
/// `.xcconfig` files, and which target embeds which. An XcodeGen spec is read into the same shape
/// (``XcodeGenSpec``).
package struct XcodeProject: Sendable {
    /// Absolute path of the `.xcodeproj` folder (or of the XcodeGen spec).
    package let path: String
    /// The file that declares it: `project.pbxproj`, or `project.yml` for an XcodeGen spec.
    package let projectFile: String
    /// The folder `SRCROOT` points at: the folder containing the `.xcodeproj` (plus `projectDirPath`).
    package let sourceRoot: String
    /// The project-level build configurations.
    package let configurations: [XcodeBuildConfiguration]
    /// The project configuration list's `defaultConfigurationName`.
    package let defaultConfigurationName: String?
    /// Native targets in the order the project lists them.
    package let targets: [XcodeTarget]
    /// Info.plist contents an XcodeGen spec generates (`info: properties:`), by target name; their values are
    /// defined in the spec, not in the file on disk.
    package let generatedInfoPlists: [String: InfoPlistFile]
    /// Files the project declaration itself refers to that are missing (an XcodeGen `include:`).
    package let missingFiles: [MissingFile]
    /// Problems found while reading that do not stop it, one line each.
    package let notes: [String]

    /// The project's name (`Demo` for `Demo.xcodeproj`, an XcodeGen spec's `name`).
    package let name: String

    /// Loads the project at `path` (an `.xcodeproj` folder).
    /// - Throws: ``VersioningError`` naming the pbxproj line of anything malformed.
    package init(contentsOf path: String) throws {
        let absolute = FilePath.absolute(path)
        let pbxprojPath = absolute + "/project.pbxproj"
        let plist = try OpenStepPlist(contentsOf: pbxprojPath)
        var loader = Loader(plist: plist, file: pbxprojPath, projectFolder: FilePath.parent(of: absolute))
        let project = try loader.projectObject()
        let (configurations, defaultName) = try loader.configurationList(project, owner: "project")
        self.init(
            path: absolute, projectFile: pbxprojPath, sourceRoot: loader.sourceRoot, configurations: configurations,
            defaultConfigurationName: defaultName, targets: try loader.targets(project)
        )
    }

    /// Creates a value from its parts.
    package init(
        path: String, projectFile: String, sourceRoot: String, configurations: [XcodeBuildConfiguration],
        defaultConfigurationName: String?, targets: [XcodeTarget], name: String? = nil,
        generatedInfoPlists: [String: InfoPlistFile] = [:], missingFiles: [MissingFile] = [], notes: [String] = []
    ) {
        self.path = path
        self.name = name ?? ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        self.projectFile = projectFile
        self.sourceRoot = sourceRoot
        self.configurations = configurations
        self.defaultConfigurationName = defaultConfigurationName
        self.targets = targets
        self.generatedInfoPlists = generatedInfoPlists
        self.missingFiles = missingFiles
        self.notes = notes
    }

    /// The `.xcodeproj` to use for `path`: the path itself when it is one, else the only one inside it.
    /// - Throws: ``VersioningError/noProject(directory:)`` or ``VersioningError/ambiguousProject(directory:candidates:)``.
    package static func locate(in path: String) throws -> String? {
        let standardized = FilePath.absolute(path)
        if standardized.hasSuffix(".xcodeproj") { return standardized }
        if standardized.hasSuffix(".pbxproj") { return FilePath.parent(of: standardized) }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: standardized)) ?? []
        let projects = entries.filter { $0.hasSuffix(".xcodeproj") }.sorted()
        if projects.count > 1 {
            throw VersioningError.ambiguousProject(directory: standardized, candidates: projects)
        }
        return projects.first.map { standardized + "/" + $0 }
    }

    /// Folders a project search never enters: dependencies, build products, version control.
    package static let skippedFolders: Set<String> = ["Pods", "Carthage", "build", "Build", "DerivedData", "node_modules", "vendor", "fastlane"]

    /// The only `.xcodeproj` in the folders below `path` (up to `depth` levels, not inside bundles, hidden
    /// folders or dependency folders), for repositories that keep the app in a subfolder (`App/isowords.xcodeproj`).
    /// - Throws: ``VersioningError/ambiguousProject(directory:candidates:)`` when there are several.
    package static func locateBelow(_ path: String, depth: Int = 3) throws -> String? {
        let root = FilePath.absolute(path)
        var found: [String] = []
        var folders = [""]
        for _ in 0..<depth {
            var next: [String] = []
            for folder in folders {
                let entries = ((try? FileManager.default.contentsOfDirectory(atPath: root + "/" + folder)) ?? []).sorted()
                for name in entries where !name.hasPrefix(".") && !skippedFolders.contains(name) {
                    let relative = folder.isEmpty ? name : folder + "/" + name
                    var isDirectory: ObjCBool = false
                    guard FileManager.default.fileExists(atPath: root + "/" + relative, isDirectory: &isDirectory), isDirectory.boolValue else { continue }
                    if name.hasSuffix(".xcodeproj") {
                        found.append(relative)
                    } else if !name.contains(".") {
                        next.append(relative)
                    }
                }
            }
            // The shallowest projects win: `App/App.xcodeproj` over `App/Tools/Tool/Tool.xcodeproj`.
            if !found.isEmpty { break }
            folders = next
        }
        if found.count > 1 {
            throw VersioningError.ambiguousProject(directory: root, candidates: found)
        }
        return found.first.map { root + "/" + $0 }
    }

    /// The target named `name`.
    package func target(named name: String) -> XcodeTarget? {
        targets.first { $0.name == name }
    }

    /// The app at the top of `target`'s embedding chain (an extension's app, a watch extension's iOS app), or
    /// `nil` when nothing embeds it.
    package func topHost(of target: XcodeTarget) -> XcodeTarget? {
        var current = target
        var seen: Set<String> = [target.id]
        while let hostID = current.hostID, let host = targets.first(where: { $0.id == hostID }), !seen.contains(hostID) {
            seen.insert(hostID)
            current = host
        }
        return current.id == target.id ? nil : current
    }

    /// Reads objects out of the parsed pbxproj.
    private struct Loader {
        let plist: OpenStepPlist
        let file: String
        let projectFolder: String
        var sourceRoot: String
        let objects: OpenStepValue.Dictionary
        var parents: [String: String] = [:]

        init(plist: OpenStepPlist, file: String, projectFolder: String) {
            self.plist = plist
            self.file = file
            self.projectFolder = projectFolder
            self.sourceRoot = projectFolder
            self.objects =
                plist.root.dictionary?["objects"]?.dictionary
                ?? OpenStepValue.Dictionary(entries: [], line: plist.root.line)
            for entry in objects.entries {
                guard let object = entry.value.dictionary, let isa = object["isa"]?.string,
                    isa == "PBXGroup" || isa == "PBXVariantGroup" || isa == "XCVersionGroup"
                        || isa == "PBXFileSystemSynchronizedRootGroup"
                else { continue }
                for child in object["children"]?.array ?? [] {
                    if let id = child.string { parents[id] = entry.key.value }
                }
            }
        }

        func malformed(_ message: String, line: Int?) -> VersioningError {
            .malformedProject(file: file, line: line, message: message)
        }

        func object(_ id: String, referencedAt line: Int) throws -> OpenStepValue.Dictionary {
            guard let object = objects[id]?.dictionary else {
                throw malformed("object '\(id)' is referenced but not defined", line: line)
            }
            return object
        }

        mutating func projectObject() throws -> OpenStepValue.Dictionary {
            guard let root = plist.root.dictionary else {
                throw malformed("the top-level value is not a dictionary", line: plist.root.line)
            }
            guard root["objects"]?.dictionary != nil else {
                throw malformed("no 'objects' dictionary", line: root.line)
            }
            guard let rootID = root["rootObject"]?.text else {
                throw malformed("no 'rootObject'", line: root.line)
            }
            let project = try object(rootID.value, referencedAt: rootID.line)
            guard project["isa"]?.string == "PBXProject" else {
                throw malformed("rootObject '\(rootID.value)' is not a PBXProject", line: rootID.line)
            }
            if let directory = project["projectDirPath"]?.string, !directory.isEmpty {
                sourceRoot = FilePath.absolute(directory, in: projectFolder)
            }
            return project
        }

        func configurationList(_ owner: OpenStepValue.Dictionary, owner name: String) throws -> ([XcodeBuildConfiguration], String?) {
            guard let listID = owner["buildConfigurationList"]?.text else {
                throw malformed("\(name) has no buildConfigurationList", line: owner.line)
            }
            let list = try object(listID.value, referencedAt: listID.line)
            var configurations: [XcodeBuildConfiguration] = []
            for reference in list["buildConfigurations"]?.array ?? [] {
                guard let id = reference.text else { continue }
                let configuration = try object(id.value, referencedAt: id.line)
                configurations.append(try buildConfiguration(id: id.value, configuration))
            }
            return (configurations, list["defaultConfigurationName"]?.string)
        }

        func buildConfiguration(id: String, _ object: OpenStepValue.Dictionary) throws -> XcodeBuildConfiguration {
            guard let name = object["name"]?.string else {
                throw malformed("build configuration '\(id)' has no name", line: object.line)
            }
            var settings: [SettingDefinition] = []
            for entry in object["buildSettings"]?.dictionary?.entries ?? [] {
                let (key, condition) = SettingDefinition.split(entry.key.value)
                switch entry.value {
                case .string(let text):
                    let site = ValueSite(
                        path: file, line: text.line, key: key, format: .pbxproj, range: text.range, quoted: text.quoted,
                        rawValue: text.value
                    )
                    settings.append(SettingDefinition(key: key, condition: condition, value: text.value, site: site))
                case .array(let values, let line):
                    let joined = values.compactMap(\.string).joined(separator: " ")
                    let site = ValueSite(path: file, line: line, key: key, format: .pbxproj, range: nil, quoted: false, rawValue: joined)
                    settings.append(SettingDefinition(key: key, condition: condition, value: joined, site: site))
                case .dictionary, .data:
                    continue
                }
            }
            var basePath: String?
            var baseReference: String?
            // Xcode 16 folders (synchronized groups) name the file relative to a group instead.
            if let anchor = object["baseConfigurationReferenceAnchor"]?.text,
                let relative = object["baseConfigurationReferenceRelativePath"]?.string
            {
                let group = try self.object(anchor.value, referencedAt: anchor.line)
                guard let groupPath = resolvePath(of: anchor.value, group) else {
                    throw malformed("cannot resolve the path of baseConfigurationReferenceAnchor '\(anchor.value)'", line: anchor.line)
                }
                basePath = FilePath.absolute(relative, in: groupPath)
                baseReference = "\(file):\(anchor.line)"
            }
            if let reference = object["baseConfigurationReference"]?.text {
                let fileReference = try self.object(reference.value, referencedAt: reference.line)
                basePath = resolvePath(of: reference.value, fileReference)
                if basePath == nil {
                    throw malformed("cannot resolve the path of baseConfigurationReference '\(reference.value)'", line: reference.line)
                }
                baseReference = "\(file):\(reference.line)"
            }
            return XcodeBuildConfiguration(
                id: id, name: name, settings: settings, baseConfigurationPath: basePath, baseConfigurationReference: baseReference, line: object.line
            )
        }

        /// The absolute path of a file reference or group, following `sourceTree` through parent groups.
        func resolvePath(of id: String, _ object: OpenStepValue.Dictionary, depth: Int = 0) -> String? {
            guard depth < 64 else { return nil }
            let path = object["path"]?.string ?? ""
            let tree = object["sourceTree"]?.string ?? "<group>"
            let base: String
            switch tree {
            case "<group>":
                if let parentID = parents[id], let parent = objects[parentID]?.dictionary {
                    guard let parentPath = resolvePath(of: parentID, parent, depth: depth + 1) else { return nil }
                    base = parentPath
                } else {
                    base = sourceRoot
                }
            case "SOURCE_ROOT":
                base = sourceRoot
            case "<absolute>":
                base = "/"
            default:
                return nil
            }
            if path.hasPrefix("/") { return FilePath.normalized(path) }
            if path.isEmpty { return base }
            return FilePath.absolute(path, in: base)
        }

        func targets(_ project: OpenStepValue.Dictionary) throws -> [XcodeTarget] {
            var targets: [XcodeTarget] = []
            var productOwners: [String: String] = [:]
            var raw: [(String, OpenStepValue.Dictionary)] = []
            for reference in project["targets"]?.array ?? [] {
                guard let id = reference.text else { continue }
                let object = try self.object(id.value, referencedAt: id.line)
                guard object["isa"]?.string == "PBXNativeTarget" else { continue }
                raw.append((id.value, object))
                if let product = object["productReference"]?.string { productOwners[product] = id.value }
            }
            for (id, object) in raw {
                let name = object["name"]?.string ?? id
                let (configurations, defaultName) = try configurationList(object, owner: "target '\(name)'")
                targets.append(
                    XcodeTarget(
                        id: id, name: name, productType: object["productType"]?.string ?? "",
                        configurations: configurations, defaultConfigurationName: defaultName, hostID: nil, embedPath: nil, line: object.line
                    ))
            }
            // A target hosts another when one of its copy-files phases embeds the other's product.
            for (hostID, object) in raw {
                for phaseID in object["buildPhases"]?.array?.compactMap(\.string) ?? [] {
                    guard let phase = objects[phaseID]?.dictionary, phase["isa"]?.string == "PBXCopyFilesBuildPhase" else { continue }
                    let embedPath = phase["dstPath"]?.string ?? ""
                    for buildFileID in phase["files"]?.array?.compactMap(\.string) ?? [] {
                        guard let fileRef = objects[buildFileID]?.dictionary?["fileRef"]?.string,
                            let embeddedID = productOwners[fileRef], embeddedID != hostID,
                            let index = targets.firstIndex(where: { $0.id == embeddedID }),
                            targets[index].hostID == nil
                        else { continue }
                        targets[index].hostID = hostID
                        targets[index].embedPath = embedPath
                    }
                }
            }
            // Without an embed phase, an app that depends on an extension or watch app hosts it.
            for (hostID, object) in raw {
                guard let host = targets.first(where: { $0.id == hostID }), host.isApplication else { continue }
                for dependencyID in object["dependencies"]?.array?.compactMap(\.string) ?? [] {
                    guard let targetID = objects[dependencyID]?.dictionary?["target"]?.string,
                        let index = targets.firstIndex(where: { $0.id == targetID }),
                        targets[index].hostID == nil, targets[index].isEmbeddable, targetID != hostID
                    else { continue }
                    targets[index].hostID = hostID
                }
            }
            return targets
        }
    }
}

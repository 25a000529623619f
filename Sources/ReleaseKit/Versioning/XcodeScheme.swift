import Foundation
import ReleaseSupport

/// A shared Xcode scheme (`xcshareddata/xcschemes/NAME.xcscheme`): what its archive action builds, and how.
///
/// Only shared schemes exist on a CI machine's fresh clone; a user's own schemes live in `xcuserdata`, which
/// repositories ignore.
package struct XcodeScheme: Sendable, Equatable {
    /// One thing the scheme builds (`BuildableReference`).
    package struct Buildable: Sendable, Equatable {
        /// The product's file name: `DuckDuckGo.app`, `ShareExtension.appex`.
        package var buildableName: String
        /// The target's name.
        package var blueprintName: String
        /// Where the target is: `container:App/isowords.xcodeproj`, relative to the workspace or project folder.
        package var container: String

        /// Whether the product is an application.
        package var isApplication: Bool { buildableName.hasSuffix(".app") }
    }

    /// The scheme's name (the file name without `.xcscheme`).
    package var name: String
    /// The `.xcscheme` file.
    package var path: String
    /// The `.xcodeproj`, `.xcworkspace` or package folder whose `xcshareddata` holds it.
    package var container: String
    /// The archive action's configuration (`Release` when the file does not say).
    package var archiveConfiguration: String
    /// Everything the build action builds for archiving, in order.
    package var archived: [Buildable]
    /// What the launch action runs (`BuildableProductRunnable`), when it names something.
    package var launched: Buildable?
    /// Xcode made it for an app extension (`wasCreatedForAppExtension`): it archives the host app too, but it is
    /// the extension's scheme.
    package var createdForAppExtension: Bool

    /// Whether archiving this scheme builds the application `productName` (`DuckDuckGo.app`).
    package func archives(app productName: String) -> Bool {
        archived.contains { $0.buildableName == productName }
    }

    /// Reads `path`.
    /// - Throws: ``VersioningError/unreadable(path:reason:)`` for a file that cannot be read or is too large.
    package init(contentsOf path: String) throws {
        let tags = try XMLStartTags.read(path)
        self.path = path
        self.name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        // .../X.xcodeproj/xcshareddata/xcschemes/NAME.xcscheme: the container is three folders up.
        self.container = FilePath.parent(of: FilePath.parent(of: FilePath.parent(of: path)))
        let root = tags.first { $0.depth == 0 }
        self.createdForAppExtension = root?.attributes["wasCreatedForAppExtension"] == "YES"
        self.archiveConfiguration = tags.first { $0.name == "ArchiveAction" }?.attributes["buildConfiguration"] ?? "Release"
        var archived: [Buildable] = []
        var launched: Buildable?
        var entryArchives = false
        for tag in tags {
            if tag.name == "BuildActionEntry" {
                entryArchives = tag.attributes["buildForArchiving"] != "NO"
            }
            guard tag.name == "BuildableReference", let name = tag.attributes["BuildableName"] else { continue }
            let buildable = Buildable(
                buildableName: name, blueprintName: tag.attributes["BlueprintName"] ?? "",
                container: tag.attributes["ReferencedContainer"] ?? "")
            if tag.path.contains("BuildActionEntry"), tag.path.contains("BuildAction"), entryArchives {
                archived.append(buildable)
            } else if tag.path.contains("LaunchAction"), tag.path.contains("BuildableProductRunnable"), launched == nil {
                launched = buildable
            }
        }
        self.archived = archived
        self.launched = launched
    }

    /// The shared schemes of a project, workspace or package folder (`container/xcshareddata/xcschemes`), sorted
    /// by name; unreadable files are skipped.
    package static func shared(in container: String) -> [XcodeScheme] {
        let folder = (container as NSString).appendingPathComponent("xcshareddata/xcschemes")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".xcscheme") }.sorted()
        return names.compactMap { try? XcodeScheme(contentsOf: (folder as NSString).appendingPathComponent($0)) }
    }
}

/// A workspace (`X.xcworkspace/contents.xcworkspacedata`): the projects it ties together.
package struct XcodeWorkspace: Sendable, Equatable {
    /// The `.xcworkspace` folder.
    package var path: String
    /// The `.xcodeproj` folders it references, as absolute paths (lexically resolved), in file order.
    package var projects: [String]

    /// Reads the workspace at `path` (the `.xcworkspace` folder).
    /// - Throws: ``VersioningError/unreadable(path:reason:)`` when its contents file cannot be read.
    package init(contentsOf path: String) throws {
        self.path = path
        let base = FilePath.parent(of: path)
        var projects: [String] = []
        var groups: [String] = []
        for tag in try XMLStartTags.read((path as NSString).appendingPathComponent("contents.xcworkspacedata")) {
            guard tag.name == "Group" || tag.name == "FileRef" else { continue }
            // A group's location is the folder of what it holds; groups nest.
            groups = Array(groups.prefix(tag.path.filter { $0 == "Group" }.count))
            let folder = groups.last ?? base
            let location = Self.resolve(tag.attributes["location"] ?? "", in: folder, workspaceFolder: base)
            if tag.name == "Group" {
                groups.append(location ?? folder)
            } else if let location, location.hasSuffix(".xcodeproj") {
                projects.append(location)
            }
        }
        self.projects = projects
    }

    /// `group:X`, `container:X`, `absolute:X`, `self:` to a path.
    static func resolve(_ location: String, in folder: String, workspaceFolder: String) -> String? {
        guard let colon = location.firstIndex(of: ":") else { return nil }
        let kind = location[..<colon]
        let rest = String(location[location.index(after: colon)...])
        switch kind {
        case "absolute": return rest
        case "group": return rest.hasPrefix("/") ? rest : FilePath.absolute(rest, in: folder)
        case "container": return rest.isEmpty ? workspaceFolder : FilePath.absolute(rest, in: workspaceFolder)
        case "self": return workspaceFolder
        default: return nil
        }
    }
}

import Foundation

/// What `release init` finds in a repository: the Xcode project (or workspace, or XcodeGen spec), its shared
/// schemes, the app target, its bundle id, where the version lives (the version engine's answer) and the GitHub
/// remote. Everything is read from files; nothing is run.
public struct RepositoryInspection: Sendable, Equatable {
    /// The `.xcodeproj` (or XcodeGen spec) relative to the repository, as `version.bump` and `xcodebuild` take it.
    public var project: String?
    /// A `.xcworkspace` beside the project (CocoaPods, several projects): `xcodebuild` should build that.
    public var workspace: String?
    /// The XcodeGen spec, when the project is generated from one.
    public var xcodegenSpec: String?
    /// Shared schemes (`xcshareddata/xcschemes/*.xcscheme`), sorted; only shared schemes exist on a CI machine.
    public var schemes: [String]
    /// The app target the version engine considers primary.
    public var appTarget: String?
    /// The app's bundle identifier.
    public var bundleIdentifier: String?
    /// The marketing version and build number now.
    public var version: String?
    public var build: String?
    /// Where the version is defined (`Demo/Info.plist:22`), for the person reading the prompt.
    public var versionDefinedAt: String?
    /// `owner/name` of the GitHub remote (`origin` first).
    public var githubRepository: String?
    /// What could not be read, said plainly (no project, an unreadable one).
    public var notes: [String]

    /// The scheme to archive: a shared scheme named after the app target, else the first shared scheme, else the
    /// app target (Xcode makes an unshared scheme of that name, which a fresh clone lacks: the note says so).
    public var scheme: String? {
        if let appTarget, schemes.contains(appTarget) { return appTarget }
        return schemes.first ?? appTarget
    }

    /// Inspects the repository at `directory`; `project` names the project when there are several.
    public static func inspect(_ directory: String, project: String? = nil) -> RepositoryInspection {
        var result = RepositoryInspection(schemes: [], notes: [])
        let files = FileManager.default
        let top = ((try? files.contentsOfDirectory(atPath: directory)) ?? []).sorted()
        result.workspace = top.first { $0.hasSuffix(".xcworkspace") }
        do {
            let versions = try VersionReader.read(project: project, in: directory)
            let report = versions.report
            result.project = relative(report.project, to: directory)
            result.xcodegenSpec = report.xcodegenSpec.map { relative($0, to: directory) }
            result.appTarget = report.primaryTarget
            result.version = report.version
            result.build = report.build
            let primary = report.entries.first { $0.target == report.primaryTarget && $0.configuration == (report.primaryConfiguration ?? $0.configuration) }
            result.bundleIdentifier = primary?.bundleIdentifier
            result.versionDefinedAt = primary?.versionDefinedAt?.description
        } catch {
            result.notes.append("no version found: \(error)")
        }
        for container in [result.project, result.workspace].compactMap({ $0 }) where container.hasSuffix(".xcodeproj") || container.hasSuffix(".xcworkspace") {
            let folder = (directory as NSString).appendingPathComponent(container + "/xcshareddata/xcschemes")
            let names = ((try? files.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".xcscheme") }
            result.schemes += names.map { String($0.dropLast(".xcscheme".count)) }
        }
        result.schemes = Array(Set(result.schemes)).sorted()
        if result.schemes.isEmpty, let target = result.appTarget {
            result.notes.append("no shared scheme: share the '\(target)' scheme in Xcode (Manage Schemes, Shared) so CI machines have it")
        }
        result.githubRepository = githubRepository(gitConfig: (directory as NSString).appendingPathComponent(".git/config"))
        return result
    }

    /// `owner/name` from the first GitHub remote in a git config (`origin` preferred), for https and ssh URLs.
    static func githubRepository(gitConfig path: String) -> String? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        var remotes: [(name: String, url: String)] = []
        var current: String?
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("[") {
                current = line.hasPrefix("[remote \"") ? String(line.dropFirst(9).prefix { $0 != "\"" }) : nil
            } else if let remote = current, line.hasPrefix("url"), let equals = line.firstIndex(of: "=") {
                remotes.append((remote, line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)))
            }
        }
        let ordered = remotes.filter { $0.name == "origin" } + remotes.filter { $0.name != "origin" }
        return ordered.lazy.compactMap { GitHubRemote.repository(fromURL: $0.url) }.first
    }

    private static func relative(_ path: String, to directory: String) -> String {
        guard path.hasPrefix("/"), let inside = FilePath.relative(path, to: FilePath.absolute(directory)), inside != "." else { return path }
        return inside
    }
}

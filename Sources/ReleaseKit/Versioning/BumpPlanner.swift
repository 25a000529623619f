import Foundation

/// Turns a version choice and a build number into file edits that change only the lines defining them.
///
/// Every entry the bump covers (apps and what they embed, see ``VersionReader``) gets the new version and
/// build written at its value's origin: the pbxproj setting, the `.xcconfig` assignment, the Info.plist string
/// or the version file token. Each origin is edited once however many targets share it; references such as
/// `$(MARKETING_VERSION)` are never touched because their origin is the definition they point to. Text files
/// keep every other byte (indentation, quoting, order, CRLF line endings); binary property lists are rewritten
/// as binary with only the changed keys different.
public enum BumpPlanner {
    /// Plans a bump of `versions` to `choice` (applied to the current version) and `build` (`nil`: keep).
    /// - Throws: ``VersioningError`` when there is no current version, or a value that must change is not a
    ///   literal.
    public static func plan(_ versions: ProjectVersions, choice: VersionChoice, build: String?) throws -> BumpPlan {
        var newVersion: String?
        if choice != .keep {
            if case .exact(let exact) = choice {
                newVersion = exact.description
            } else {
                guard let currentText = versions.currentVersion else {
                    throw VersioningError.nothingToBump(project: versions.report.project)
                }
                let current = try SemanticVersion.parse(currentText, context: versions.primaryVersionLocation)
                newVersion = choice.apply(to: current)?.description
            }
        }
        if let build, !BuildNumberStrategy.isBuildNumber(build) {
            throw VersioningError.invalidBuildNumber(build, context: nil)
        }
        return try plan(versions, version: newVersion, build: build)
    }

    /// Plans writing `version` and `build` (each `nil` to leave it) wherever the bumped entries define them.
    public static func plan(_ versions: ProjectVersions, version: String?, build: String?) throws -> BumpPlan {
        var assignments: [(site: ValueSite, value: String)] = []
        var seen: Set<ValueSite> = []
        for tracked in versions.tracked where tracked.bumps {
            for (origin, value, current) in [
                (tracked.versionOrigin, version, tracked.entry.version),
                (tracked.buildOrigin, build, tracked.entry.build),
            ] {
                guard let value, let origin, !seen.contains(origin.site) else { continue }
                guard origin.editable else {
                    if current == value { continue }
                    throw VersioningError.notEditable(
                        location: versions.displayPath(origin.site.path) + (origin.site.line.map { ":\($0)" } ?? ""),
                        key: origin.site.key, value: origin.site.rawValue
                    )
                }
                seen.insert(origin.site)
                if origin.site.rawValue != value { assignments.append((origin.site, value)) }
            }
        }
        if version != nil, !versions.tracked.contains(where: { $0.bumps && $0.versionOrigin != nil }) {
            throw VersioningError.nothingToBump(project: versions.report.project)
        }

        var order: [String] = []
        var byFile: [String: [(site: ValueSite, value: String)]] = [:]
        for assignment in assignments {
            if byFile[assignment.site.path] == nil { order.append(assignment.site.path) }
            byFile[assignment.site.path, default: []].append(assignment)
        }
        var files: [FileEdit] = []
        for path in order {
            files.append(try edit(path: path, assignments: byFile[path] ?? [], versions: versions))
        }
        return BumpPlan(
            previousVersion: versions.currentVersion, previousBuild: versions.currentBuild,
            version: version ?? versions.currentVersion, build: build ?? versions.currentBuild, files: files
        )
    }

    private static func edit(
        path: String, assignments: [(site: ValueSite, value: String)], versions: ProjectVersions
    ) throws -> FileEdit {
        guard let original = FileManager.default.contents(atPath: path) else {
            throw VersioningError.unreadable(path: path, reason: "no such file or not readable")
        }
        let display = versions.displayPath(path)
        let sorted = assignments.sorted { ($0.site.range?.lowerBound ?? 0) < ($1.site.range?.lowerBound ?? 0) }
        let changes = sorted.map {
            ValueChange(file: display, line: $0.site.line, key: $0.site.key, old: $0.site.rawValue, new: $0.value)
        }
        if sorted.contains(where: { $0.site.format == .binaryPlist }) {
            return FileEdit(
                path: path, displayPath: display, original: original,
                updated: try rewriteBinaryPlist(original, path: path, assignments: sorted), isBinary: true, changes: changes
            )
        }
        var bytes = Array(original)
        for assignment in sorted.reversed() {
            guard let range = assignment.site.range, range.upperBound <= bytes.count else {
                throw VersioningError.staleFile(path: path, line: assignment.site.line, expected: assignment.site.rawValue)
            }
            let expected = token(assignment.site.rawValue, for: assignment.site)
            guard Array(bytes[range]) == Array(expected.utf8) || assignment.site.format == .pbxproj
                || assignment.site.format == .xmlPlist
            else {
                throw VersioningError.staleFile(path: path, line: assignment.site.line, expected: assignment.site.rawValue)
            }
            bytes.replaceSubrange(range, with: Array(token(assignment.value, for: assignment.site).utf8))
        }
        return FileEdit(path: path, displayPath: display, original: original, updated: Data(bytes), isBinary: false, changes: changes)
    }

    /// The text written for `value` at `site`, in the site's quoting.
    static func token(_ value: String, for site: ValueSite) -> String {
        switch site.format {
        case .pbxproj:
            let bare = !value.isEmpty && value.utf8.allSatisfy { byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || [UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "."), UInt8(ascii: "-")].contains(byte)
            }
            if site.quoted || !bare {
                return "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
            }
            return value
        case .xcconfig:
            return site.quoted ? "\"\(value)\"" : value
        case .xmlPlist:
            return InfoPlistFile.escape(value)
        case .text, .binaryPlist:
            return value
        }
    }

    private static func rewriteBinaryPlist(_ data: Data, path: String, assignments: [(site: ValueSite, value: String)]) throws -> Data {
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: data, options: [.mutableContainersAndLeaves], format: nil)
        } catch {
            throw VersioningError.unreadable(path: path, reason: "not a property list")
        }
        guard var dictionary = object as? [String: Any] else {
            throw VersioningError.unreadable(path: path, reason: "the top-level value is not a dictionary")
        }
        for assignment in assignments {
            guard (dictionary[assignment.site.key] as? String) == assignment.site.rawValue else {
                throw VersioningError.staleFile(path: path, line: nil, expected: assignment.site.rawValue)
            }
            dictionary[assignment.site.key] = assignment.value
        }
        do {
            return try PropertyListSerialization.data(fromPropertyList: dictionary, format: .binary, options: 0)
        } catch {
            throw VersioningError.unreadable(path: path, reason: "cannot encode the property list: \(error)")
        }
    }
}

extension ProjectVersions {
    /// `file:line` of the primary version, for messages.
    var primaryVersionLocation: String? {
        guard let entry = report.entries.first(where: {
            $0.target == report.primaryTarget && $0.configuration == report.primaryConfiguration
        }) ?? report.entries.first,
            let location = entry.versionDefinedAt
        else { return nil }
        return location.line.map { "\(location.file):\($0)" } ?? location.file
    }
}

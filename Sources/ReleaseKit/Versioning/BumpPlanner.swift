import Foundation

/// Turns a version choice and a build number into file edits that change only the lines defining them.
///
/// The entries a ``BumpScope`` moves get the new version and build written at their value's origin: the
/// pbxproj setting, the `.xcconfig` assignment, the Info.plist string, the XcodeGen scalar or the version file
/// token. Each origin is edited once however many targets share it; references such as `$(MARKETING_VERSION)`
/// are never touched because their origin is the definition they point to. A build setting that mirrors a
/// literal Info.plist value (agvtool's `CURRENT_PROJECT_VERSION`) is kept equal to it. When an XcodeGen spec
/// generates the project, the spec is edited too, at the same level, so the next `xcodegen` run keeps the bump.
/// Text files keep every other byte (indentation, quoting, order, CRLF line endings); binary property lists are
/// rewritten as binary with only the changed keys different.
package enum BumpPlanner {
    /// Plans a bump of `versions` to `choice` (applied to the current version) and `build` (`nil`: keep), for
    /// `targets` (empty: decided by ``BumpScope``).
    /// - Throws: ``VersioningError`` when there is no current version, or a value that must change is not a
    ///   literal.
    package static func plan(_ versions: ProjectVersions, choice: VersionChoice, build: String?, targets: [String] = [], app: String? = nil) throws -> BumpPlan {
        let scope = try BumpScope(versions, targets: targets, app: app)
        var newVersion: String?
        if choice != .keep {
            if case .exact(let exact) = choice {
                newVersion = exact.description
            } else {
                guard let currentText = versions.current(.version, of: scope.primaryTarget) else {
                    throw VersioningError.nothingToBump(project: versions.report.project)
                }
                let current = try SemanticVersion.parse(currentText, context: versions.primaryVersionLocation)
                newVersion = choice.apply(to: current)?.description
            }
        }
        if let build, !BuildNumberStrategy.isBuildNumber(build) {
            throw VersioningError.invalidBuildNumber(build, context: nil)
        }
        return try plan(versions, scope: scope, version: newVersion, build: build)
    }

    /// Plans writing `version` and `build` (each `nil` to leave it) wherever the moving entries define them.
    package static func plan(_ versions: ProjectVersions, version: String?, build: String?, targets: [String] = []) throws -> BumpPlan {
        try plan(versions, scope: try BumpScope(versions, targets: targets), version: version, build: build)
    }

    /// Plans writing `version` and `build` (each `nil` to leave it) for the entries `scope` moves.
    package static func plan(_ versions: ProjectVersions, scope: BumpScope, version: String?, build: String?) throws -> BumpPlan {
        var assignments: [(site: ValueSite, value: String)] = []
        var seen: Set<ValueSite> = []
        func assign(_ origin: ValueOrigin, _ value: String, current: String?) throws {
            guard !seen.contains(origin.site) else { return }
            guard origin.editable else {
                if current == value { return }
                throw VersioningError.notEditable(
                    location: versions.displayPath(origin.site.path) + (origin.site.line.map { ":\($0)" } ?? ""),
                    key: origin.site.key, value: origin.site.rawValue
                )
            }
            seen.insert(origin.site)
            if origin.site.rawValue != value { assignments.append((origin.site, value)) }
        }
        for kind in BumpScope.Value.allCases {
            guard let value = kind == .version ? version : build else { continue }
            for index in scope.entries(kind) {
                let tracked = versions.tracked[index]
                let current = kind == .version ? tracked.entry.version : tracked.entry.build
                guard let origin = kind == .version ? tracked.versionOrigin : tracked.buildOrigin else { continue }
                try assign(origin, value, current: current)
                // agvtool keeps CURRENT_PROJECT_VERSION equal to a literal CFBundleVersion; so does the bump.
                if let mirror = kind == .version ? tracked.versionMirror : tracked.buildMirror, mirror.value == current {
                    try assign(mirror.origin, value, current: mirror.value)
                }
            }
        }
        if version != nil, !scope.versionEntries.contains(where: { versions.tracked[$0].versionOrigin != nil }) {
            throw VersioningError.nothingToBump(project: versions.report.project)
        }

        var notes = scope.notes
        if let project = versions.project, let spec = versions.xcodegen {
            for (site, value) in assignments {
                switch XcodeGenSync.counterpart(of: site, in: project, spec: spec) {
                case .site(let specSite):
                    guard !seen.contains(specSite) else { continue }
                    seen.insert(specSite)
                    if specSite.rawValue == site.rawValue {
                        assignments.append((specSite, value))
                    } else if specSite.rawValue != value {
                        notes.append(
                            "\(versions.displayPath(specSite.path)):\(specSite.line ?? 0): \(specSite.key) is '\(specSite.rawValue)', not '\(site.rawValue)' as in the project; left as it is"
                        )
                    }
                case .missing(let reason):
                    notes.append("\(reason): xcodegen would undo the bump of \(versions.displayPath(site.path)):\(site.line ?? 0)")
                case .shared:
                    continue
                }
            }
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
        let previousVersion = versions.current(.version, of: scope.primaryTarget)
        let previousBuild = versions.current(.build, of: scope.primaryTarget)
        return BumpPlan(
            previousVersion: previousVersion, previousBuild: previousBuild,
            version: version ?? previousVersion, build: build ?? previousBuild, files: files, notes: notes
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
            // Formats whose value is unescaped or normalised when read cannot be compared byte for byte.
            let comparable = ![.pbxproj, .xmlPlist, .yaml, .yamlSingleQuoted].contains(assignment.site.format)
            guard Array(bytes[range]) == Array(expected.utf8) || !comparable else {
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
            let bare =
                !value.isEmpty
                && value.utf8.allSatisfy { byte in
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
            return XMLEntities.escape(value)
        case .text, .binaryPlist:
            return value
        case .yaml:
            if !site.quoted, isPlainYAML(value) { return value }
            return "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        case .yamlSingleQuoted:
            return "'" + value.replacingOccurrences(of: "'", with: "''") + "'"
        }
    }

    /// Whether `value` written as a plain YAML scalar reads back as the same text in XcodeGen: a version such as
    /// `26.07.5` or a build `42` does, `3.10` (the number 3.1) and `007` (the number 7) do not.
    static func isPlainYAML(_ value: String) -> Bool {
        guard let first = value.unicodeScalars.first,
            value.unicodeScalars.allSatisfy({
                $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-+".unicodeScalars.contains($0))
            }), CharacterSet.alphanumerics.contains(first)
        else { return false }
        if ["y", "n", "yes", "no", "on", "off", "true", "false", "null"].contains(value.lowercased()) { return false }
        if value.allSatisfy(\.isNumber) { return Int(value).map(String.init) == value }
        if let number = Double(value), value.allSatisfy({ $0.isNumber || $0 == "." || $0 == "e" || $0 == "E" || $0 == "-" || $0 == "+" }) {
            return "\(number)" == value
        }
        return true
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
    /// The version or build of `target` (default: the primary target) in the primary configuration.
    package func current(_ value: BumpScope.Value, of target: String?) -> String? {
        guard let target, target != report.primaryTarget else { return value == .version ? currentVersion : currentBuild }
        let rows = report.entries.filter { $0.target == target }
        let row = rows.first { $0.configuration == report.primaryConfiguration } ?? rows.last
        return value == .version ? row?.version : row?.build
    }

    /// `file:line` of the primary version, for messages.
    var primaryVersionLocation: String? {
        guard
            let entry = report.entries.first(where: {
                $0.target == report.primaryTarget && $0.configuration == report.primaryConfiguration
            }) ?? report.entries.first,
            let location = entry.versionDefinedAt
        else { return nil }
        return location.line.map { "\(location.file):\($0)" } ?? location.file
    }
}

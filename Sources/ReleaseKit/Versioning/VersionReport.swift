import Foundation

/// What version a project is at: per target and configuration, the marketing version and build number and
/// where each is defined. `release version` prints it as a table or, with `--json`, as JSON.
package struct VersionReport: Sendable, Codable, Equatable {
    /// What kind of project was read.
    package enum Kind: String, Sendable, Codable {
        case xcode
        /// An XcodeGen spec (`project.yml`) read without a generated `.xcodeproj`.
        case xcodegen
        case file
    }

    /// Whether an Xcode project or a version file was read.
    package var kind: Kind
    /// The project (`Demo.xcodeproj`) or version file, relative to the folder it is in.
    package var project: String
    /// The app target the summary comes from (the first app nothing embeds).
    package var primaryTarget: String?
    /// The configuration the summary comes from (the target's default configuration).
    package var primaryConfiguration: String?
    /// The primary target's version: what a release is called.
    package var version: String?
    /// The primary target's build number.
    package var build: String?
    /// Every target × configuration.
    package var entries: [VersionEntry]
    /// The XcodeGen spec the project is generated from, when there is one beside it; a bump edits both.
    package var xcodegenSpec: String?
    /// What could not be read and which values that leaves uncertain (missing base configurations and
    /// includes, missing Info.plists, an XcodeGen spec that disagrees with its project); `nil` when nothing.
    package var warnings: [String]?

    /// Creates a value from its parts.
    package init(
        kind: Kind, project: String, primaryTarget: String?, primaryConfiguration: String?, version: String?, build: String?,
        entries: [VersionEntry], xcodegenSpec: String? = nil, warnings: [String] = []
    ) {
        self.kind = kind
        self.project = project
        self.primaryTarget = primaryTarget
        self.primaryConfiguration = primaryConfiguration
        self.version = version
        self.build = build
        self.entries = entries
        self.xcodegenSpec = xcodegenSpec
        self.warnings = warnings.isEmpty ? nil : warnings
    }

    /// The report as pretty-printed JSON with sorted snake_case keys and a trailing newline.
    package func jsonText() throws -> String {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self) + "\n"
    }

    /// Versions that disagree between entries of the same target or between a host and its extensions, one line
    /// each, for a warning.
    package var disagreements: [String] {
        var lines: [String] = []
        var byTarget: [String: Set<String>] = [:]
        var order: [String] = []
        for entry in entries {
            if byTarget[entry.target] == nil { order.append(entry.target) }
            byTarget[entry.target, default: []].insert("\(entry.version ?? "-") (\(entry.build ?? "-"))")
        }
        for target in order where (byTarget[target]?.count ?? 0) > 1 {
            lines.append("target '\(target)' has different versions per configuration: \(byTarget[target, default: []].sorted().joined(separator: ", "))")
        }
        for entry in entries {
            guard let host = entry.host,
                let hostEntry = entries.first(where: { $0.target == host && $0.configuration == entry.configuration }),
                hostEntry.version != entry.version
            else { continue }
            lines.append("'\(entry.target)' (\(entry.configuration ?? "-")) is at \(entry.version ?? "no version"), its app '\(host)' at \(hostEntry.version ?? "no version")")
        }
        return lines
    }

    /// The report as an aligned text table, one row per entry, ending with a newline.
    /// - Parameter width: the columns to fit (the terminal's); when the full table is wider, the two "defined at"
    ///   columns move to indented lines under each row, so no line wraps. Nil: one row per line, however long.
    package func table(width: Int? = nil) -> String {
        let header = ["TARGET", "CONFIGURATION", "VERSION", "BUILD", "VERSION DEFINED AT", "BUILD DEFINED AT"]
        var rows = [header]
        for entry in entries {
            rows.append([
                entry.host.map { "\(entry.target) (in \($0))" } ?? entry.target,
                entry.configuration ?? "-",
                entry.version ?? "-",
                entry.build ?? "-",
                entry.versionDefinedAt?.description ?? "-",
                entry.buildDefinedAt?.description ?? "-",
            ])
        }
        var widths = [Int](repeating: 0, count: header.count)
        for row in rows {
            for (column, cell) in row.enumerated() { widths[column] = max(widths[column], cell.count) }
        }
        var text = ""
        if let version {
            text += "\(project): \(version)\(build.map { " (\($0))" } ?? "")"
            if let primaryTarget { text += " [\(primaryTarget)\(primaryConfiguration.map { ", \($0)" } ?? "")]" }
            text += "\n\n"
        }
        let fullWidth = widths.dropLast().reduce(0) { $0 + $1 + 2 } + (widths.last ?? 0)
        let narrow = width.map { fullWidth > $0 } ?? false
        let shown = narrow ? 4 : header.count
        for (index, row) in rows.enumerated() {
            var line = ""
            for (column, cell) in row.prefix(shown).enumerated() {
                line += column == shown - 1 ? cell : cell.padding(toLength: widths[column] + 2, withPad: " ", startingAt: 0)
            }
            text += line + "\n"
            // Folded: where each value is defined, under its row (a path keeps its whole name: cutting it helps nobody).
            if narrow, index > 0 {
                let (version, build) = (row[4], row[5])
                if version == build {
                    text += "    defined at \(version)\n"
                } else {
                    text += "    version at \(version)\n    build at   \(build)\n"
                }
            }
        }
        return text
    }
}

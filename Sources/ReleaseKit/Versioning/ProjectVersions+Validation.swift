extension ProjectVersions {
    /// The longest version or build number accepted: far above any real one (`2026.11.26.123456789-beta.12+abc`).
    static let longestVersion = 64

    /// Whether `text` can be a version or build number: ASCII letters, digits, `.`, `-`, `+` and `_`, starting with a
    /// letter or digit, at most ``longestVersion`` characters. Every scheme in use (`3.0.0`, `7.1.3b5`, `26.07.5`,
    /// `2.0.0-rc.1+42`, `4321`) passes; quotes, `;`, `$`, spaces and control characters, which would be code or
    /// markup in the scripts, tags, branch names and messages a version ends up in, do not.
    package static func isVersionText(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, text.unicodeScalars.count <= longestVersion,
            first.isASCII, first.properties.isAlphabetic || ("0"..."9").contains(first)
        else { return false }
        return text.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || ".-+_".unicodeScalars.contains(scalar))
        }
    }

    /// The versions, or ``VersioningError/notAVersion(_:key:context:)`` for the first version or build number in the
    /// report that is not one, naming where it is defined.
    package func validated() throws(VersioningError) -> ProjectVersions {
        for entry in report.entries {
            for (value, location, key) in [(entry.version, entry.versionDefinedAt, "version"), (entry.build, entry.buildDefinedAt, "build number")] {
                guard let value, !Self.isVersionText(value) else { continue }
                let place = location.map { location in location.line.map { "\(location.file):\($0)" } ?? location.file }
                throw VersioningError.notAVersion(value, key: location.map { "\(key) (\($0.key))" } ?? key, context: place ?? report.project)
            }
        }
        return self
    }
}

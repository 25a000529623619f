/// What a bump does to the marketing version.
package enum VersionChoice: Sendable, Equatable, CustomStringConvertible {
    /// Increment a part of the current version.
    case part(SemanticVersion.Part)
    /// Set this version.
    case exact(SemanticVersion)
    /// Leave the version alone (a `build` bump).
    case keep

    /// Parses `major`, `minor`, `patch`, `build` (keep the version) or a version such as `3.1.0`, `3.1`, `7.1.3b5`.
    /// - Throws: ``VersioningError/invalidVersion(_:context:)``.
    package init(parsing text: String) throws {
        switch text.lowercased() {
        case "major": self = .part(.major)
        case "minor": self = .part(.minor)
        case "patch": self = .part(.patch)
        case "build", "keep": self = .keep
        default:
            guard let version = SemanticVersion(text) else {
                throw VersioningError.invalidVersion(text, context: nil)
            }
            self = .exact(version)
        }
    }

    /// The new version for `current`; `nil` for ``keep``.
    package func apply(to current: SemanticVersion) -> SemanticVersion? {
        switch self {
        case .part(let part): return current.bumped(part)
        case .exact(let version): return version
        case .keep: return nil
        }
    }

    package var description: String {
        switch self {
        case .part(let part): return part.rawValue
        case .exact(let version): return version.description
        case .keep: return "build"
        }
    }
}

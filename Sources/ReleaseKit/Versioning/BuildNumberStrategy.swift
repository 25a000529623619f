import Foundation
import ReleaseSupport

/// How a bump computes the new build number (`CFBundleVersion`).
package enum BuildNumberStrategy: Sendable, Equatable, CustomStringConvertible {
    /// The largest current build number plus one (`4146` → `4147`; `1.2.9` → `1.2.10`).
    case increment
    /// The number of commits on `HEAD` (`git rev-list --count HEAD`); a value when already known.
    case gitCount(Int?)
    /// The UTC time of the bump as `yyyyMMddHHmm`.
    case timestamp
    /// Leave build numbers alone.
    case keep
    /// This number.
    case exact(String)
    /// The value of an environment variable (a CI build number), for example `env:GITHUB_RUN_NUMBER`.
    case environment(String)
    /// The next build number App Store Connect has not seen for the app (any version); the value once it was asked.
    case appStore(String?)

    /// Parses `increment`, `git-count`, `timestamp`, `keep`, `appstore`, `env:NAME` or a build number such as `4321`.
    /// - Throws: ``VersioningError/invalidBuildNumber(_:context:)``.
    package init(parsing text: String) throws {
        switch text {
        case "increment": self = .increment
        case "git-count": self = .gitCount(nil)
        case "timestamp": self = .timestamp
        case "keep": self = .keep
        case "appstore": self = .appStore(nil)
        default:
            if text.hasPrefix("env:") {
                let name = String(text.dropFirst(4))
                guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else {
                    throw VersioningError.invalidBuildNumber(text, context: "expected env:NAME")
                }
                self = .environment(name)
            } else {
                guard Self.isBuildNumber(text) else { throw VersioningError.invalidBuildNumber(text, context: nil) }
                self = .exact(text)
            }
        }
    }

    /// Whether `text` is digits, optionally in dot-separated groups: `4321`, `1.2.9`, and the four groups some
    /// teams ship (`7.75.0.3`, the version with a build counter).
    package static func isBuildNumber(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return (1...4).contains(parts.count)
            && parts.allSatisfy { !$0.isEmpty && $0.count <= 18 && $0.allSatisfy { $0.isASCII && $0.isNumber } }
    }

    /// Whether App Store Connect accepts `text` as a `CFBundleVersion` or `CFBundleShortVersionString`: one to four
    /// period-separated integers (`4321`, `1.4.2`, `7.75.0.3`). Apple documents three ("You can include more integers
    /// but the system ignores them", Xcode Help, "build string"), and TestFlight takes a fourth: Pocket Casts
    /// uploads its `7.75.0.3` builds (`VERSION_LONG`) to TestFlight with fastlane. Five or more, letters or empty
    /// groups are refused.
    package static func isAppStoreBundleVersion(_ text: String) -> Bool {
        isBuildNumber(text)
    }

    /// The build number following `builds`: the largest (compared numerically) with its last group plus one;
    /// `1` when there is none.
    package static func next(after builds: [String]) throws -> String {
        let parsed = builds.compactMap { build -> SemanticVersion? in
            guard isBuildNumber(build) else { return nil }
            return SemanticVersion(build)
        }
        guard let largest = parsed.max() else {
            if let bad = builds.first(where: { !isBuildNumber($0) }) {
                throw VersioningError.buildStrategy("cannot increment build number '\(bad)': it is not a number (pass --build N)")
            }
            return "1"
        }
        var components = largest.components
        components[components.count - 1] += 1
        return components.map(String.init).joined(separator: ".")
    }

    /// The new build number, or `nil` for ``keep``.
    /// - Parameters:
    ///   - currentBuilds: every build number the project has now (for ``increment``).
    ///   - environment: where ``environment(_:)`` looks.
    ///   - now: the clock for ``timestamp``.
    ///   - commitCount: counts the commits on `HEAD`, called only for ``gitCount(_:)`` without a value.
    /// - Throws: ``VersioningError/buildStrategy(_:)``.
    package func resolve(
        currentBuilds: [String], environment: [String: String], now: Date,
        commitCount: () async throws -> Int
    ) async throws -> String? {
        switch self {
        case .increment:
            return try Self.next(after: currentBuilds)
        case .gitCount(let count?):
            return String(count)
        case .gitCount(nil):
            return String(try await commitCount())
        case .timestamp:
            return Timestamp.format(now, pattern: "yyyyMMddHHmm")
        case .keep:
            return nil
        case .exact(let value), .appStore(let value?):
            return value
        case .appStore(nil):
            throw VersioningError.buildStrategy("--build appstore needs the next build number from App Store Connect, which was not looked up")
        case .environment(let name):
            guard let value = environment[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else {
                throw VersioningError.buildStrategy("environment variable '\(name)' is not set (build strategy 'env:\(name)')")
            }
            guard Self.isBuildNumber(value) else {
                throw VersioningError.invalidBuildNumber(value, context: "environment variable '\(name)'")
            }
            return value
        }
    }

    /// Whether the number counts up from what is known (`increment`, `appstore`), so it must also be above what App Store
    /// Connect and the tags know; a number the pipeline gives (exact, `env:`, `git-count`, `timestamp`) stands.
    package var followsHistory: Bool {
        switch self {
        case .increment, .appStore: return true
        case .gitCount, .timestamp, .keep, .exact, .environment: return false
        }
    }

    package var description: String {
        switch self {
        case .increment: return "increment"
        case .gitCount(let count): return count.map { "git-count (\($0))" } ?? "git-count"
        case .timestamp: return "timestamp"
        case .keep: return "keep"
        case .exact(let value): return value
        case .environment(let name): return "env:\(name)"
        case .appStore(let value): return value.map { "appstore (\($0))" } ?? "appstore"
        }
    }
}

import Foundation
import ReleaseAppStoreConnect
import ReleaseSupport
import ReleaseVersioning

/// The builds a release already has outside the project files: the build numbers App Store Connect has seen for the
/// app, and those the repository's tags name. `version.bump` reads it so that every commit on a release branch gets
/// a build number nobody has used (Apple refuses a number it has seen), and so that a build App Store Connect
/// already has is recognised instead of built again.
struct ReleaseHistory: Sendable, Equatable {
    /// A build App Store Connect has for the version being released.
    struct Shipped: Sendable, Equatable {
        var build: String
        /// App Store Connect's id of the build; empty while it is an upload not yet processed into a build.
        var buildID: String
        /// When it was uploaded (App Store Connect's ISO 8601 text), when known.
        var uploaded: String?
    }

    /// Every build number App Store Connect has for the app, any version (builds and uploads that did not fail).
    var appStoreBuilds: [String] = []
    /// The build numbers App Store Connect has for the version being released.
    var appStoreVersionBuilds: [String] = []
    /// Build numbers the tags name (`v3.0.0-4147`, `testers/3.0.0-4147`): builds made before, any version.
    var tagBuilds: [String] = []
    /// Whether App Store Connect was asked.
    var askedAppStore = false

    /// The highest build number anyone has used, compared as build numbers compare (`10` > `9`).
    var highest: String? {
        (appStoreBuilds + tagBuilds).filter(BuildNumberStrategy.isBuildNumber).compactMap { text in SemanticVersion(text).map { (text, $0) } }
            .max { $0.1 < $1.1 }?.0
    }

    /// The first build number above every one App Store Connect and the tags know and above `floor` (the project's
    /// next): what a commit that has no build yet gets.
    func next(above floor: String) throws -> String {
        guard let highest, let known = SemanticVersion(highest), let wanted = SemanticVersion(floor), known >= wanted else { return floor }
        return try BuildNumberStrategy.next(after: [highest])
    }

    /// Whether `build` can no longer be given to a new binary of this version: App Store Connect has it for another
    /// version, or a higher one exists (so a new upload with it would not be the latest).
    func isTaken(_ build: String) -> Bool {
        guard !appStoreVersionBuilds.contains(build) else { return false }
        if appStoreBuilds.contains(build) { return true }
        guard let mine = SemanticVersion(build), let highest = appStoreBuilds.compactMap(SemanticVersion.init).max() else { return false }
        return mine < highest
    }

    /// The build numbers in tag names: the number after `VERSION-` (`v3.0.0-4147`, `v3.0.0-4147_2014-10-22T06-01-18Z`,
    /// `testers/3.0.0-4147`).
    static func builds(inTags tags: [String]) -> [String] {
        tags.compactMap { tag -> String? in
            let scalars = Array(tag.unicodeScalars)
            var index = 0
            while index < scalars.count {
                // A version: digits with at least one dot, then '-', then the build's digits.
                guard CharacterSet.decimalDigits.contains(scalars[index]), index == 0 || !CharacterSet.decimalDigits.contains(scalars[index - 1]) else {
                    index += 1
                    continue
                }
                var end = index
                var dots = 0
                while end < scalars.count,
                    CharacterSet.decimalDigits.contains(scalars[end]) || (scalars[end] == "." && end + 1 < scalars.count && CharacterSet.decimalDigits.contains(scalars[end + 1]))
                {
                    if scalars[end] == "." { dots += 1 }
                    end += 1
                }
                if dots >= 1, end + 1 < scalars.count, scalars[end] == "-", CharacterSet.decimalDigits.contains(scalars[end + 1]) {
                    var buildEnd = end + 1
                    while buildEnd < scalars.count, CharacterSet.decimalDigits.contains(scalars[buildEnd]) || scalars[buildEnd] == "." { buildEnd += 1 }
                    var build = String(String.UnicodeScalarView(scalars[(end + 1)..<buildEnd]))
                    while build.hasSuffix(".") { build.removeLast() }
                    if BuildNumberStrategy.isBuildNumber(build) { return build }
                }
                index = max(end, index + 1)
            }
            return nil
        }
    }

    /// Reads the tags of the repository at `directory` (none outside a repository).
    static func tags(in directory: String, context: StepContext) async -> [String] {
        guard let output = try? await context.capture(["git", "tag", "--list"], directory: directory) else { return [] }
        return output.split(separator: "\n").prefix(100_000).map(String.init)
    }

    /// What App Store Connect has for the app with `bundleID`: every build number, and those of `version`.
    static func appStore(
        access: AppStoreConnectAccess, bundleID: String, version: String?, platform: ApplePlatform, context: StepContext
    ) async throws -> (all: [String], version: [String]) {
        let catalog = AppStoreConnectCatalog(client: try access.client(in: context))
        do {
            let app = try await catalog.app(bundleID: bundleID)
            let all = try await catalog.buildNumbers(appID: app.id, platform: platform).all
            guard let version else { return (all, []) }
            return (all, try await catalog.buildNumbers(appID: app.id, version: version, platform: platform).all)
        } catch AppStoreConnectError.noApp {
            // A new app has no builds yet; the upload says what to do about the missing app record.
            return ([], [])
        }
    }

    /// The build `build` of `version` as App Store Connect has it (its id and upload date), for the log line.
    static func shipped(
        access: AppStoreConnectAccess, bundleID: String, version: String, build: String, platform: ApplePlatform, context: StepContext
    ) async throws -> Shipped {
        let catalog = AppStoreConnectCatalog(client: try access.client(in: context))
        let app = try await catalog.app(bundleID: bundleID)
        if let found = try await catalog.builds(appID: app.id, version: version, build: build, platform: platform).first {
            return Shipped(build: build, buildID: found.id, uploaded: found.attributes?.uploadedDate)
        }
        // An upload App Store Connect is still processing: no build id yet.
        return Shipped(build: build, buildID: "", uploaded: nil)
    }
}

import Foundation
import ReleaseSupport
import ReleaseVersioning

/// Lookups a release needs: the app for a bundle id, the builds of a version, the build numbers taken.
package struct AppStoreConnectCatalog: Sendable {
    package let client: AppStoreConnectClient

    package init(client: AppStoreConnectClient) {
        self.client = client
    }

    /// The app whose bundle id is exactly `bundleID` (the API's filter also matches longer ids).
    /// - Throws: ``AppStoreConnectError/noApp(bundleID:)`` when the team has no such app.
    package func app(bundleID: String) async throws -> Resource<AppAttributes> {
        let apps = try await client.resources(
            AppAttributes.self,
            AppStoreConnectClient.path(
                "/v1/apps",
                [
                    ("filter[bundleId]", bundleID), ("fields[apps]", "bundleId,name"), ("limit", "200"),
                ]))
        guard let app = apps.first(where: { $0.attributes?.bundleId == bundleID }) else {
            throw AppStoreConnectError.noApp(bundleID: bundleID)
        }
        return app
    }

    /// The build numbers of the app with `bundleID` (every version), and of `version` when given.
    package func buildNumbers(bundleID: String, version: String? = nil, platform: ApplePlatform = .iOS) async throws -> (all: BuildNumbers, version: BuildNumbers?) {
        let app = try await app(bundleID: bundleID)
        let all = try await buildNumbers(appID: app.id, platform: platform)
        guard let version else { return (all, nil) }
        return (all, try await buildNumbers(appID: app.id, version: version, platform: platform))
    }

    /// The builds of the app with build number `build` in version `version` on `platform`.
    package func builds(appID: String, version: String, build: String, platform: ApplePlatform) async throws -> [Resource<BuildAttributes>] {
        try await client.resources(
            BuildAttributes.self,
            AppStoreConnectClient.path(
                "/v1/builds",
                [
                    ("filter[app]", appID), ("filter[version]", build), ("filter[preReleaseVersion.version]", version),
                    ("filter[preReleaseVersion.platform]", platform.appStoreConnect), ("limit", "200"),
                ]))
    }

    /// Every build number App Store Connect knows for the app: builds (with their version), and uploads that have not
    /// become builds yet. `version` narrows it to one marketing version.
    package func buildNumbers(appID: String, version: String? = nil, platform: ApplePlatform) async throws -> BuildNumbers {
        var numbers = BuildNumbers()
        var query: [(String, String)] = [("filter[app]", appID), ("filter[preReleaseVersion.platform]", platform.appStoreConnect)]
        if let version { query.append(("filter[preReleaseVersion.version]", version)) }
        query += [("fields[builds]", "version,uploadedDate,processingState"), ("limit", "200")]
        let builds = try await client.resources(BuildAttributes.self, AppStoreConnectClient.path("/v1/builds", query))
        numbers.all += builds.compactMap { $0.attributes?.version }
        let pending = try await uploads(appID: appID, version: version, platform: platform)
        numbers.all += pending.filter { $0.attributes?.state?.state != "FAILED" }.compactMap { $0.attributes?.cfBundleVersion }
        return numbers
    }

    /// The app's build uploads on `platform`, narrowed to a version and a build number when given.
    package func uploads(appID: String, version: String? = nil, build: String? = nil, platform: ApplePlatform) async throws -> [Resource<BuildUploadAttributes>] {
        var query: [(String, String)] = []
        if let version { query.append(("filter[cfBundleShortVersionString]", version)) }
        if let build { query.append(("filter[cfBundleVersion]", build)) }
        query += [("filter[platform]", platform.appStoreConnect), ("limit", "200")]
        return try await client.resources(BuildUploadAttributes.self, AppStoreConnectClient.path("/v1/apps/\(appID)/buildUploads", query))
    }
}

/// Build numbers taken in App Store Connect, and the next free one.
package struct BuildNumbers: Sendable, Equatable {
    /// Every build number seen, as App Store Connect has them (`"42"`, `"3.0.1.7"`).
    package var all: [String] = []

    /// The highest build number, compared as the version engine compares them (`"10"` > `"9"`, `"1.10"` > `"1.9"`);
    /// words that are not build numbers are left out.
    package var latest: String? {
        numeric.compactMap { text in SemanticVersion(text).map { (text, $0) } }.max { $0.1 < $1.1 }?.0
    }

    /// One more than ``latest`` in its last group (`"42"` → `"43"`, `"3.0.1.7"` → `"3.0.1.8"`), as `--build increment`
    /// computes it; `"1"` when there is none.
    package var next: String {
        (try? BuildNumberStrategy.next(after: numeric)) ?? "1"
    }

    /// The build numbers among ``all`` (``BuildNumberStrategy/isBuildNumber(_:)``).
    private var numeric: [String] { all.filter(BuildNumberStrategy.isBuildNumber) }
}

import Foundation
import ReleaseHTTP
import ReleaseVersioning

/// `release bump --build appstore`: asks App Store Connect for the next build number of the project's app, with the
/// API key from the environment (`APP_STORE_CONNECT_KEY_ID`, `APP_STORE_CONNECT_ISSUER_ID`, `APP_STORE_CONNECT_KEY`
/// as PEM text or a path to the .p8) and the bundle id of the project's app target.
package enum AppStoreBuildNumberLookup {
    static let variables = ["APP_STORE_CONNECT_KEY_ID", "APP_STORE_CONNECT_ISSUER_ID", "APP_STORE_CONNECT_KEY"]

    /// The next build number App Store Connect has not seen for the project's app; `log` gets what it found.
    /// - Throws: ``VersioningError/buildStrategy(_:)`` saying what is missing or what App Store Connect answered.
    package static func next(
        project: String?, file: String?, in directory: String, environment: [String: String],
        log: (String) -> Void
    ) async throws -> String {
        let missing = variables.filter { (environment[$0] ?? "").isEmpty }
        guard missing.isEmpty else {
            throw VersioningError.buildStrategy("--build appstore reads the API key from the environment: set \(missing.joined(separator: ", "))")
        }
        let versions = try VersionReader.read(project: project, file: file, in: directory)
        let report = versions.report
        let bundleIDs = report.entries.filter { $0.target == report.primaryTarget }.compactMap(\.bundleIdentifier)
        guard let bundleID = bundleIDs.first(where: { !$0.contains("$") }) else {
            throw VersioningError.buildStrategy(
                "--build appstore needs the app's bundle id, and \(report.primaryTarget.map { "target '\($0)'" } ?? "the project") has none that resolves")
        }
        let key: AppStoreConnectKey
        do {
            key = try AppStoreConnectKey(
                id: environment["APP_STORE_CONNECT_KEY_ID"] ?? "", issuer: environment["APP_STORE_CONNECT_ISSUER_ID"] ?? "",
                pem: environment["APP_STORE_CONNECT_KEY"] ?? "")
        } catch {
            throw VersioningError.buildStrategy("--build appstore: \(error)")
        }
        let api = AppStoreConnectClient.apiURL(environment: environment)
        do {
            let client = try AppStoreConnectClient(apiURL: api, key: key, http: HTTPClient(configuration: .init(environment: environment)))
            let numbers = try await AppStoreConnectCatalog(client: client).buildNumbers(bundleID: bundleID, version: report.version)
            let next = numbers.all.next
            log(
                "App Store Connect: \(bundleID) has build \(numbers.all.latest ?? "none") as its latest"
                    + (report.version.map { $0.isEmpty ? "" : " (\(numbers.version?.latest ?? "none") in \($0))" } ?? "") + "; next build \(next)")
            return next
        } catch let error as AppStoreConnectError {
            throw VersioningError.buildStrategy("--build appstore: \(error)")
        }
    }
}

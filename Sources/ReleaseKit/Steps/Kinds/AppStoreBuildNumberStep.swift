import Foundation
import ReleaseAppStoreConnect
import ReleaseSupport

/// `appstore.build-number`: the latest build number App Store Connect has for a version (and across versions), and
/// the next free one, so a pipeline can stamp the build before archiving. Read-only: it also runs in dry runs.
package struct AppStoreBuildNumberStep: Step {
    package struct Options: StepOptions {
        @StepOption(must: .notBeEmpty(trimmed: true), help: "the app's bundle id, e.g. com.example.app")
        package var bundleID: String
        @StepOption(
            must: .notBeEmpty("must not be empty; leave it out for every version"),
            help: "the marketing version whose builds to read (CFBundleShortVersionString); absent: every version")
        package var version: String?
        @StepOption(help: "App Store Connect's platform: \(ApplePlatform.AppStoreConnectSpelling.wordList)")
        package var platform: ApplePlatformChoice<ApplePlatform.AppStoreConnectSpelling> = .init(.iOS)
        @StepOptionGroup
        package var appStoreConnect: AppStoreConnectOptions

        package init() {}
    }

    package static let kind = "appstore.build-number"
    package static let summary = "Read the latest build number App Store Connect has for a version (and across versions) and the next free one"
    package static let outputs: [StepDocumentation.Output] = [
        .init("latest", "string", "the highest build number of 'version' (empty when it has none)"),
        .init("latest_any_version", "string", "the highest build number of any version (empty when the app has no builds)"),
        .init("next", "string", "one more than the highest build number of any version, so it is free in every version ('1' for a new app)"),
    ]
    package static let example = """
        {"id": "build_number", "uses": "appstore.build-number",
         "with": {"bundle_id": "com.example.app", "version": "${steps.bump.outputs.version}",
                  \(AppStoreConnectOptions.example)}}
        """

    package let options: Options
    let access: AppStoreConnectAccess

    package init(options: Options) throws {
        try options.validate()
        access = AppStoreConnectAccess(options.appStoreConnect)
        self.options = options
    }

    package var isReadOnly: Bool { true }

    package func verify(in context: StepContext) async throws {
        _ = try access.parsedKey(in: context)
    }

    package func plan(in context: StepContext) async throws -> StepPlan {
        let api = try access.apiURL(in: context)
        return StepPlan(effects: [
            .request(method: "GET", url: api + "/v1/builds?filter[app]=…", detail: "read the build numbers of \(options.bundleID)")
        ])
    }

    package func run(in context: StepContext) async throws -> StepOutputs {
        let client = try access.client(in: context)
        do {
            let numbers = try await AppStoreConnectCatalog(client: client).buildNumbers(bundleID: options.bundleID, version: options.version, platform: options.platform.platform)
            let latest = numbers.version?.latest ?? numbers.all.latest
            context.log(
                "\(options.bundleID)" + (options.version.map { " \($0)" } ?? "") + ": latest build "
                    + (latest ?? "none") + ", next \(numbers.all.next)")
            return StepOutputs([
                "latest": .string(latest ?? ""), "latest_any_version": .string(numbers.all.latest ?? ""), "next": .string(numbers.all.next),
            ])
        } catch {
            throw AppStoreConnectAccess.stepError(error)
        }
    }
}

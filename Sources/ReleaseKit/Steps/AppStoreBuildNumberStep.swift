import Foundation

/// `appstore.build-number`: the latest build number App Store Connect has for a version (and across versions), and
/// the next free one, so a pipeline can stamp the build before archiving. Read-only: it also runs in dry runs.
public struct AppStoreBuildNumberStep: Step {
    public struct Options: StepOptions {
        @StepOption(help: "the app's bundle id, e.g. com.example.app")
        public var bundleID: String
        @StepOption(help: "the marketing version whose builds to read (CFBundleShortVersionString); absent: every version")
        public var version: String?
        @StepOption(help: "App Store Connect's platform: IOS, MAC_OS, TV_OS or VISION_OS")
        public var platform: AppStorePlatform = .ios
        @StepOptionGroup
        public var appStoreConnect: AppStoreConnectOptions

        public init() {}
    }

    /// App Store Connect's `Platform`.
    public enum AppStorePlatform: String, OptionChoice, Sendable {
        case ios = "IOS"
        case macOS = "MAC_OS"
        case tvOS = "TV_OS"
        case visionOS = "VISION_OS"
    }

    public static let kind = "appstore.build-number"
    public static let summary = "Read the latest build number App Store Connect has for a version (and across versions) and the next free one"
    public static let outputs: [StepDocumentation.Output] = [
        .init("latest", "string", "the highest build number of 'version' (empty when it has none)"),
        .init("latest_any_version", "string", "the highest build number of any version (empty when the app has no builds)"),
        .init("next", "string", "one more than the highest build number of any version, so it is free in every version ('1' for a new app)"),
    ]
    public static let example = """
        {"id": "build_number", "uses": "appstore.build-number",
         "with": {"bundle_id": "com.example.app", "version": "${steps.bump.outputs.version}",
                  \(AppStoreConnectOptions.example)}}
        """

    public let options: Options
    let access: AppStoreConnectAccess

    public init(options: Options) throws {
        guard !options.bundleID.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw StepError.invalidOption("bundle_id", "must not be empty")
        }
        if options.version?.isEmpty == true { throw StepError.invalidOption("version", "must not be empty; leave it out for every version") }
        access = try AppStoreConnectAccess(options.appStoreConnect)
        self.options = options
    }

    public var isReadOnly: Bool { true }

    public func verify(in context: StepContext) async throws {
        _ = try access.parsedKey(in: context)
    }

    public func plan(in context: StepContext) async throws -> StepPlan {
        let api = try access.apiURL(in: context)
        return StepPlan(effects: [
            .request(method: "GET", url: api + "/v1/builds?filter[app]=…", detail: "read the build numbers of \(options.bundleID)")
        ])
    }

    public func run(in context: StepContext) async throws -> StepOutputs {
        let client = try access.client(in: context)
        do {
            let numbers = try await AppStoreConnectCatalog(client: client).buildNumbers(bundleID: options.bundleID, version: options.version, platform: options.platform.rawValue)
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

import Foundation

/// `appstore.rollout`: controls what happens after App Review approves a version. `release` releases a version
/// waiting for the developer (a release request); `pause`, `resume` and `complete` drive its phased release; `status`
/// (read-only, also in dry runs) prints the version's state and the phased release's day. Each converges: asking for
/// the state the version is already in changes nothing. See ``AppStoreRollout``.
public struct AppStoreRolloutStep: Step {
    public struct Options: StepOptions {
        @StepOption(help: "the app's bundle id, e.g. com.example.app")
        public var bundleID: String
        @StepOption(help: "the App Store version string, e.g. ${steps.bump.outputs.version}")
        public var version: String
        @StepOption(help: "release (a version waiting for the developer), pause, resume or complete (its phased release), or status")
        public var action: Action
        @StepOption(help: "App Store Connect's platform: IOS, MAC_OS, TV_OS or VISION_OS")
        public var platform: AppStoreBuildNumberStep.AppStorePlatform = .ios
        @StepOption(
            help:
                "release: how long to wait while App Review still has the version: approved (the default budget: 5m in CI, until done elsewhere), a duration (30s, 5m, 2h, 1d) or until-done. A budget that runs out ends the step waiting, not failed: the run exits 0 and running it again continues"
        )
        public var wait: WaitBudget = .state("approved")
        @StepOptionGroup
        public var waiting: AppStoreConnectPollingOptions
        @StepOptionGroup
        public var appStoreConnect: AppStoreConnectOptions

        public init() {}
    }

    /// `action`.
    public enum Action: String, OptionChoice, Sendable {
        case release, pause, resume, complete, status
    }

    public static let kind = "appstore.rollout"
    public static let summary = "After approval: release a version waiting for the developer, pause, resume or complete its phased release, or print its status; each converges"
    public static let outputs: [StepDocumentation.Output] = [
        .init("version_id", "string", "the appStoreVersions resource's id"),
        .init("state", "string", "the version's App Store state after the action, e.g. READY_FOR_SALE"),
        .init("phased_state", "string", "the phased release's state (INACTIVE, ACTIVE, PAUSED, COMPLETE); empty without one"),
        .init("day", "number", "the phased release's day (1 to 7); 0 before it starts"),
        .init("changed", "bool", "whether this run changed anything"),
    ]
    public static let example = """
        {"id": "rollout", "uses": "appstore.rollout",
         "with": {"bundle_id": "com.example.app", "version": "${version}", "action": "pause",
                  \(AppStoreConnectOptions.example)}}
        """

    public let options: Options
    let access: AppStoreConnectAccess

    public init(options: Options) throws {
        try StepError.requireNonBlank(["bundle_id": options.bundleID, "version": options.version])
        try options.checkRanges()
        try options.wait.check(states: ["approved"])
        access = try AppStoreConnectAccess(options.appStoreConnect)
        self.options = options
    }

    public var isReadOnly: Bool { options.action == .status }

    public func verify(in context: StepContext) async throws {
        _ = try access.parsedKey(in: context)
    }

    public func plan(in context: StepContext) async throws -> StepPlan {
        let api = try access.apiURL(in: context)
        let what = "\(options.bundleID) \(options.version)"
        let effect: PlannedEffect
        switch options.action {
        case .status: effect = .request(method: "GET", url: api + "/v1/appStoreVersions/{id}/appStoreVersionPhasedRelease", detail: "read the state of \(what)")
        case .release: effect = .request(method: "POST", url: api + "/v1/appStoreVersionReleaseRequests", detail: "release \(what) unless released")
        case .pause, .resume, .complete:
            let target = options.action == .pause ? "PAUSED" : options.action == .resume ? "ACTIVE" : "COMPLETE"
            effect = .request(method: "PATCH", url: api + "/v1/appStoreVersionPhasedReleases/{id}", detail: "set the phased release of \(what) to \(target) unless it is")
        }
        return StepPlan(
            effects: [effect],
            outputs: StepOutputs([
                "version_id": .string(""), "state": .string(""), "phased_state": .string(""), "day": .number(0), "changed": .bool(false),
            ]))
    }

    public func run(in context: StepContext) async throws -> StepOutputs {
        let client = try access.client(in: context)
        let rollout = AppStoreRollout(client: client, log: { context.log($0) })
        do {
            let action = AppStoreRollout.Action(rawValue: options.action.rawValue) ?? .status
            let wait = AppStoreRollout.ReviewWait(
                interval: options.waiting.polling.interval, timeout: options.waiting.polling.timeout,
                budget: options.wait.seconds(in: context.environment))
            let result = try await rollout.perform(
                action, bundleID: options.bundleID, version: options.version, platform: options.platform.rawValue, reviewWait: wait)
            return StepOutputs([
                "version_id": .string(result.versionID), "state": .string(result.state), "phased_state": .string(result.phasedState),
                "day": .number(Double(result.day)), "changed": .bool(result.changed),
            ])
        } catch {
            throw AppStoreConnectAccess.stepError(error)
        }
    }
}

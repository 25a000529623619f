import Foundation
import ReleaseSupport

/// What happens after App Review approves a version: release a version that waits for the developer (a release
/// request), pause, resume or complete its phased release, or read where it is. Each action converges: asking for
/// the state the version is already in changes nothing and says so.
package struct AppStoreRollout: AppStoreConnectWorker {
    /// The rollout actions.
    package enum Action: String, Sendable, CaseIterable {
        case release, pause, resume, complete, status
    }

    /// Where the version is after the action.
    package struct Result: Sendable, Equatable {
        package var versionID: String
        /// The version's `appStoreState`.
        package var state: String
        /// The phased release's state (INACTIVE, ACTIVE, PAUSED, COMPLETE), empty without one.
        package var phasedState: String
        /// The phased release's day (1 to 7), 0 when it has not started.
        package var day: Int
        /// Whether this run changed anything.
        package var changed: Bool

        package init(versionID: String, state: String, phasedState: String, day: Int, changed: Bool) {
            self.versionID = versionID
            self.state = state
            self.phasedState = phasedState
            self.day = day
            self.changed = changed
        }
    }

    /// How `release` waits while App Review still has the version: a look every `interval`, failing at `timeout`
    /// seconds, ending the wait (``AppStoreConnectError/stillWaiting(what:seconds:lastState:)``) at `budget` seconds
    /// (nil: until done).
    package struct ReviewWait: Sendable {
        package var interval: Duration
        package var timeout: Double
        package var budget: Double?

        package init(interval: Duration, timeout: Double, budget: Double?) {
            self.interval = interval
            self.timeout = timeout
            self.budget = budget
        }
    }

    /// The states of a version App Review has not finished with.
    static let inReview: Set<String> = ["WAITING_FOR_REVIEW", "IN_REVIEW"]

    package let session: AppStoreConnectSession

    package init(session: AppStoreConnectSession) { self.session = session }

    /// `action` on the version; with `reviewWait`, `release` of a version App Review still has waits for its verdict
    /// (within the budget) instead of refusing at once.
    package func perform(
        _ action: Action, bundleID: String, version versionString: String, platform: ApplePlatform = .iOS, reviewWait: ReviewWait? = nil
    ) async throws -> Result {
        guard action == .release, let wait = reviewWait else {
            return try await performOnce(action, bundleID: bundleID, version: versionString, platform: platform)
        }
        let poll = AppStoreConnectPoll(
            what: "App Review of version \(versionString)", interval: wait.interval, timeout: wait.timeout, budget: wait.budget,
            sleep: sleep, now: now)
        return try await poll.until(Result.self, since: now()) {
            do {
                return .done(try await performOnce(action, bundleID: bundleID, version: versionString, platform: platform))
            } catch AppStoreConnectError.rolloutRefused(_, _, let reason) {
                guard let state = Self.inReview.first(where: { reason.hasPrefix("it is \($0);") }) else {
                    throw AppStoreConnectError.rolloutRefused(action: action.rawValue, version: versionString, reason: reason)
                }
                log("version \(versionString) is \(state): waiting for App Review")
                return .waiting(state: state)
            }
        }
    }

    private func performOnce(_ action: Action, bundleID: String, version versionString: String, platform: ApplePlatform) async throws -> Result {
        let app = try await AppStoreConnectCatalog(client: client).app(bundleID: bundleID)
        let versions = try await client.resources(
            AppStoreVersionAttributes.self,
            AppStoreConnectClient.path(
                "/v1/apps/\(app.id)/appStoreVersions", [("filter[platform]", platform.appStoreConnect), ("limit", "200")]))
        guard let version = versions.first(where: { $0.attributes?.versionString == versionString }) else {
            throw AppStoreConnectError.noVersion(version: versionString, platform: platform, existing: versions.compactMap { $0.attributes?.versionString })
        }
        let state = version.attributes?.appStoreState ?? ""
        var phased = try await phasedRelease(of: version)
        var result = Result(
            versionID: version.id, state: state, phasedState: phased?.attributes?.phasedReleaseState ?? "",
            day: phased?.attributes?.currentDayNumber ?? 0, changed: false)
        let what = "version \(versionString)"
        let refuse = { (reason: String) in AppStoreConnectError.rolloutRefused(action: action.rawValue, version: versionString, reason: reason) }

        switch action {
        case .status:
            break
        case .release:
            if state == "PENDING_DEVELOPER_RELEASE" {
                try await client.write(
                    "POST", "/v1/appStoreVersionReleaseRequests",
                    Components.Schemas.AppStoreVersionReleaseRequestCreateRequest(
                        data: .init(
                            _type: .appStoreVersionReleaseRequests,
                            relationships: .init(appStoreVersion: .init(data: .init(_type: .appStoreVersions, id: version.id))))))
                log("released \(what)")
                result.changed = true
                result.state = try await client.resource(AppStoreVersionAttributes.self, "/v1/appStoreVersions/\(version.id)").attributes?.appStoreState ?? state
                phased = try await phasedRelease(of: version)
            } else if ["READY_FOR_SALE", "PROCESSING_FOR_APP_STORE", "PENDING_APPLE_RELEASE", "REPLACED_WITH_NEW_VERSION"].contains(state) {
                log("\(what) is \(state): already released (or scheduled); nothing to change")
            } else {
                throw refuse("it is \(state); only a version App Review approved with a manual release (PENDING_DEVELOPER_RELEASE) can be released")
            }
        case .pause, .resume, .complete:
            guard let current = phased else {
                if action == .complete && state == "READY_FOR_SALE" {
                    log("\(what) is READY_FOR_SALE without a phased release: every user already gets it; nothing to change")
                    break
                }
                throw refuse("it has no phased release (create one with appstore.submit's 'phased: true' before it is released)")
            }
            let phasedState = current.attributes?.phasedReleaseState ?? ""
            let target: Components.Schemas.PhasedReleaseState = action == .pause ? .paused : action == .resume ? .active : .complete
            if phasedState == target.rawValue {
                log("the phased release of \(what) is \(target.rawValue): nothing to change")
                break
            }
            switch (phasedState, action) {
            case ("INACTIVE", _):
                throw refuse("its phased release has not started (the version is \(state); it starts when the version is released)")
            case ("COMPLETE", _):
                throw refuse("its phased release is COMPLETE")
            default:
                phased = try await client.write(
                    "PATCH", "/v1/appStoreVersionPhasedReleases/\(current.id)",
                    Components.Schemas.AppStoreVersionPhasedReleaseUpdateRequest(
                        data: .init(_type: .appStoreVersionPhasedReleases, id: current.id, attributes: .init(phasedReleaseState: target))),
                    as: PhasedReleaseAttributes.self)
                log("phased release of \(what): \(phasedState) → \(target.rawValue)")
                result.changed = true
            }
        }
        result.phasedState = phased?.attributes?.phasedReleaseState ?? ""
        result.day = phased?.attributes?.currentDayNumber ?? 0
        log(
            "\(what) is \(result.state)" + (result.phasedState.isEmpty ? "" : "; phased release \(result.phasedState)")
                + (result.day > 0 ? ", day \(result.day) of 7" : ""))
        return result
    }

    /// The version's phased release, nil when it has none (404).
    func phasedRelease(of version: Resource<AppStoreVersionAttributes>) async throws -> Resource<PhasedReleaseAttributes>? {
        do {
            return try await client.resource(PhasedReleaseAttributes.self, "/v1/appStoreVersions/\(version.id)/appStoreVersionPhasedRelease")
        } catch AppStoreConnectError.api(_, _, 404, _) {
            return nil
        }
    }
}

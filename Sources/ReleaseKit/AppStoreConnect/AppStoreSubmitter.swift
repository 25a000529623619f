import Foundation
import ReleaseSupport

/// Submits a build to App Review: finds or creates the App Store version, sets its release type and What's New per
/// locale, attaches the build (once processed), optionally creates a phased release, and submits it through a review
/// submission (the app's open one is reused, never duplicated).
///
/// It converges: every write is preceded by a read and made only when the state differs, so a re-run once the
/// version is `WAITING_FOR_REVIEW` (or later) sends no write at all. Everything that would make a run stop half-way
/// (no such build, a build of another version, a version past editing, a rejection not dealt with, another submission
/// in progress) is found before the first write.
package struct AppStoreSubmitter: AppStoreConnectWorker {
    /// What to submit.
    package struct Request: Sendable {
        package var bundleID: String
        package var version: String
        package var build: String
        package var platform: ApplePlatform
        /// Locale → What's New text.
        package var whatsNew: [String: String]
        /// `MANUAL`, `AFTER_APPROVAL` or `SCHEDULED`; nil leaves it as it is.
        package var releaseType: String?
        /// ISO 8601, for `SCHEDULED`.
        package var earliestReleaseDate: String?
        /// true: make sure a phased release exists; false: remove one that has not started; nil: leave it.
        package var phased: Bool?
        /// false: prepare the version and stop before App Review.
        package var submit: Bool
        /// Cancel a submission App Review left with unresolved issues, and submit again.
        package var cancelOpenSubmission: Bool
        package var pollInterval: Duration
        package var waitTimeout: Double
        /// How long this run may wait for the build's processing before the step ends waiting; nil waits until done.
        package var waitBudget: Double? = nil

        package init(
            bundleID: String, version: String, build: String, platform: ApplePlatform = .iOS, whatsNew: [String: String] = [:],
            releaseType: String? = nil, earliestReleaseDate: String? = nil, phased: Bool? = nil, submit: Bool = true,
            cancelOpenSubmission: Bool = false, pollInterval: Duration = .seconds(15), waitTimeout: Double = 3600
        ) {
            self.bundleID = bundleID
            self.version = version
            self.build = build
            self.platform = platform
            self.whatsNew = whatsNew
            self.releaseType = releaseType
            self.earliestReleaseDate = earliestReleaseDate
            self.phased = phased
            self.submit = submit
            self.cancelOpenSubmission = cancelOpenSubmission
            self.pollInterval = pollInterval
            self.waitTimeout = waitTimeout
        }
    }

    /// Where the version ended up, and what this run changed.
    package struct Result: Sendable, Equatable {
        package var versionID: String
        package var submissionID: String
        /// The version's `appStoreState` after the run.
        package var state: String
        package var changed: [String] = []
        package var unchanged: [String] = []
    }

    /// Version states in which metadata and build can change.
    package static let editableStates: Set<String> = ["PREPARE_FOR_SUBMISSION", "DEVELOPER_REJECTED", "REJECTED", "METADATA_REJECTED", "INVALID_BINARY"]
    /// Version states that mean the version is submitted (or past it): a re-run has nothing to do.
    package static let submittedStates: Set<String> = [
        "WAITING_FOR_REVIEW", "IN_REVIEW", "WAITING_FOR_EXPORT_COMPLIANCE", "PENDING_DEVELOPER_RELEASE", "PENDING_APPLE_RELEASE",
        "PROCESSING_FOR_APP_STORE", "READY_FOR_SALE", "ACCEPTED", "PREORDER_READY_FOR_SALE", "REPLACED_WITH_NEW_VERSION",
    ]
    /// Submission states that count as open (App Store Connect keeps one per app and platform).
    static let openSubmissionStates = ["READY_FOR_REVIEW", "WAITING_FOR_REVIEW", "IN_REVIEW", "UNRESOLVED_ISSUES", "CANCELING", "COMPLETING"]

    package let session: AppStoreConnectSession

    package init(session: AppStoreConnectSession) {
        self.session = session
    }

    typealias Version = Resource<AppStoreVersionAttributes>
    typealias Submission = Resource<ReviewSubmissionAttributes>

    package func submit(_ request: Request) async throws -> Result {
        let catalog = AppStoreConnectCatalog(client: client)
        let app = try await catalog.app(bundleID: request.bundleID)
        let versions = try await self.versions(appID: app.id, platform: request.platform)
        let existing = versions.first { $0.attributes?.versionString == request.version }
        let what = "App Store version \(request.version)"

        if let existing, let state = existing.attributes?.appStoreState, Self.submittedStates.contains(state) {
            let submission = try await submissions(appID: app.id, platform: request.platform).first { $0.related["appStoreVersionForReview"] == existing.id }
            log("\(what) is \(state): already submitted; nothing to change")
            return Result(versionID: existing.id, submissionID: submission?.id ?? "", state: state, unchanged: ["\(what) (\(state))"])
        }
        if let existing, let state = existing.attributes?.appStoreState, !Self.editableStates.contains(state) {
            throw AppStoreConnectError.versionNotEditable(version: request.version, state: state)
        }

        // Preflight: everything that could stop the run is found before the first write.
        let buildID = try await processedBuild(request, appID: app.id, catalog: catalog)
        var open: Submission?
        var unresolved: Submission?
        if request.submit {
            for submission in try await submissions(appID: app.id, platform: request.platform) {
                switch submission.attributes?.state ?? "" {
                case "READY_FOR_REVIEW":
                    open = submission
                case "UNRESOLVED_ISSUES":
                    let rejected = try await rejectedItems(submission, versions: versions)
                    guard request.cancelOpenSubmission else { throw AppStoreConnectError.unresolvedIssues(submissionID: submission.id, rejected: rejected) }
                    log(
                        "App Review left review submission \(submission.id) with unresolved issues (\(rejected.joined(separator: ", "))); canceling it as cancel_open_submission asks"
                    )
                    unresolved = submission
                default:
                    let items = try await itemLabels(submission, versions: versions)
                    throw AppStoreConnectError.submissionInProgress(submissionID: submission.id, state: submission.attributes?.state ?? "", items: items)
                }
            }
        }

        var result = Result(versionID: existing?.id ?? "", submissionID: "", state: existing?.attributes?.appStoreState ?? "")
        if let unresolved {
            try await cancel(unresolved)
            result.changed.append("canceled review submission \(unresolved.id)")
        }
        var version = try await ensureVersion(request, existing: existing, versions: versions, appID: app.id, result: &result)
        result.versionID = version.id
        try await setWhatsNew(request, versionID: version.id, result: &result)
        if version.related["build"] == buildID {
            result.unchanged.append("build \(request.build)")
        } else {
            try await client.write(
                "PATCH", "/v1/appStoreVersions/\(version.id)/relationships/build",
                Components.Schemas.AppStoreVersionBuildLinkageRequest(data: .init(_type: .builds, id: buildID)))
            result.changed.append("build \(request.build) attached")
        }
        try await ensurePhased(request, version: version, result: &result)

        if request.submit {
            let submission = try await submitForReview(request, versionID: version.id, appID: app.id, reuse: open, result: &result)
            result.submissionID = submission.id
            version = try await client.resource(AppStoreVersionAttributes.self, "/v1/appStoreVersions/\(version.id)")
        }
        result.state = version.attributes?.appStoreState ?? result.state
        for line in result.changed { log("set \(line)") }
        for line in result.unchanged { log("\(line): already so") }
        log("\(what) is \(result.state)")
        return result
    }

    // MARK: Reads

    func versions(appID: String, platform: ApplePlatform) async throws -> [Version] {
        try await client.resources(
            AppStoreVersionAttributes.self,
            AppStoreConnectClient.path(
                "/v1/apps/\(appID)/appStoreVersions", [("filter[platform]", platform.appStoreConnect), ("limit", "200")]))
    }

    func submissions(appID: String, platform: ApplePlatform) async throws -> [Submission] {
        try await client.resources(
            ReviewSubmissionAttributes.self,
            AppStoreConnectClient.path(
                "/v1/reviewSubmissions",
                [
                    ("filter[app]", appID), ("filter[platform]", platform.appStoreConnect), ("filter[state]", Self.openSubmissionStates.joined(separator: ",")),
                    ("limit", "200"),
                ]))
    }

    func items(_ submission: Submission) async throws -> [Resource<ReviewSubmissionItemAttributes>] {
        try await client.resources(
            ReviewSubmissionItemAttributes.self,
            AppStoreConnectClient.path(
                "/v1/reviewSubmissions/\(submission.id)/items", [("limit", "200")]))
    }

    /// `version 1.4.0 (REJECTED)` for each item of a submission.
    func itemLabels(_ submission: Submission, versions: [Version]) async throws -> [String] {
        try await items(submission).map { item in
            let version = versions.first { $0.id == item.related["appStoreVersion"] }?.attributes?.versionString
            return (version.map { "version \($0)" } ?? "an item") + " (\(item.attributes?.state ?? "?"))"
        }
    }

    func rejectedItems(_ submission: Submission, versions: [Version]) async throws -> [String] {
        try await itemLabels(submission, versions: versions).filter { $0.hasSuffix("(REJECTED)") }
    }

    /// The build's id once it is processed: found by number in this version, waiting for an upload on its way and
    /// for processing; a build number that exists only in other versions is named.
    func processedBuild(_ request: Request, appID: String, catalog: AppStoreConnectCatalog) async throws -> String {
        let started = now()
        let distributor = TestFlightDistributor(session: session)
        var lookup = TestFlightDistributor.Request(
            bundleID: request.bundleID, version: request.version, build: request.build,
            platform: request.platform, pollInterval: request.pollInterval, waitTimeout: request.waitTimeout)
        lookup.waitBudget = request.waitBudget
        let buildID: String
        do {
            buildID = try await distributor.findBuild(lookup, appID: appID, catalog: catalog, started: started)
        } catch AppStoreConnectError.noBuild {
            let trains = try await client.resources(
                PreReleaseVersionAttributes.self,
                AppStoreConnectClient.path(
                    "/v1/preReleaseVersions",
                    [
                        ("filter[app]", appID), ("filter[builds.version]", request.build), ("filter[platform]", request.platform.appStoreConnect), ("limit", "200"),
                    ])
            ).compactMap { $0.attributes?.version }.filter { $0 != request.version }
            if !trains.isEmpty { throw AppStoreConnectError.buildOfOtherVersion(build: request.build, version: request.version, actual: trains.sorted()) }
            throw AppStoreConnectError.noBuild(version: request.version, build: request.build)
        }
        let uploader = AppStoreConnectUploader(session: session)
        _ = try await uploader.waitUntilProcessed(
            buildID: buildID, version: request.version, build: request.build,
            pollInterval: request.pollInterval, timeout: request.waitTimeout, budget: request.waitBudget, since: started)
        return buildID
    }

    // MARK: Writes

    /// The version, created (or, as fastlane does, an editable version of another string renamed) when absent, with
    /// the release type and date asked for.
    func ensureVersion(_ request: Request, existing: Version?, versions: [Version], appID: String, result: inout Result) async throws -> Version {
        typealias ReleaseType = Components.Schemas.AppStoreVersionUpdateRequest.DataPayload.AttributesPayload.ReleaseTypePayload
        var releaseType: ReleaseType?
        if let wanted = request.releaseType, wanted != existing?.attributes?.releaseType {
            releaseType = try AppStoreConnectClient.contract(wanted, as: ReleaseType.self, what: "an App Store version's release type")
        }
        var earliestReleaseDate: Date?
        if let date = request.earliestReleaseDate, !Self.sameInstant(date, existing?.attributes?.earliestReleaseDate) {
            guard let instant = Timestamp.parseISO8601(date) else {
                throw AppStoreConnectError.notInContract(what: "an App Store version's earliest release date", value: date, allowed: ["ISO 8601 date-times"])
            }
            earliestReleaseDate = instant
        }
        let changes = releaseType != nil || earliestReleaseDate != nil
        guard let existing else {
            if let draft = versions.first(where: { Self.editableStates.contains($0.attributes?.appStoreState ?? "") }) {
                let renamed = try await client.write(
                    "PATCH", "/v1/appStoreVersions/\(draft.id)",
                    Components.Schemas.AppStoreVersionUpdateRequest(
                        data: .init(
                            _type: .appStoreVersions, id: draft.id,
                            attributes: .init(versionString: request.version, releaseType: releaseType, earliestReleaseDate: earliestReleaseDate))),
                    as: AppStoreVersionAttributes.self)
                result.changed.append("App Store version \(draft.attributes?.versionString ?? "?") renamed to \(request.version)")
                return renamed
            }
            let platform = request.platform.contractPlatform
            let created = try await client.write(
                "POST", "/v1/appStoreVersions",
                Components.Schemas.AppStoreVersionCreateRequest(
                    data: .init(
                        _type: .appStoreVersions,
                        attributes: .init(
                            platform: platform, versionString: request.version,
                            releaseType: releaseType.flatMap { .init(rawValue: $0.rawValue) }, earliestReleaseDate: earliestReleaseDate),
                        relationships: .init(app: .init(data: .init(_type: .apps, id: appID))))),
                as: AppStoreVersionAttributes.self)
            result.changed.append("App Store version \(request.version) created")
            return created
        }
        guard changes else {
            if request.releaseType != nil { result.unchanged.append("release type \(existing.attributes?.releaseType ?? "")") }
            return existing
        }
        let updated = try await client.write(
            "PATCH", "/v1/appStoreVersions/\(existing.id)",
            Components.Schemas.AppStoreVersionUpdateRequest(
                data: .init(
                    _type: .appStoreVersions, id: existing.id,
                    attributes: .init(releaseType: releaseType, earliestReleaseDate: earliestReleaseDate))),
            as: AppStoreVersionAttributes.self)
        result.changed.append(
            "release type \(request.releaseType ?? existing.attributes?.releaseType ?? "")"
                + (request.earliestReleaseDate.map { " from \($0)" } ?? ""))
        return updated
    }

    static func sameInstant(_ left: String, _ right: String?) -> Bool {
        guard let right else { return false }
        if left == right { return true }
        guard let a = Timestamp.parseISO8601(left), let b = Timestamp.parseISO8601(right) else { return false }
        return a == b
    }

    func setWhatsNew(_ request: Request, versionID: String, result: inout Result) async throws {
        let changes = try await client.convergeWhatsNew(
            AppStoreVersionLocalizationAttributes.self,
            existing: AppStoreConnectClient.path("/v1/appStoreVersions/\(versionID)/appStoreVersionLocalizations", [("limit", "200")]),
            texts: request.whatsNew, parentID: versionID)
        result.changed += changes.changed.map { "What's New (\($0))" }
        result.unchanged += changes.unchanged.map { "What's New (\($0))" }
    }

    func ensurePhased(_ request: Request, version: Version, result: inout Result) async throws {
        guard let phased = request.phased else { return }
        let current = version.related["appStoreVersionPhasedRelease"]
        switch (phased, current) {
        case (true, nil):
            try await client.write(
                "POST", "/v1/appStoreVersionPhasedReleases",
                Components.Schemas.AppStoreVersionPhasedReleaseCreateRequest(
                    data: .init(
                        _type: .appStoreVersionPhasedReleases, attributes: .init(phasedReleaseState: .inactive),
                        relationships: .init(appStoreVersion: .init(data: .init(_type: .appStoreVersions, id: version.id))))))
            result.changed.append("phased release (starts when the version is released)")
        case (true, _?):
            result.unchanged.append("phased release")
        case (false, let id?):
            _ = try await client.send("DELETE", "/v1/appStoreVersionPhasedReleases/\(id)")
            result.changed.append("phased release removed")
        case (false, nil):
            result.unchanged.append("no phased release")
        }
    }

    /// Cancels a submission and waits until App Store Connect has finished canceling it.
    func cancel(_ submission: Submission) async throws {
        _ = try await client.write(
            "PATCH", "/v1/reviewSubmissions/\(submission.id)",
            Components.Schemas.ReviewSubmissionUpdateRequest(data: .init(_type: .reviewSubmissions, id: submission.id, attributes: .init(canceled: true))),
            as: ReviewSubmissionAttributes.self)
        let poll = AppStoreConnectPoll(
            what: "canceling review submission \(submission.id)", interval: .seconds(2), timeout: 600, budget: nil, sleep: sleep, now: now)
        try await poll.until(Void.self, since: now()) {
            let state = try await client.resource(ReviewSubmissionAttributes.self, "/v1/reviewSubmissions/\(submission.id)").attributes?.state ?? ""
            return state == "COMPLETE" ? .done(()) : .waiting(state: state)
        }
    }

    /// Adds the version to the open submission (or a new one) unless it is there, and submits it.
    func submitForReview(_ request: Request, versionID: String, appID: String, reuse: Submission?, result: inout Result) async throws -> Submission {
        var submission: Submission
        if let reuse {
            submission = reuse
            result.unchanged.append("review submission \(reuse.id) (READY_FOR_REVIEW, reused)")
        } else {
            do {
                let platform = request.platform.contractPlatform
                submission = try await client.write(
                    "POST", "/v1/reviewSubmissions",
                    Components.Schemas.ReviewSubmissionCreateRequest(
                        data: .init(
                            _type: .reviewSubmissions, attributes: .init(platform: platform),
                            relationships: .init(app: .init(data: .init(_type: .apps, id: appID))))),
                    as: ReviewSubmissionAttributes.self)
                result.changed.append("review submission \(submission.id) created")
            } catch AppStoreConnectError.api(_, _, 409, let errors) {
                // Another run (or a person) opened one since the preflight: use it when it still takes items.
                guard let open = try await submissions(appID: appID, platform: request.platform).first(where: { $0.attributes?.state == "READY_FOR_REVIEW" }) else {
                    throw AppStoreConnectError.api(method: "POST", path: "/v1/reviewSubmissions", status: 409, errors: errors)
                }
                submission = open
                result.unchanged.append("review submission \(open.id) (READY_FOR_REVIEW, reused)")
            }
        }
        if try await items(submission).contains(where: { $0.related["appStoreVersion"] == versionID && $0.attributes?.state != "REMOVED" }) {
            result.unchanged.append("version \(request.version) in the submission")
        } else {
            try await client.write(
                "POST", "/v1/reviewSubmissionItems",
                Components.Schemas.ReviewSubmissionItemCreateRequest(
                    data: .init(
                        _type: .reviewSubmissionItems,
                        relationships: .init(
                            reviewSubmission: .init(data: .init(_type: .reviewSubmissions, id: submission.id)),
                            appStoreVersion: .init(data: .init(_type: .appStoreVersions, id: versionID))))))
            result.changed.append("version \(request.version) added to the submission")
        }
        submission = try await client.write(
            "PATCH", "/v1/reviewSubmissions/\(submission.id)",
            Components.Schemas.ReviewSubmissionUpdateRequest(data: .init(_type: .reviewSubmissions, id: submission.id, attributes: .init(submitted: true))),
            as: ReviewSubmissionAttributes.self)
        result.changed.append("submitted for review (\(submission.attributes?.state ?? "WAITING_FOR_REVIEW"))")
        return submission
    }
}

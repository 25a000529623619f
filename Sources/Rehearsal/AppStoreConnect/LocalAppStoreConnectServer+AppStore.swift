import Foundation
import ReleaseAppStoreConnect
import ReleaseSupport

/// The App Store side: versions and their localizations, the build a version ships, review submissions and their
/// items with App Review's state machine, phased releases and release requests.
///
/// Apple's rules played here: one version of an app per platform may be in flight (created, in review, waiting for
/// release) at a time; a version's metadata and build change only while it is editable; a build must be `VALID`
/// and of the version's marketing version; an app has at most one open review submission per platform (a second
/// one is the 409 "There is another reviewSubmissions … still in progress"); submitting needs an item whose
/// version has a build; canceling goes through `CANCELING`; a phased release is `INACTIVE` until its version is
/// released and then moves `ACTIVE ⇄ PAUSED → COMPLETE`. App Review itself is ``finishReview(bundleID:version:platform:approved:)``.
extension LocalAppStoreConnectServer {
    /// Version states in which metadata, release type and build may change.
    static let editableStates: Set<String> = ["PREPARE_FOR_SUBMISSION", "DEVELOPER_REJECTED", "REJECTED", "METADATA_REJECTED", "INVALID_BINARY"]
    /// Version states that no longer block a new version.
    static let finishedStates: Set<String> = ["READY_FOR_SALE", "REPLACED_WITH_NEW_VERSION", "DEVELOPER_REMOVED_FROM_SALE", "REMOVED_FROM_SALE"]
    /// Review submission states that still count as in progress.
    static let openSubmissionStates: Set<String> = ["READY_FOR_REVIEW", "WAITING_FOR_REVIEW", "IN_REVIEW", "UNRESOLVED_ISSUES", "CANCELING", "COMPLETING"]

    func handleAppStore(_ request: APIRequest) async throws -> Reply {
        switch request.operation {
        case .appAppStoreVersions: return try listVersions(request)
        case .appStoreVersionsCreate: return try createVersion(request)
        case .appStoreVersionsGet: return try instance(request, "appStoreVersions", \.appStoreVersions, id: \.id, render: versionRenderer())
        case .appStoreVersionsUpdate: return try updateVersion(request)
        case .appStoreVersionBuild: return try buildOfVersion(request)
        case .appStoreVersionBuildUpdate: return try attachBuild(request)
        case .appStoreVersionLocalizationsOfVersion: return try versionLocalizations(request)
        case .appStoreVersionLocalizationsCreate: return try createVersionLocalization(request)
        case .appStoreVersionLocalizationsGet:
            return try instance(request, "appStoreVersionLocalizations", \.versionLocalizations, id: \.id, render: versionLocalizationJSON)
        case .appStoreVersionLocalizationsUpdate: return try updateVersionLocalization(request)
        case .reviewSubmissionsList: return try listReviewSubmissions(request)
        case .reviewSubmissionsCreate: return try createReviewSubmission(request)
        case .reviewSubmissionsGet: return try getReviewSubmission(request)
        case .reviewSubmissionsUpdate: return try updateReviewSubmission(request)
        case .reviewSubmissionItemsOfSubmission: return try reviewItems(request)
        case .reviewSubmissionItemsCreate: return try createReviewItem(request)
        case .reviewSubmissionItemsDelete: return try deleteReviewItem(request)
        case .phasedReleasesCreate: return try createPhasedRelease(request)
        case .phasedReleasesUpdate: return try updatePhasedRelease(request)
        case .phasedReleasesDelete: return try deletePhasedRelease(request)
        case .phasedReleaseOfVersion: return try phasedReleaseOfVersion(request)
        case .releaseRequestsCreate: return try createReleaseRequest(request)
        case .appStoreVersionCustomerReviews: return try customerReviews(request)
        default: throw AppStoreConnectProblem.unknownPath
        }
    }

    // MARK: Seeding and App Review

    /// Adds an App Store version in `state` to the app of `bundleID` (created if missing); returns its id.
    @discardableResult
    package func addAppStoreVersion(
        bundleID: String, version: String, platform: ApplePlatform = .iOS, state: String = "PREPARE_FOR_SUBMISSION",
        releaseType: String? = "AFTER_APPROVAL"
    ) -> String {
        mutate { server in
            let appID = server.snapshot.app(bundleID: bundleID, name: bundleID)
            let created = Self.newVersion(appID: appID, platform: platform.appStoreConnect, versionString: version, releaseType: releaseType, in: &server.snapshot)
            server.snapshot.appStoreVersions[created].appStoreState = state
            return server.snapshot.appStoreVersions[created].id
        }
    }

    /// Plays App Review for the version of `bundleID` waiting for (or in) review: approval moves it on by its
    /// release type (`MANUAL` → `PENDING_DEVELOPER_RELEASE`, `SCHEDULED` → `PENDING_APPLE_RELEASE`, otherwise
    /// released, its phased release starting); a rejection leaves the submission `UNRESOLVED_ISSUES`, the item and
    /// the version `REJECTED`. Returns false when no such version is in review.
    @discardableResult
    package func finishReview(bundleID: String, version: String, platform: ApplePlatform = .iOS, approved: Bool) -> Bool {
        mutate { state in
            guard let appID = state.snapshot.apps.first(where: { $0.bundleID == bundleID })?.id,
                let index = state.snapshot.appStoreVersions.firstIndex(where: {
                    $0.appID == appID && $0.platform == platform.appStoreConnect && $0.versionString == version
                        && ["WAITING_FOR_REVIEW", "IN_REVIEW"].contains($0.appStoreState)
                })
            else { return false }
            let versionID = state.snapshot.appStoreVersions[index].id
            for item in state.snapshot.reviewItems.indices where state.snapshot.reviewItems[item].versionID == versionID {
                guard let submission = state.snapshot.reviewSubmissions.firstIndex(where: { $0.id == state.snapshot.reviewItems[item].submissionID }),
                    ["WAITING_FOR_REVIEW", "IN_REVIEW"].contains(state.snapshot.reviewSubmissions[submission].state)
                else { continue }
                state.snapshot.reviewItems[item].state = approved ? "APPROVED" : "REJECTED"
                state.snapshot.reviewSubmissions[submission].state = approved ? "COMPLETE" : "UNRESOLVED_ISSUES"
            }
            guard approved else {
                state.snapshot.appStoreVersions[index].appStoreState = "REJECTED"
                return true
            }
            switch state.snapshot.appStoreVersions[index].releaseType {
            case "MANUAL": state.snapshot.appStoreVersions[index].appStoreState = "PENDING_DEVELOPER_RELEASE"
            case "SCHEDULED": state.snapshot.appStoreVersions[index].appStoreState = "PENDING_APPLE_RELEASE"
            default: Self.release(versionAt: index, in: &state.snapshot)
            }
            return true
        }
    }

    static func release(versionAt index: Int, in snapshot: inout AppStoreConnectSnapshot) {
        snapshot.appStoreVersions[index].appStoreState = "READY_FOR_SALE"
        let id = snapshot.appStoreVersions[index].id
        let appID = snapshot.appStoreVersions[index].appID
        let platform = snapshot.appStoreVersions[index].platform
        for other in snapshot.appStoreVersions.indices
        where other != index && snapshot.appStoreVersions[other].appID == appID
            && snapshot.appStoreVersions[other].platform == platform && snapshot.appStoreVersions[other].appStoreState == "READY_FOR_SALE"
        {
            snapshot.appStoreVersions[other].appStoreState = "REPLACED_WITH_NEW_VERSION"
        }
        if let phased = snapshot.phasedReleases.firstIndex(where: { $0.versionID == id }), snapshot.phasedReleases[phased].state == "INACTIVE" {
            snapshot.phasedReleases[phased].state = "ACTIVE"
            snapshot.phasedReleases[phased].startDate = Date()
            snapshot.phasedReleases[phased].currentDayNumber = 1
            snapshot.phasedReleases[phased].totalPauseDuration = 0
        }
    }

    /// Appends a version (with a localization in the app's primary locale, as App Store Connect makes one); returns
    /// its index.
    static func newVersion(appID: String, platform: String, versionString: String, releaseType: String?, in snapshot: inout AppStoreConnectSnapshot) -> Int {
        let version = AppStoreConnectSnapshot.AppStoreVersion(
            id: UUID().uuidString.lowercased(), appID: appID, platform: platform, versionString: versionString,
            appStoreState: "PREPARE_FOR_SUBMISSION", releaseType: releaseType, createdDate: Date())
        snapshot.appStoreVersions.append(version)
        let locale = snapshot.apps.first { $0.id == appID }?.primaryLocale ?? "en-US"
        snapshot.versionLocalizations.append(.init(id: UUID().uuidString.lowercased(), versionID: version.id, locale: locale))
        return snapshot.appStoreVersions.count - 1
    }

    // MARK: Versions

    private func versionIndex(_ id: String, in snapshot: AppStoreConnectSnapshot, pointer: String? = nil) throws -> Int {
        guard let index = snapshot.appStoreVersions.firstIndex(where: { $0.id == id }) else {
            if let pointer {
                throw AppStoreConnectProblem.invalidRelationship(pointer, "There is no resource of type 'appStoreVersions' with id '\(id)'", status: 422)
            }
            throw AppStoreConnectProblem.notFound("appStoreVersions", id)
        }
        return index
    }

    private static func requireEditable(_ version: AppStoreConnectSnapshot.AppStoreVersion, _ what: String, pointer: String? = nil) throws {
        guard editableStates.contains(version.appStoreState) else {
            throw AppStoreConnectProblem.state(
                "The App Store version '\(version.versionString)' is in the state '\(version.appStoreState)'; \(what) can only change while it is editable.",
                pointer: pointer)
        }
    }

    func listVersions(_ request: APIRequest) throws -> Reply {
        let render = versionRenderer()
        let versions: [AppStoreConnectSnapshot.AppStoreVersion] = try state.withLock { state in
            guard state.snapshot.apps.contains(where: { $0.id == request.id }) else { throw AppStoreConnectProblem.notFound("apps", request.id) }
            return state.snapshot.appStoreVersions.filter { version in
                version.appID == request.id
                    && request.matches([
                        "platform": version.platform, "versionString": version.versionString, "appStoreState": version.appStoreState,
                        "appVersionState": Self.appVersionState(version.appStoreState), "id": version.id,
                    ])
            }.sorted { $0.createdDate > $1.createdDate }
        }
        return page(versions.map(render), request)
    }

    private static let versionAttributes: [String: AppStoreConnectEntity.Kind] = [
        "versionString": .string, "copyright": .string,
        "reviewType": .oneOf(Components.Schemas.AppStoreVersionUpdateRequest.DataPayload.AttributesPayload.ReviewTypePayload.allCases.map(\.rawValue)),
        "releaseType": .oneOf(Components.Schemas.AppStoreVersionUpdateRequest.DataPayload.AttributesPayload.ReleaseTypePayload.allCases.map(\.rawValue)),
        "earliestReleaseDate": .string, "usesIdfa": .boolean,
    ]

    private static func checkReleaseDate(_ attributes: [String: Any]) throws {
        if let date = attributes["earliestReleaseDate"] as? String, Timestamp.parseISO8601(date) == nil {
            throw AppStoreConnectProblem.invalid("/data/attributes/earliestReleaseDate", "'\(date)' is not a date-time such as 2026-12-01T08:00:00Z")
        }
    }

    func createVersion(_ request: APIRequest) throws -> Reply {
        let entity = try AppStoreConnectEntity(request.body, type: "appStoreVersions")
        var kinds = Self.versionAttributes
        kinds["platform"] = .oneOf(Self.platforms)
        let attributes = try entity.attributes(kinds, required: ["platform", "versionString"])
        try entity.onlyRelationships(["app", "appStoreVersionLocalizations", "build"])
        try Self.checkReleaseDate(attributes)
        let appID = try entity.relationship("app", type: "apps", required: true) ?? ""
        let platform = attributes["platform"] as? String ?? "IOS"
        let versionString = attributes["versionString"] as? String ?? ""
        let releaseType = attributes["releaseType"] as? String
        if releaseType == "SCHEDULED", attributes["earliestReleaseDate"] == nil {
            throw AppStoreConnectProblem.invalid("/data/attributes/earliestReleaseDate", "A SCHEDULED release needs an earliestReleaseDate.")
        }
        let render = versionRenderer()
        try entity.decode(as: request.operation)
        let version: [String: Any] = try mutate { state in
            guard state.snapshot.apps.contains(where: { $0.id == appID }) else {
                throw AppStoreConnectProblem.invalidRelationship("/data/relationships/app/data/id", "There is no resource of type 'apps' with id '\(appID)'", status: 422)
            }
            let siblings = state.snapshot.appStoreVersions.filter { $0.appID == appID && $0.platform == platform }
            if siblings.contains(where: { $0.versionString == versionString }) {
                throw AppStoreConnectProblem.duplicate("/data/attributes/versionString", "An App Store version '\(versionString)' already exists for \(platform).")
            }
            if let open = siblings.first(where: { !Self.finishedStates.contains($0.appStoreState) }) {
                throw AppStoreConnectProblem.state(
                    "You cannot create a new version of the App in the current state: version '\(open.versionString)' is \(open.appStoreState).",
                    pointer: "/data/attributes/versionString")
            }
            let index = Self.newVersion(
                appID: appID, platform: platform, versionString: versionString,
                releaseType: releaseType ?? "AFTER_APPROVAL", in: &state.snapshot)
            state.snapshot.appStoreVersions[index].earliestReleaseDate = attributes["earliestReleaseDate"] as? String
            return render(state.snapshot.appStoreVersions[index])
        }
        return created(version, "appStoreVersions")
    }

    func updateVersion(_ request: APIRequest) throws -> Reply {
        let entity = try AppStoreConnectEntity(request.body, type: "appStoreVersions", id: request.id)
        var kinds = Self.versionAttributes
        kinds["downloadable"] = .boolean
        let attributes = try entity.attributes(kinds)
        try entity.onlyRelationships(["build", "appClipDefaultExperience"])
        try Self.checkReleaseDate(attributes)
        let buildID = try entity.relationship("build", type: "builds", required: false)
        let render = versionRenderer()
        try entity.decode(as: request.operation)
        let version: [String: Any] = try mutate { state in
            let index = try versionIndex(request.id, in: state.snapshot)
            let current = state.snapshot.appStoreVersions[index]
            if !attributes.isEmpty || buildID != nil { try Self.requireEditable(current, "its attributes") }
            if let versionString = attributes["versionString"] as? String, versionString != current.versionString,
                state.snapshot.appStoreVersions.contains(where: { $0.appID == current.appID && $0.platform == current.platform && $0.versionString == versionString })
            {
                throw AppStoreConnectProblem.duplicate("/data/attributes/versionString", "An App Store version '\(versionString)' already exists for \(current.platform).")
            }
            let releaseType = attributes["releaseType"] as? String ?? current.releaseType
            let date = attributes["earliestReleaseDate"] as? String ?? current.earliestReleaseDate
            if releaseType == "SCHEDULED", date == nil {
                throw AppStoreConnectProblem.invalid("/data/attributes/earliestReleaseDate", "A SCHEDULED release needs an earliestReleaseDate.")
            }
            if let buildID { try checkBuild(buildID, for: current, in: state.snapshot, pointer: "/data/relationships/build/data/id") }
            if let versionString = attributes["versionString"] as? String { state.snapshot.appStoreVersions[index].versionString = versionString }
            state.snapshot.appStoreVersions[index].releaseType = releaseType
            state.snapshot.appStoreVersions[index].earliestReleaseDate = date
            if let buildID { state.snapshot.appStoreVersions[index].buildID = buildID }
            return render(state.snapshot.appStoreVersions[index])
        }
        return single(version, selfLink: resourceURL("appStoreVersions", request.id))
    }

    /// A build may ship with a version when it is the app's, of the same platform and marketing version, and VALID.
    private func checkBuild(_ buildID: String, for version: AppStoreConnectSnapshot.AppStoreVersion, in snapshot: AppStoreConnectSnapshot, pointer: String) throws {
        guard let build = snapshot.builds.first(where: { $0.id == buildID }) else {
            throw AppStoreConnectProblem.invalidRelationship(pointer, "There is no resource of type 'builds' with id '\(buildID)'", status: 422)
        }
        let train = snapshot.preReleaseVersions.first { $0.id == build.preReleaseVersionID }
        guard build.appID == version.appID, train?.platform == version.platform else {
            throw AppStoreConnectProblem.invalidRelationship(pointer, "The build '\(build.version)' is not a build of this app on \(version.platform).")
        }
        guard train?.version == version.versionString else {
            throw AppStoreConnectProblem.invalidRelationship(
                pointer, "The build '\(build.version)' is for version '\(train?.version ?? "?")', not '\(version.versionString)'.")
        }
        guard build.processingState == "VALID", !build.expired else {
            throw AppStoreConnectProblem.state(
                "The build '\(build.version)' is \(build.expired ? "expired" : build.processingState) and cannot be added to an App Store version.", pointer: pointer)
        }
    }

    func buildOfVersion(_ request: APIRequest) throws -> Reply {
        let build: [String: Any] = try state.withLock { state in
            let version = state.snapshot.appStoreVersions[try versionIndex(request.id, in: state.snapshot)]
            guard let id = version.buildID, let build = state.snapshot.builds.first(where: { $0.id == id }) else {
                throw AppStoreConnectProblem.notFound("builds", "build of appStoreVersions \(request.id)")
            }
            return buildJSON(build, submission: submissionID(ofBuild: build.id, in: state.snapshot))
        }
        return single(build, reading: request)
    }

    func attachBuild(_ request: APIRequest) throws -> Reply {
        guard let document = try? JSONSerialization.jsonObject(with: request.body) as? [String: Any],
            let data = document["data"] as? [String: Any]
        else {
            throw AppStoreConnectProblem.unprocessable("The request body must be an object with a 'data' object.")
        }
        guard data["type"] as? String == "builds" else {
            throw AppStoreConnectProblem.invalidRelationship("/data/type", "'\(data["type"] ?? "")' is not a valid type here; expected 'builds'")
        }
        guard let buildID = data["id"] as? String, !buildID.isEmpty else { throw AppStoreConnectProblem.required(type: "id", pointer: "/data/id") }
        try AppStoreConnectEntity.decode(request.body, as: request.operation)
        try mutate { state in
            let index = try versionIndex(request.id, in: state.snapshot)
            try Self.requireEditable(state.snapshot.appStoreVersions[index], "its build")
            try checkBuild(buildID, for: state.snapshot.appStoreVersions[index], in: state.snapshot, pointer: "/data/id")
            state.snapshot.appStoreVersions[index].buildID = buildID
        }
        return Reply(status: 204)
    }

    // MARK: Version localizations

    func versionLocalizations(_ request: APIRequest) throws -> Reply {
        let items: [[String: Any]] = try state.withLock { state in
            _ = try versionIndex(request.id, in: state.snapshot)
            return state.snapshot.versionLocalizations.filter {
                $0.versionID == request.id && request.matches(["locale": $0.locale])
            }.map(versionLocalizationJSON)
        }
        return page(items, request)
    }

    private static let localizationAttributes: [String: AppStoreConnectEntity.Kind] = [
        "description": .string, "keywords": .string, "marketingUrl": .string, "promotionalText": .string, "supportUrl": .string, "whatsNew": .string,
    ]

    private static func checkWhatsNew(_ attributes: [String: Any]) throws {
        if let text = attributes["whatsNew"] as? String, text.utf16.count > AppStoreLocale.whatsNewLimit {
            throw AppStoreConnectProblem.invalid("/data/attributes/whatsNew", "'whatsNew' is \(text.utf16.count) characters; the limit is \(AppStoreLocale.whatsNewLimit)")
        }
    }

    func createVersionLocalization(_ request: APIRequest) throws -> Reply {
        let entity = try AppStoreConnectEntity(request.body, type: "appStoreVersionLocalizations")
        var kinds = Self.localizationAttributes
        kinds["locale"] = .string
        let attributes = try entity.attributes(kinds, required: ["locale"])
        try entity.onlyRelationships(["appStoreVersion"])
        try Self.checkWhatsNew(attributes)
        let locale = attributes["locale"] as? String ?? ""
        guard AppStoreLocale.all.contains(locale) else {
            throw AppStoreConnectProblem.invalid("/data/attributes/locale", "'\(locale)' is not a valid locale for App Store metadata")
        }
        let versionID = try entity.relationship("appStoreVersion", type: "appStoreVersions", required: true) ?? ""
        try entity.decode(as: request.operation)
        let localization: [String: Any] = try mutate { state in
            let index = try versionIndex(versionID, in: state.snapshot, pointer: "/data/relationships/appStoreVersion/data/id")
            try Self.requireEditable(state.snapshot.appStoreVersions[index], "its localizations")
            if state.snapshot.versionLocalizations.contains(where: { $0.versionID == versionID && $0.locale == locale }) {
                throw AppStoreConnectProblem.duplicate("/data/attributes/locale", "The version already has a localization for '\(locale)'; update that one instead.")
            }
            let localization = AppStoreConnectSnapshot.VersionLocalization(
                id: UUID().uuidString.lowercased(), versionID: versionID, locale: locale, whatsNew: attributes["whatsNew"] as? String)
            state.snapshot.versionLocalizations.append(localization)
            return versionLocalizationJSON(localization)
        }
        return created(localization, "appStoreVersionLocalizations")
    }

    func updateVersionLocalization(_ request: APIRequest) throws -> Reply {
        let entity = try AppStoreConnectEntity(request.body, type: "appStoreVersionLocalizations", id: request.id)
        let attributes = try entity.attributes(Self.localizationAttributes)
        try Self.checkWhatsNew(attributes)
        try entity.decode(as: request.operation)
        let localization: [String: Any] = try mutate { state in
            guard let index = state.snapshot.versionLocalizations.firstIndex(where: { $0.id == request.id }) else {
                throw AppStoreConnectProblem.notFound("appStoreVersionLocalizations", request.id)
            }
            let version = state.snapshot.appStoreVersions[try versionIndex(state.snapshot.versionLocalizations[index].versionID, in: state.snapshot)]
            try Self.requireEditable(version, "its localizations")
            if let text = attributes["whatsNew"] as? String { state.snapshot.versionLocalizations[index].whatsNew = text }
            return versionLocalizationJSON(state.snapshot.versionLocalizations[index])
        }
        return single(localization, selfLink: resourceURL("appStoreVersionLocalizations", request.id))
    }

    // MARK: Review submissions

    /// A canceled submission is `CANCELING` until it is next read, then `COMPLETE`; its versions go back to
    /// `DEVELOPER_REJECTED` and its items are `REMOVED`.
    private func settleCanceled(in state: inout State) {
        for index in state.snapshot.reviewSubmissions.indices where state.snapshot.reviewSubmissions[index].state == "CANCELING" {
            state.snapshot.reviewSubmissions[index].state = "COMPLETE"
            let id = state.snapshot.reviewSubmissions[index].id
            for item in state.snapshot.reviewItems.indices where state.snapshot.reviewItems[item].submissionID == id {
                state.snapshot.reviewItems[item].state = "REMOVED"
                if let version = state.snapshot.appStoreVersions.firstIndex(where: { $0.id == state.snapshot.reviewItems[item].versionID }),
                    ["WAITING_FOR_REVIEW", "IN_REVIEW", "REJECTED", "METADATA_REJECTED"].contains(state.snapshot.appStoreVersions[version].appStoreState)
                {
                    state.snapshot.appStoreVersions[version].appStoreState = "DEVELOPER_REJECTED"
                }
            }
        }
    }

    func listReviewSubmissions(_ request: APIRequest) throws -> Reply {
        guard let apps = request.filter("app") else { throw AppStoreConnectProblem.requiredParameter("filter[app]") }
        let items: [[String: Any]] = mutate { state in
            settleCanceled(in: &state)
            return state.snapshot.reviewSubmissions.filter {
                apps.contains($0.appID) && request.matches(["platform": $0.platform, "state": $0.state])
            }.map { reviewSubmissionJSON($0, in: state.snapshot) }
        }
        return page(items, request)
    }

    func getReviewSubmission(_ request: APIRequest) throws -> Reply {
        let submission: [String: Any] = try mutate { state in
            settleCanceled(in: &state)
            guard let found = state.snapshot.reviewSubmissions.first(where: { $0.id == request.id }) else {
                throw AppStoreConnectProblem.notFound("reviewSubmissions", request.id)
            }
            return reviewSubmissionJSON(found, in: state.snapshot)
        }
        return single(submission, reading: request)
    }

    func createReviewSubmission(_ request: APIRequest) throws -> Reply {
        let entity = try AppStoreConnectEntity(request.body, type: "reviewSubmissions")
        let attributes = try entity.attributes(["platform": .oneOf(Self.platforms)])
        try entity.onlyRelationships(["app"])
        let appID = try entity.relationship("app", type: "apps", required: true) ?? ""
        let platform = attributes["platform"] as? String ?? "IOS"
        try entity.decode(as: request.operation)
        let submission: [String: Any] = try mutate { state in
            guard state.snapshot.apps.contains(where: { $0.id == appID }) else {
                throw AppStoreConnectProblem.invalidRelationship("/data/relationships/app/data/id", "There is no resource of type 'apps' with id '\(appID)'", status: 422)
            }
            settleCanceled(in: &state)
            if let open = state.snapshot.reviewSubmissions.first(where: {
                $0.appID == appID && $0.platform == platform && Self.openSubmissionStates.contains($0.state)
            }) {
                throw AppStoreConnectProblem.state("There is another reviewSubmissions with id \(open.id) still in progress.")
            }
            let submission = AppStoreConnectSnapshot.ReviewSubmission(
                id: UUID().uuidString.lowercased(), appID: appID, platform: platform, state: "READY_FOR_REVIEW")
            state.snapshot.reviewSubmissions.append(submission)
            return reviewSubmissionJSON(submission, in: state.snapshot)
        }
        return created(submission, "reviewSubmissions")
    }

    func updateReviewSubmission(_ request: APIRequest) throws -> Reply {
        let entity = try AppStoreConnectEntity(request.body, type: "reviewSubmissions", id: request.id)
        let attributes = try entity.attributes(["platform": .oneOf(Self.platforms), "submitted": .boolean, "canceled": .boolean])
        let submitted = (attributes["submitted"] as? NSNumber)?.boolValue == true
        let canceled = (attributes["canceled"] as? NSNumber)?.boolValue == true
        try entity.decode(as: request.operation)
        let submission: [String: Any] = try mutate { state in
            settleCanceled(in: &state)
            guard let index = state.snapshot.reviewSubmissions.firstIndex(where: { $0.id == request.id }) else {
                throw AppStoreConnectProblem.notFound("reviewSubmissions", request.id)
            }
            let current = state.snapshot.reviewSubmissions[index]
            let items = state.snapshot.reviewItems.filter { $0.submissionID == current.id && $0.state != "REMOVED" }
            if canceled {
                guard ["READY_FOR_REVIEW", "WAITING_FOR_REVIEW", "IN_REVIEW", "UNRESOLVED_ISSUES"].contains(current.state) else {
                    throw AppStoreConnectProblem.state("The review submission is \(current.state) and cannot be canceled.", pointer: "/data/attributes/canceled")
                }
                state.snapshot.reviewSubmissions[index].state = "CANCELING"
                state.snapshot.reviewSubmissions[index].canceled = true
            } else if submitted {
                guard ["READY_FOR_REVIEW", "UNRESOLVED_ISSUES"].contains(current.state) else {
                    throw AppStoreConnectProblem.state("The review submission is \(current.state) and cannot be submitted.", pointer: "/data/attributes/submitted")
                }
                guard !items.isEmpty else {
                    throw AppStoreConnectProblem.state("The review submission has no items to submit.", pointer: "/data/attributes/submitted")
                }
                for item in items {
                    let version = state.snapshot.appStoreVersions[try versionIndex(item.versionID, in: state.snapshot)]
                    guard version.buildID != nil else {
                        throw AppStoreConnectProblem.state(
                            "The App Store version '\(version.versionString)' has no build; choose a build before you submit.", pointer: "/data/attributes/submitted")
                    }
                }
                state.snapshot.reviewSubmissions[index].state = "WAITING_FOR_REVIEW"
                state.snapshot.reviewSubmissions[index].submittedDate = Date()
                for item in state.snapshot.reviewItems.indices
                where state.snapshot.reviewItems[item].submissionID == current.id
                    && state.snapshot.reviewItems[item].state != "REMOVED"
                {
                    state.snapshot.reviewItems[item].state = "READY_FOR_REVIEW"
                    if let version = state.snapshot.appStoreVersions.firstIndex(where: { $0.id == state.snapshot.reviewItems[item].versionID }) {
                        state.snapshot.appStoreVersions[version].appStoreState = "WAITING_FOR_REVIEW"
                    }
                }
            }
            return reviewSubmissionJSON(state.snapshot.reviewSubmissions[index], in: state.snapshot)
        }
        return single(submission, selfLink: resourceURL("reviewSubmissions", request.id))
    }

    func reviewItems(_ request: APIRequest) throws -> Reply {
        let items: [[String: Any]] = try state.withLock { state in
            guard state.snapshot.reviewSubmissions.contains(where: { $0.id == request.id }) else {
                throw AppStoreConnectProblem.notFound("reviewSubmissions", request.id)
            }
            return state.snapshot.reviewItems.filter { $0.submissionID == request.id }.map(reviewItemJSON)
        }
        return page(items, request)
    }

    private static let itemRelationships: Set<String> = [
        "reviewSubmission", "appStoreVersion", "appCustomProductPageVersion", "appStoreVersionExperiment", "appStoreVersionExperimentV2",
        "appEvent", "backgroundAssetVersion", "gameCenterAchievementVersion", "gameCenterActivityVersion", "gameCenterChallengeVersion",
        "gameCenterLeaderboardSetVersion", "gameCenterLeaderboardVersion", "inAppPurchaseVersion", "subscriptionVersion", "subscriptionGroupVersion",
    ]

    func createReviewItem(_ request: APIRequest) throws -> Reply {
        let entity = try AppStoreConnectEntity(request.body, type: "reviewSubmissionItems")
        _ = try entity.attributes([:])
        try entity.onlyRelationships(Self.itemRelationships)
        let submissionID = try entity.relationship("reviewSubmission", type: "reviewSubmissions", required: true) ?? ""
        guard let versionID = try entity.relationship("appStoreVersion", type: "appStoreVersions", required: false) else {
            throw AppStoreConnectProblem.required(relationship: "appStoreVersion")
        }
        try entity.decode(as: request.operation)
        let item: [String: Any] = try mutate { state in
            guard let submission = state.snapshot.reviewSubmissions.first(where: { $0.id == submissionID }) else {
                throw AppStoreConnectProblem.invalidRelationship(
                    "/data/relationships/reviewSubmission/data/id", "There is no resource of type 'reviewSubmissions' with id '\(submissionID)'", status: 422)
            }
            let pointer = "/data/relationships/appStoreVersion/data/id"
            let version = state.snapshot.appStoreVersions[try versionIndex(versionID, in: state.snapshot, pointer: pointer)]
            guard ["READY_FOR_REVIEW", "UNRESOLVED_ISSUES"].contains(submission.state) else {
                throw AppStoreConnectProblem.state(
                    "The review submission is \(submission.state); items can only be added before it is submitted.",
                    pointer: "/data/relationships/reviewSubmission")
            }
            guard version.appID == submission.appID, version.platform == submission.platform else {
                throw AppStoreConnectProblem.invalidRelationship(pointer, "The App Store version is not of this submission's app and platform.")
            }
            let active = state.snapshot.reviewItems.filter { $0.versionID == versionID && $0.state != "REMOVED" }
            if let other = active.first(where: { item in
                state.snapshot.reviewSubmissions.contains { $0.id == item.submissionID && Self.openSubmissionStates.contains($0.state) }
            }) {
                throw AppStoreConnectProblem.invalidRelationship(
                    pointer,
                    other.submissionID == submissionID
                        ? "The App Store version is already an item of this review submission."
                        : "The App Store version is already an item of another review submission (\(other.submissionID)).")
            }
            try Self.requireEditable(version, "its review submission", pointer: pointer)
            let item = AppStoreConnectSnapshot.ReviewItem(
                id: UUID().uuidString.lowercased(), submissionID: submissionID, versionID: versionID, state: "READY_FOR_REVIEW")
            state.snapshot.reviewItems.append(item)
            return reviewItemJSON(item)
        }
        return created(item, "reviewSubmissionItems")
    }

    func deleteReviewItem(_ request: APIRequest) throws -> Reply {
        try mutate { state in
            guard let index = state.snapshot.reviewItems.firstIndex(where: { $0.id == request.id }) else {
                throw AppStoreConnectProblem.notFound("reviewSubmissionItems", request.id)
            }
            let submission = state.snapshot.reviewSubmissions.first { $0.id == state.snapshot.reviewItems[index].submissionID }
            guard submission?.state == "READY_FOR_REVIEW" || submission?.state == "UNRESOLVED_ISSUES" else {
                throw AppStoreConnectProblem.state("The review submission is \(submission?.state ?? "gone"); its items cannot be removed.")
            }
            state.snapshot.reviewItems.remove(at: index)
        }
        return Reply(status: 204)
    }

    // MARK: Phased releases and release requests

    func phasedReleaseOfVersion(_ request: APIRequest) throws -> Reply {
        let phased: [String: Any] = try state.withLock { state in
            _ = try versionIndex(request.id, in: state.snapshot)
            guard let found = state.snapshot.phasedReleases.first(where: { $0.versionID == request.id }) else {
                throw AppStoreConnectProblem.notFound("appStoreVersionPhasedReleases", "of appStoreVersions \(request.id)")
            }
            return phasedReleaseJSON(found)
        }
        return single(phased, reading: request)
    }

    func createPhasedRelease(_ request: APIRequest) throws -> Reply {
        let entity = try AppStoreConnectEntity(request.body, type: "appStoreVersionPhasedReleases")
        let attributes = try entity.attributes(["phasedReleaseState": .oneOf(Components.Schemas.PhasedReleaseState.allCases.map(\.rawValue))])
        try entity.onlyRelationships(["appStoreVersion"])
        let versionID = try entity.relationship("appStoreVersion", type: "appStoreVersions", required: true) ?? ""
        if let requested = attributes["phasedReleaseState"] as? String, requested != "INACTIVE" {
            throw AppStoreConnectProblem.invalid("/data/attributes/phasedReleaseState", "A phased release is created INACTIVE; it starts when the version is released.")
        }
        try entity.decode(as: request.operation)
        let phased: [String: Any] = try mutate { state in
            let version = state.snapshot.appStoreVersions[try versionIndex(versionID, in: state.snapshot, pointer: "/data/relationships/appStoreVersion/data/id")]
            if Self.finishedStates.contains(version.appStoreState) {
                throw AppStoreConnectProblem.state("The App Store version '\(version.versionString)' is \(version.appStoreState); it is too late for a phased release.")
            }
            if state.snapshot.phasedReleases.contains(where: { $0.versionID == versionID }) {
                throw AppStoreConnectProblem.duplicate("/data/relationships/appStoreVersion", "The App Store version already has a phased release.")
            }
            let phased = AppStoreConnectSnapshot.PhasedRelease(id: UUID().uuidString.lowercased(), versionID: versionID, state: "INACTIVE")
            state.snapshot.phasedReleases.append(phased)
            return phasedReleaseJSON(phased)
        }
        return created(phased, "appStoreVersionPhasedReleases")
    }

    func updatePhasedRelease(_ request: APIRequest) throws -> Reply {
        let entity = try AppStoreConnectEntity(request.body, type: "appStoreVersionPhasedReleases", id: request.id)
        let attributes = try entity.attributes(["phasedReleaseState": .oneOf(Components.Schemas.PhasedReleaseState.allCases.map(\.rawValue))])
        try entity.decode(as: request.operation)
        let phased: [String: Any] = try mutate { state in
            guard let index = state.snapshot.phasedReleases.firstIndex(where: { $0.id == request.id }) else {
                throw AppStoreConnectProblem.notFound("appStoreVersionPhasedReleases", request.id)
            }
            let current = state.snapshot.phasedReleases[index].state
            if let wanted = attributes["phasedReleaseState"] as? String, wanted != current {
                let allowed: [String: Set<String>] = ["ACTIVE": ["PAUSED", "COMPLETE"], "PAUSED": ["ACTIVE", "COMPLETE"]]
                guard allowed[current]?.contains(wanted) == true else {
                    throw AppStoreConnectProblem.state("The phased release is \(current) and cannot become \(wanted).", pointer: "/data/attributes/phasedReleaseState")
                }
                state.snapshot.phasedReleases[index].state = wanted
                if wanted == "COMPLETE" { state.snapshot.phasedReleases[index].currentDayNumber = 7 }
            }
            return phasedReleaseJSON(state.snapshot.phasedReleases[index])
        }
        return single(phased, selfLink: resourceURL("appStoreVersionPhasedReleases", request.id))
    }

    func deletePhasedRelease(_ request: APIRequest) throws -> Reply {
        try mutate { state in
            guard let index = state.snapshot.phasedReleases.firstIndex(where: { $0.id == request.id }) else {
                throw AppStoreConnectProblem.notFound("appStoreVersionPhasedReleases", request.id)
            }
            guard state.snapshot.phasedReleases[index].state == "INACTIVE" else {
                throw AppStoreConnectProblem.state("The phased release is \(state.snapshot.phasedReleases[index].state) and cannot be removed.")
            }
            state.snapshot.phasedReleases.remove(at: index)
        }
        return Reply(status: 204)
    }

    func createReleaseRequest(_ request: APIRequest) throws -> Reply {
        let entity = try AppStoreConnectEntity(request.body, type: "appStoreVersionReleaseRequests")
        _ = try entity.attributes([:])
        try entity.onlyRelationships(["appStoreVersion"])
        let versionID = try entity.relationship("appStoreVersion", type: "appStoreVersions", required: true) ?? ""
        try entity.decode(as: request.operation)
        try mutate { state in
            let index = try versionIndex(versionID, in: state.snapshot, pointer: "/data/relationships/appStoreVersion/data/id")
            let version = state.snapshot.appStoreVersions[index]
            guard version.appStoreState == "PENDING_DEVELOPER_RELEASE" else {
                throw AppStoreConnectProblem.state(
                    "The App Store version '\(version.versionString)' is \(version.appStoreState); only a version in PENDING_DEVELOPER_RELEASE can be released.",
                    pointer: "/data/relationships/appStoreVersion")
            }
            Self.release(versionAt: index, in: &state.snapshot)
        }
        let id = UUID().uuidString.lowercased()
        return single(
            ["type": "appStoreVersionReleaseRequests", "id": id, "links": ["self": resourceURL("appStoreVersionReleaseRequests", id)]],
            status: 201, selfLink: resourceURL("appStoreVersionReleaseRequests", id))
    }

    // MARK: Documents

    /// `AppStoreVersionState` → `AppVersionState` (the newer field), nil where it has no counterpart.
    static func appVersionState(_ state: String) -> String? {
        switch state {
        case "READY_FOR_SALE": return "READY_FOR_DISTRIBUTION"
        case "PROCESSING_FOR_APP_STORE": return "PROCESSING_FOR_DISTRIBUTION"
        case "ACCEPTED", "DEVELOPER_REJECTED", "IN_REVIEW", "INVALID_BINARY", "METADATA_REJECTED", "PENDING_APPLE_RELEASE",
            "PENDING_DEVELOPER_RELEASE", "PREPARE_FOR_SUBMISSION", "READY_FOR_REVIEW", "REJECTED", "REPLACED_WITH_NEW_VERSION",
            "WAITING_FOR_EXPORT_COMPLIANCE", "WAITING_FOR_REVIEW":
            return state
        default: return nil
        }
    }

    /// A renderer of versions that knows which phased release each has (read now, before the caller takes the lock).
    func versionRenderer() -> (AppStoreConnectSnapshot.AppStoreVersion) -> [String: Any] {
        let phased = state.withLock { $0.snapshot.phasedReleases.map { ($0.versionID, $0.id) } }
        let phasedByVersion = Dictionary(phased, uniquingKeysWith: { first, _ in first })
        return { version in self.versionJSON(version, phasedReleaseID: phasedByVersion[version.id]) }
    }

    func versionJSON(_ version: AppStoreConnectSnapshot.AppStoreVersion, phasedReleaseID: String?) -> [String: Any] {
        var attributes: [String: Any] = [
            "platform": version.platform, "versionString": version.versionString, "appStoreState": version.appStoreState,
            "reviewType": "APP_STORE", "createdDate": Self.date(version.createdDate), "downloadable": true,
        ]
        if let state = Self.appVersionState(version.appStoreState) { attributes["appVersionState"] = state }
        if let releaseType = version.releaseType { attributes["releaseType"] = releaseType }
        if let date = version.earliestReleaseDate { attributes["earliestReleaseDate"] = date }
        return [
            "type": "appStoreVersions", "id": version.id, "attributes": attributes,
            "relationships": [
                "app": ["data": ["type": "apps", "id": version.appID]],
                "appStoreVersionLocalizations": relationship("appStoreVersions", version.id, "appStoreVersionLocalizations"),
                "build": relationship("appStoreVersions", version.id, "build", data: version.buildID.map { ("builds", $0) }),
                "appStoreVersionPhasedRelease": relationship(
                    "appStoreVersions", version.id, "appStoreVersionPhasedRelease", data: phasedReleaseID.map { ("appStoreVersionPhasedReleases", $0) }),
            ] as [String: Any],
            "links": ["self": resourceURL("appStoreVersions", version.id)],
        ]
    }

    func versionLocalizationJSON(_ localization: AppStoreConnectSnapshot.VersionLocalization) -> [String: Any] {
        var attributes: [String: Any] = ["locale": localization.locale]
        if let whatsNew = localization.whatsNew { attributes["whatsNew"] = whatsNew }
        return [
            "type": "appStoreVersionLocalizations", "id": localization.id, "attributes": attributes,
            "relationships": ["appStoreVersion": ["data": ["type": "appStoreVersions", "id": localization.versionID]]],
            "links": ["self": resourceURL("appStoreVersionLocalizations", localization.id)],
        ]
    }

    func reviewSubmissionJSON(_ submission: AppStoreConnectSnapshot.ReviewSubmission, in snapshot: AppStoreConnectSnapshot) -> [String: Any] {
        var attributes: [String: Any] = ["platform": submission.platform, "state": submission.state]
        if let date = submission.submittedDate { attributes["submittedDate"] = Self.date(date) }
        var relationships: [String: Any] = [
            "app": ["data": ["type": "apps", "id": submission.appID]],
            "items": relationship("reviewSubmissions", submission.id, "items"),
        ]
        if let item = snapshot.reviewItems.first(where: { $0.submissionID == submission.id && $0.state != "REMOVED" }) {
            relationships["appStoreVersionForReview"] = ["data": ["type": "appStoreVersions", "id": item.versionID]]
        }
        return [
            "type": "reviewSubmissions", "id": submission.id, "attributes": attributes, "relationships": relationships,
            "links": ["self": resourceURL("reviewSubmissions", submission.id)],
        ]
    }

    func reviewItemJSON(_ item: AppStoreConnectSnapshot.ReviewItem) -> [String: Any] {
        [
            "type": "reviewSubmissionItems", "id": item.id, "attributes": ["state": item.state],
            "relationships": ["appStoreVersion": ["data": ["type": "appStoreVersions", "id": item.versionID]]],
            "links": ["self": resourceURL("reviewSubmissionItems", item.id)],
        ]
    }

    func phasedReleaseJSON(_ phased: AppStoreConnectSnapshot.PhasedRelease) -> [String: Any] {
        var attributes: [String: Any] = ["phasedReleaseState": phased.state]
        if let start = phased.startDate {
            attributes["startDate"] = Self.date(start)
            let elapsed = Int(Date().timeIntervalSince(start) / 86_400) + 1
            attributes["currentDayNumber"] = phased.state == "COMPLETE" ? 7 : min(7, max(phased.currentDayNumber ?? 1, elapsed))
            attributes["totalPauseDuration"] = phased.totalPauseDuration ?? 0
        }
        return [
            "type": "appStoreVersionPhasedReleases", "id": phased.id, "attributes": attributes,
            "links": ["self": resourceURL("appStoreVersionPhasedReleases", phased.id)],
        ]
    }
}

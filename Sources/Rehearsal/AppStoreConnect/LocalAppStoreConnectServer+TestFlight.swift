import Foundation

/// Apps, builds and TestFlight: lookups, beta groups, what-to-test text, beta details and beta review.
extension LocalAppStoreConnectServer {
    /// Serves one authenticated request of a known operation.
    func handle(_ request: APIRequest) async throws -> Reply {
        switch request.operation {
        case .buildUploadsCreate: return try createBuildUpload(request)
        case .buildUploadsGet: return try getBuildUpload(request)
        case .buildUploadsDelete: return try deleteBuildUpload(request)
        case .appBuildUploads: return try appBuildUploads(request)
        case .buildUploadFilesOfUpload: return try uploadFiles(request)
        case .buildUploadFilesCreate: return try createUploadFile(request)
        case .buildUploadFilesGet: return try getUploadFile(request)
        case .buildUploadFilesUpdate: return try await commitUploadFile(request)
        case .appsList: return listApps(request)
        case .buildsList: return listBuilds(request)
        case .buildsGet: return try getBuild(request)
        case .buildsUpdate: return try updateBuild(request)
        case .buildBetaDetailOfBuild: return try betaDetailOfBuild(request)
        case .preReleaseVersionsList: return listPreReleaseVersions(request)
        case .betaGroupsList: return listBetaGroups(request)
        case .betaGroupAddBuilds, .buildAddBetaGroups: return try addBuildsToGroups(request)
        case .betaBuildLocalizationsList: return listLocalizations(request)
        case .betaBuildLocalizationsCreate: return try createLocalization(request)
        case .betaBuildLocalizationsUpdate: return try updateLocalization(request)
        case .buildBetaDetailsList: return listBetaDetails(request)
        case .buildBetaDetailsGet: return try getBetaDetail(request)
        case .buildBetaDetailsUpdate: return try updateBetaDetail(request)
        case .betaAppReviewSubmissionsCreate: return try createSubmission(request)
        case .betaAppReviewSubmissionsGet: return try getSubmission(request)
        case .appAppStoreVersions, .appStoreVersionsCreate, .appStoreVersionsGet, .appStoreVersionsUpdate, .appStoreVersionBuild,
            .appStoreVersionBuildUpdate, .appStoreVersionLocalizationsOfVersion, .appStoreVersionLocalizationsCreate,
            .appStoreVersionLocalizationsGet, .appStoreVersionLocalizationsUpdate, .reviewSubmissionsList, .reviewSubmissionsCreate,
            .reviewSubmissionsGet, .reviewSubmissionsUpdate, .reviewSubmissionItemsOfSubmission, .reviewSubmissionItemsCreate,
            .reviewSubmissionItemsDelete, .phasedReleasesCreate, .phasedReleasesUpdate, .phasedReleasesDelete, .phasedReleaseOfVersion,
            .releaseRequestsCreate, .appStoreVersionCustomerReviews:
            return try await handleAppStore(request)
        case .certificatesList, .certificatesCreate, .certificatesGet, .certificatesDelete, .bundleIdsList, .bundleIdsCreate,
            .bundleIdProfiles, .devicesList, .profilesList, .profilesCreate, .profilesGet, .profilesDelete:
            return try handleSigning(request)
        case .appWebhooks, .webhooksCreate, .webhooksGet, .webhooksUpdate, .webhooksDelete:
            return try handleWebhooks(request)
        }
    }

    // MARK: Apps

    /// `filter[bundleId]`; in rehearsal mode (``Configuration/autoCreate``) one unknown bundle id creates its app.
    func listApps(_ request: APIRequest) -> Reply {
        let items: [[String: Any]] = mutate { state in
            if configuration.autoCreate, let bundleIDs = request.filter("bundleId"), bundleIDs.count == 1,
                !state.snapshot.apps.contains(where: { $0.bundleID == bundleIDs[0] })
            {
                _ = state.snapshot.app(bundleID: bundleIDs[0], name: bundleIDs[0])
            }
            let apps = state.snapshot.apps.filter {
                request.matches(["bundleId": $0.bundleID, "name": $0.name, "sku": $0.sku, "id": $0.id])
            }
            return sorted(apps, request) { app, key in key == "name" ? app.name : key == "sku" ? app.sku : app.bundleID }.map(appJSON)
        }
        return page(items, request)
    }

    // MARK: Builds

    func submissionID(ofBuild id: String, in snapshot: AppStoreConnectSnapshot) -> String? {
        snapshot.submissions.first { $0.buildID == id }?.id
    }

    func listBuilds(_ request: APIRequest) -> Reply {
        let items: [[String: Any]] = mutate { state in
            let snapshot = state.snapshot
            var indices = snapshot.builds.indices.filter { index in
                let build = snapshot.builds[index]
                let preRelease = snapshot.preReleaseVersions.first { $0.id == build.preReleaseVersionID }
                return request.matches([
                    "app": build.appID, "version": build.version, "id": build.id, "expired": "\(build.expired)", "preReleaseVersion": build.preReleaseVersionID,
                    "preReleaseVersion.version": preRelease?.version, "preReleaseVersion.platform": preRelease?.platform,
                    "usesNonExemptEncryption": build.usesNonExemptEncryption.map { "\($0)" },
                ])
                    && (request.filter("betaGroups").map { groups in
                        snapshot.betaGroups.contains { groups.contains($0.id) && $0.buildIDs.contains(build.id) }
                    } ?? true)
            }
            for index in indices { advanceBuild(at: index, in: &state) }
            indices = indices.filter { request.matches(["processingState": state.snapshot.builds[$0].processingState]) }
            indices = sorted(indices, request) { index, key in
                let build = state.snapshot.builds[index]
                switch key {
                case "version": return build.version
                case "uploadedDate": return Self.date(build.uploadedDate)
                default: return state.snapshot.preReleaseVersions.first { $0.id == build.preReleaseVersionID }?.version ?? ""
                }
            }
            return indices.map { buildJSON(state.snapshot.builds[$0], submission: submissionID(ofBuild: state.snapshot.builds[$0].id, in: state.snapshot)) }
        }
        return page(items, request)
    }

    func getBuild(_ request: APIRequest) throws -> Reply {
        let build: [String: Any] = try mutate { state in
            let index = try buildIndex(request.id, in: state.snapshot)
            advanceBuild(at: index, in: &state)
            return buildJSON(state.snapshot.builds[index], submission: submissionID(ofBuild: request.id, in: state.snapshot))
        }
        return single(build, reading: request)
    }

    private func buildIndex(_ id: String, in snapshot: AppStoreConnectSnapshot) throws -> Int {
        guard let index = snapshot.builds.firstIndex(where: { $0.id == id }) else { throw AppStoreConnectProblem.notFound("builds", id) }
        return index
    }

    /// `usesNonExemptEncryption` (the export-compliance answer) and `expired` (expiring is one-way).
    func updateBuild(_ request: APIRequest) throws -> Reply {
        let entity = try AppStoreConnectEntity(request.body, type: "builds", id: request.id)
        let attributes = try entity.attributes(
            ["expired": .boolean, "usesNonExemptEncryption": .boolean], nullable: ["expired", "usesNonExemptEncryption"])
        try entity.onlyRelationships(["appEncryptionDeclaration"])
        try entity.decode(as: request.operation)
        let build: [String: Any] = try mutate { state in
            let index = try buildIndex(request.id, in: state.snapshot)
            if let declaration = try entity.relationship("appEncryptionDeclaration", type: "appEncryptionDeclarations", required: false) {
                throw AppStoreConnectProblem.invalidRelationship(
                    "/data/relationships/appEncryptionDeclaration/data/id",
                    "There is no resource of type 'appEncryptionDeclarations' with id '\(declaration)'", status: 422)
            }
            if let expired = (attributes["expired"] as? NSNumber)?.boolValue {
                if !expired && state.snapshot.builds[index].expired {
                    throw AppStoreConnectProblem.invalid("/data/attributes/expired", "An expired build cannot be made unexpired.")
                }
                state.snapshot.builds[index].expired = expired
            }
            if let encryption = attributes["usesNonExemptEncryption"] as? NSNumber {
                state.snapshot.builds[index].usesNonExemptEncryption = encryption.boolValue
            }
            state.snapshot.refreshBetaStates(ofBuildAt: index)
            return buildJSON(state.snapshot.builds[index], submission: submissionID(ofBuild: request.id, in: state.snapshot))
        }
        return single(build, selfLink: resourceURL("builds", request.id))
    }

    func betaDetailOfBuild(_ request: APIRequest) throws -> Reply {
        let detail: [String: Any] = try state.withLock { state in
            let index = try buildIndex(request.id, in: state.snapshot)
            let build = state.snapshot.builds[index]
            guard let detail = state.snapshot.betaDetails.first(where: { $0.id == build.betaDetailID }) else {
                throw AppStoreConnectProblem.notFound("buildBetaDetails", build.betaDetailID)
            }
            return betaDetailJSON(detail)
        }
        return single(detail, reading: request)
    }

    func listPreReleaseVersions(_ request: APIRequest) -> Reply {
        let items: [[String: Any]] = state.withLock { state in
            let snapshot = state.snapshot
            let versions = snapshot.preReleaseVersions.filter { version in
                request.matches(["app": version.appID, "version": version.version, "platform": version.platform])
                    && (request.filter("builds.version").map { numbers in
                        snapshot.builds.contains { $0.preReleaseVersionID == version.id && numbers.contains($0.version) }
                    } ?? true)
            }
            return sorted(versions, request) { version, _ in version.version }.map(preReleaseVersionJSON)
        }
        return page(items, request)
    }

    // MARK: Beta groups

    /// `filter[app]` + `filter[name]`; in rehearsal mode one unknown name of an existing app creates the group.
    func listBetaGroups(_ request: APIRequest) -> Reply {
        let items: [[String: Any]] = mutate { state in
            if configuration.autoCreate, let names = request.filter("name"), names.count == 1,
                let apps = request.filter("app"), apps.count == 1, state.snapshot.apps.contains(where: { $0.id == apps[0] }),
                !state.snapshot.betaGroups.contains(where: { $0.appID == apps[0] && $0.name == names[0] })
            {
                _ = state.snapshot.betaGroup(appID: apps[0], name: names[0], isInternal: false)
            }
            let groups = state.snapshot.betaGroups.filter { group in
                request.matches(["app": group.appID, "name": group.name, "id": group.id, "isInternalGroup": "\(group.isInternal)"])
                    && (request.filter("builds").map { builds in builds.contains(where: group.buildIDs.contains) } ?? true)
            }
            return sorted(groups, request) { group, key in key == "name" ? group.name : Self.date(group.createdDate) }.map(betaGroupJSON)
        }
        return page(items, request)
    }

    /// Both linkage requests: builds into a group, or a build into groups. Adding what is there already is a
    /// no-op, so a re-run converges.
    func addBuildsToGroups(_ request: APIRequest) throws -> Reply {
        let intoGroup = request.operation == .betaGroupAddBuilds
        let ids = try AppStoreConnectEntity.linkages(request.body, type: intoGroup ? "builds" : "betaGroups")
        try AppStoreConnectEntity.decode(request.body, as: request.operation)
        try mutate { state in
            var pairs: [(build: Int, group: Int, pointer: String)] = []
            if intoGroup {
                guard let group = state.snapshot.betaGroups.firstIndex(where: { $0.id == request.id }) else {
                    throw AppStoreConnectProblem.notFound("betaGroups", request.id)
                }
                for (position, id) in ids.enumerated() {
                    guard let build = state.snapshot.builds.firstIndex(where: { $0.id == id }) else {
                        throw AppStoreConnectProblem.invalidRelationship("/data/\(position)/id", "There is no resource of type 'builds' with id '\(id)'", status: 422)
                    }
                    pairs.append((build, group, "/data/\(position)"))
                }
            } else {
                let build = try buildIndex(request.id, in: state.snapshot)
                for (position, id) in ids.enumerated() {
                    guard let group = state.snapshot.betaGroups.firstIndex(where: { $0.id == id }) else {
                        throw AppStoreConnectProblem.invalidRelationship("/data/\(position)/id", "There is no resource of type 'betaGroups' with id '\(id)'", status: 422)
                    }
                    pairs.append((build, group, "/data/\(position)"))
                }
            }
            for pair in pairs {
                let build = state.snapshot.builds[pair.build]
                let group = state.snapshot.betaGroups[pair.group]
                guard build.appID == group.appID else {
                    throw AppStoreConnectProblem.invalidRelationship(pair.pointer, "The build '\(build.id)' and the beta group '\(group.name)' belong to different apps.")
                }
                guard build.processingState == "VALID", !build.expired else {
                    throw AppStoreConnectProblem.state(
                        "The build '\(build.version)' is \(build.expired ? "expired" : build.processingState) and cannot be added to a beta group yet.",
                        pointer: pair.pointer)
                }
            }
            for pair in pairs {
                let buildID = state.snapshot.builds[pair.build].id
                if !state.snapshot.betaGroups[pair.group].buildIDs.contains(buildID) {
                    state.snapshot.betaGroups[pair.group].buildIDs.append(buildID)
                }
                if state.snapshot.betaGroups[pair.group].isInternal,
                    let detail = state.snapshot.betaDetails.firstIndex(where: { $0.buildID == buildID }),
                    state.snapshot.betaDetails[detail].internalBuildState == "READY_FOR_BETA_TESTING"
                {
                    state.snapshot.betaDetails[detail].internalBuildState = "IN_BETA_TESTING"
                }
            }
        }
        return Reply(status: 204)
    }

    // MARK: What to test

    func listLocalizations(_ request: APIRequest) -> Reply {
        list(request, \.localizations, as: localizationJSON) { ["build": $0.buildID, "locale": $0.locale] }
    }

    /// TestFlight's limit for "What to Test".
    static let whatsNewLimit = 4000

    func createLocalization(_ request: APIRequest) throws -> Reply {
        let entity = try AppStoreConnectEntity(request.body, type: "betaBuildLocalizations")
        let attributes = try entity.attributes(["whatsNew": .string, "locale": .string], required: ["locale"], nullable: ["whatsNew"])
        try entity.onlyRelationships(["build"])
        let buildID = try entity.relationship("build", type: "builds", required: true) ?? ""
        let locale = attributes["locale"] as? String ?? ""
        let whatsNew = attributes["whatsNew"] as? String
        try Self.checkLocalization(locale: locale, whatsNew: whatsNew)
        try entity.decode(as: request.operation)
        let localization: [String: Any] = try mutate { state in
            guard state.snapshot.builds.contains(where: { $0.id == buildID }) else {
                throw AppStoreConnectProblem.invalidRelationship(
                    "/data/relationships/build/data/id", "There is no resource of type 'builds' with id '\(buildID)'", status: 422)
            }
            if state.snapshot.localizations.contains(where: { $0.buildID == buildID && $0.locale == locale }) {
                throw AppStoreConnectProblem.duplicate(
                    "/data/attributes/locale", "The build already has a beta build localization for locale '\(locale)'; update that one instead.")
            }
            let localization = AppStoreConnectSnapshot.Localization(
                id: UUID().uuidString.lowercased(), buildID: buildID, locale: locale, whatsNew: whatsNew)
            state.snapshot.localizations.append(localization)
            return localizationJSON(localization)
        }
        return created(localization, "betaBuildLocalizations")
    }

    private static func checkLocalization(locale: String?, whatsNew: String?) throws {
        if let locale {
            let parts = locale.split(separator: "-", omittingEmptySubsequences: false)
            let valid = (1...3).contains(parts.count) && parts.allSatisfy { (2...4).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
            if !valid { throw AppStoreConnectProblem.invalid("/data/attributes/locale", "'\(locale)' is not a valid locale, such as en-US") }
        }
        if let whatsNew, whatsNew.utf16.count > whatsNewLimit {
            throw AppStoreConnectProblem.invalid(
                "/data/attributes/whatsNew", "'whatsNew' is \(whatsNew.utf16.count) characters; the limit is \(whatsNewLimit)")
        }
    }

    func updateLocalization(_ request: APIRequest) throws -> Reply {
        let entity = try AppStoreConnectEntity(request.body, type: "betaBuildLocalizations", id: request.id)
        let attributes = try entity.attributes(["whatsNew": .string], nullable: ["whatsNew"])
        try Self.checkLocalization(locale: nil, whatsNew: attributes["whatsNew"] as? String)
        try entity.decode(as: request.operation)
        let localization: [String: Any] = try mutate { state in
            guard let index = state.snapshot.localizations.firstIndex(where: { $0.id == request.id }) else {
                throw AppStoreConnectProblem.notFound("betaBuildLocalizations", request.id)
            }
            if let value = attributes["whatsNew"] { state.snapshot.localizations[index].whatsNew = value as? String }
            return localizationJSON(state.snapshot.localizations[index])
        }
        return single(localization, selfLink: resourceURL("betaBuildLocalizations", request.id))
    }

    // MARK: Beta details

    func listBetaDetails(_ request: APIRequest) -> Reply {
        list(request, \.betaDetails, as: betaDetailJSON) { ["build": $0.buildID, "id": $0.id] }
    }

    func getBetaDetail(_ request: APIRequest) throws -> Reply {
        try instance(request, "buildBetaDetails", \.betaDetails, id: \.id, render: betaDetailJSON)
    }

    func updateBetaDetail(_ request: APIRequest) throws -> Reply {
        let entity = try AppStoreConnectEntity(request.body, type: "buildBetaDetails", id: request.id)
        let attributes = try entity.attributes(["autoNotifyEnabled": .boolean], nullable: ["autoNotifyEnabled"])
        try entity.decode(as: request.operation)
        let detail: [String: Any] = try mutate { state in
            guard let index = state.snapshot.betaDetails.firstIndex(where: { $0.id == request.id }) else {
                throw AppStoreConnectProblem.notFound("buildBetaDetails", request.id)
            }
            if let value = attributes["autoNotifyEnabled"] as? NSNumber { state.snapshot.betaDetails[index].autoNotifyEnabled = value.boolValue }
            return betaDetailJSON(state.snapshot.betaDetails[index])
        }
        return single(detail, selfLink: resourceURL("buildBetaDetails", request.id))
    }

    // MARK: Beta review

    /// One submission per build; the build must be valid and have its export-compliance answer, as on Apple's
    /// side.
    func createSubmission(_ request: APIRequest) throws -> Reply {
        let entity = try AppStoreConnectEntity(request.body, type: "betaAppReviewSubmissions")
        _ = try entity.attributes([:])
        try entity.onlyRelationships(["build"])
        let buildID = try entity.relationship("build", type: "builds", required: true) ?? ""
        try entity.decode(as: request.operation)
        let submission: [String: Any] = try mutate { state in
            guard let index = state.snapshot.builds.firstIndex(where: { $0.id == buildID }) else {
                throw AppStoreConnectProblem.invalidRelationship(
                    "/data/relationships/build/data/id", "There is no resource of type 'builds' with id '\(buildID)'", status: 422)
            }
            let build = state.snapshot.builds[index]
            if state.snapshot.submissions.contains(where: { $0.buildID == buildID }) {
                throw AppStoreConnectProblem.state("A beta app review submission already exists for build '\(build.version)'.", pointer: "/data/relationships/build")
            }
            guard build.processingState == "VALID", !build.expired else {
                throw AppStoreConnectProblem.state(
                    "The build '\(build.version)' is \(build.expired ? "expired" : build.processingState) and cannot be submitted for beta review.",
                    pointer: "/data/relationships/build")
            }
            guard build.usesNonExemptEncryption != nil else {
                throw AppStoreConnectProblem.state(
                    "The build '\(build.version)' is missing export compliance information: set usesNonExemptEncryption first.",
                    pointer: "/data/relationships/build")
            }
            let submission = AppStoreConnectSnapshot.Submission(
                id: UUID().uuidString.lowercased(), buildID: buildID, state: "WAITING_FOR_REVIEW", submittedDate: Date())
            state.snapshot.submissions.append(submission)
            if let detail = state.snapshot.betaDetails.firstIndex(where: { $0.buildID == buildID }) {
                state.snapshot.betaDetails[detail].externalBuildState = "WAITING_FOR_BETA_REVIEW"
            }
            return submissionJSON(submission)
        }
        return created(submission, "betaAppReviewSubmissions")
    }

    func getSubmission(_ request: APIRequest) throws -> Reply {
        try instance(request, "betaAppReviewSubmissions", \.submissions, id: \.id, render: submissionJSON)
    }
}

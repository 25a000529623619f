import Foundation

/// The state changes App Store Connect makes on its own: creating what a lookup finds missing (in rehearsal
/// mode), turning a processed upload into a build, and the beta states that follow a build's processing.
extension AppStoreConnectSnapshot {
    /// The id of the app with `bundleID`, created when missing.
    mutating func app(bundleID: String, name: String) -> String {
        if let existing = apps.first(where: { $0.bundleID == bundleID }) { return existing.id }
        let id = "\(nextAppNumber)"
        nextAppNumber += 1
        let readable = bundleID.split(separator: ".").last.map(String.init) ?? bundleID
        apps.append(App(id: id, bundleID: bundleID, name: name == bundleID ? readable : name, sku: bundleID, primaryLocale: "en-US"))
        return id
    }

    /// The id of the app's beta group called `name`, created when missing.
    mutating func betaGroup(appID: String, name: String, isInternal: Bool) -> String {
        if let existing = betaGroups.first(where: { $0.appID == appID && $0.name == name }) { return existing.id }
        let group = BetaGroup(id: UUID().uuidString.lowercased(), appID: appID, name: name, isInternal: isInternal, createdDate: Date())
        betaGroups.append(group)
        return group.id
    }

    /// Creates a `PROCESSING` build (with its pre-release version when new, and its beta detail); returns its
    /// index in ``builds``.
    mutating func createBuild(appID: String, version: String, build: String, platform: String, uploadID: String?) -> Int {
        let preRelease: String
        if let existing = preReleaseVersions.first(where: { $0.appID == appID && $0.version == version && $0.platform == platform }) {
            preRelease = existing.id
        } else {
            preRelease = UUID().uuidString.lowercased()
            preReleaseVersions.append(PreReleaseVersion(id: preRelease, appID: appID, version: version, platform: platform))
        }
        let now = Date()
        let buildID = UUID().uuidString.lowercased()
        let detail = BetaDetail(id: buildID, buildID: buildID, internalBuildState: "PROCESSING", externalBuildState: "PROCESSING")
        betaDetails.append(detail)
        builds.append(
            Build(
                id: buildID, appID: appID, preReleaseVersionID: preRelease, version: build, processingState: "PROCESSING",
                uploadedDate: now, expirationDate: now.addingTimeInterval(90 * 24 * 3600), uploadID: uploadID, betaDetailID: detail.id
            ))
        return builds.count - 1
    }

    /// Sets a build's processing state and the beta states that follow from it: a valid build without an
    /// export-compliance answer (`usesNonExemptEncryption`) is `MISSING_EXPORT_COMPLIANCE`, as on Apple's side.
    mutating func setProcessingState(_ processingState: String, ofBuildAt index: Int) {
        builds[index].processingState = processingState
        builds[index].polls = 0
        refreshBetaStates(ofBuildAt: index)
    }

    /// Recomputes the beta states of a build whose processing, compliance or expiry changed; states a tester
    /// or reviewer moved on (in testing, in review) are kept.
    mutating func refreshBetaStates(ofBuildAt index: Int) {
        let build = builds[index]
        guard let detail = betaDetails.firstIndex(where: { $0.id == build.betaDetailID }) else { return }
        let settled: Set<String> = ["IN_BETA_TESTING", "WAITING_FOR_BETA_REVIEW", "IN_BETA_REVIEW", "BETA_REJECTED", "BETA_APPROVED"]
        let (internalState, externalState): (String, String)
        switch build.processingState {
        case _ where build.expired:
            (internalState, externalState) = ("EXPIRED", "EXPIRED")
        case "PROCESSING":
            (internalState, externalState) = ("PROCESSING", "PROCESSING")
        case "VALID" where build.usesNonExemptEncryption == nil:
            (internalState, externalState) = ("MISSING_EXPORT_COMPLIANCE", "MISSING_EXPORT_COMPLIANCE")
        case "VALID":
            (internalState, externalState) = ("READY_FOR_BETA_TESTING", "READY_FOR_BETA_SUBMISSION")
        default:
            (internalState, externalState) = ("PROCESSING_EXCEPTION", "PROCESSING_EXCEPTION")
        }
        if build.expired || !settled.contains(betaDetails[detail].internalBuildState) {
            betaDetails[detail].internalBuildState = internalState
        }
        if build.expired || !settled.contains(betaDetails[detail].externalBuildState) {
            betaDetails[detail].externalBuildState = externalState
        }
    }
}

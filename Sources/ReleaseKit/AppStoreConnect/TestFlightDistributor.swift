import Foundation
import ReleaseSupport

/// Gets an uploaded build to testers: waits for processing, sets the what-to-test text per locale, answers the
/// export-compliance question, adds the build to beta groups by name, and optionally submits it for beta review.
/// Each action looks first and changes only what differs, so running it again changes nothing.
package struct TestFlightDistributor: AppStoreConnectWorker {
    /// What to do with which build.
    package struct Request: Sendable {
        /// The build's id, when known (`appstore.upload`'s `build_id`); else it is found by the fields below.
        package var buildID: String?
        package var bundleID: String
        package var version: String
        package var build: String
        package var platform: ApplePlatform
        /// Locale → what-to-test text.
        package var whatToTest: [String: String]
        package var groups: [String]
        package var submitForReview: Bool
        package var usesNonExemptEncryption: Bool?
        package var pollInterval: Duration
        package var waitTimeout: Double
        /// How long this run may wait for processing before the step ends waiting; nil waits until done.
        package var waitBudget: Double? = nil

        package init(
            buildID: String? = nil, bundleID: String, version: String, build: String, platform: ApplePlatform = .iOS,
            whatToTest: [String: String] = [:], groups: [String] = [], submitForReview: Bool = false,
            usesNonExemptEncryption: Bool? = nil, pollInterval: Duration = .seconds(15), waitTimeout: Double = 3600
        ) {
            self.buildID = buildID
            self.bundleID = bundleID
            self.version = version
            self.build = build
            self.platform = platform
            self.whatToTest = whatToTest
            self.groups = groups
            self.submitForReview = submitForReview
            self.usesNonExemptEncryption = usesNonExemptEncryption
            self.pollInterval = pollInterval
            self.waitTimeout = waitTimeout
        }
    }

    /// What changed and what was already so.
    package struct Result: Sendable, Equatable {
        package var buildID: String
        package var changed: [String] = []
        package var unchanged: [String] = []
        /// The build's external testing state after the run, when beta review was looked at.
        package var externalState: String?
    }

    /// External states in which a submission for beta review exists or is no longer needed.
    static let submittedStates: Set<String> = ["WAITING_FOR_BETA_REVIEW", "IN_BETA_REVIEW", "BETA_APPROVED", "IN_BETA_TESTING"]

    package let session: AppStoreConnectSession

    package init(session: AppStoreConnectSession) {
        self.session = session
    }

    package func distribute(_ request: Request) async throws -> Result {
        let catalog = AppStoreConnectCatalog(client: client)
        let app = try await catalog.app(bundleID: request.bundleID)
        let started = now()
        let buildID = try await findBuild(request, appID: app.id, catalog: catalog, started: started)
        var result = Result(buildID: buildID)
        let uploader = AppStoreConnectUploader(session: session)
        _ = try await uploader.waitUntilProcessed(
            buildID: buildID, version: request.version, build: request.build,
            pollInterval: request.pollInterval, timeout: request.waitTimeout, budget: request.waitBudget, since: started)
        if let encryption = request.usesNonExemptEncryption {
            try await setExportCompliance(encryption, buildID: buildID, into: &result)
        }
        let changes = try await client.convergeWhatsNew(
            BetaBuildLocalizationAttributes.self,
            existing: AppStoreConnectClient.path("/v1/betaBuildLocalizations", [("filter[build]", buildID), ("limit", "200")]),
            texts: request.whatToTest, parentID: buildID)
        result.changed += changes.changed.map { "what to test (\($0))" }
        result.unchanged += changes.unchanged.map { "what to test (\($0))" }
        if !request.groups.isEmpty {
            try await addToGroups(request.groups, appID: app.id, buildID: buildID, into: &result)
        }
        if request.submitForReview {
            try await submitForReview(buildID: buildID, into: &result)
        }
        for line in result.changed { log("set \(line)") }
        for line in result.unchanged { log("\(line): already so") }
        return result
    }

    /// Sets the build's export compliance answer unless it already has it.
    private func setExportCompliance(_ encryption: Bool, buildID: String, into result: inout Result) async throws {
        let current = try await client.resource(BuildAttributes.self, "/v1/builds/\(buildID)").attributes?.usesNonExemptEncryption
        if current == encryption {
            result.unchanged.append("export compliance (uses non-exempt encryption: \(encryption))")
        } else {
            try await client.write(
                "PATCH", "/v1/builds/\(buildID)",
                Components.Schemas.BuildUpdateRequest(data: .init(_type: .builds, id: buildID, attributes: .init(usesNonExemptEncryption: encryption))))
            result.changed.append("export compliance (uses non-exempt encryption: \(encryption))")
        }
    }

    /// Adds the build to the beta groups named `groupNames` that do not have it yet.
    /// - Throws: ``AppStoreConnectError/noBetaGroup(name:available:)`` for a name no group of the app has exactly.
    private func addToGroups(_ groupNames: [String], appID: String, buildID: String, into result: inout Result) async throws {
        var chosen: [Resource<BetaGroupAttributes>] = []
        for name in groupNames {
            chosen.append(try await betaGroup(named: name, appID: appID))
        }
        // Only the groups that do not have the build yet are asked to take it.
        let having = Set(
            try await client.resources(
                BetaGroupAttributes.self,
                AppStoreConnectClient.path(
                    "/v1/betaGroups", [("filter[app]", appID), ("filter[builds]", buildID), ("limit", "200")])
            ).map(\.id))
        let missing = chosen.filter { !having.contains($0.id) }
        let names = { (groups: [Resource<BetaGroupAttributes>]) in groups.map { "'\($0.attributes?.name ?? $0.id)'" }.joined(separator: ", ") }
        if !missing.isEmpty {
            try await client.write(
                "POST", "/v1/builds/\(buildID)/relationships/betaGroups",
                Components.Schemas.BuildBetaGroupsLinkagesRequest(data: missing.map { .init(_type: .betaGroups, id: $0.id) }))
            result.changed.append("beta groups " + names(missing))
        }
        let already = chosen.filter { having.contains($0.id) }
        if !already.isEmpty { result.unchanged.append("beta groups " + names(already)) }
    }

    /// The app's beta group named exactly `name`.
    private func betaGroup(named name: String, appID: String) async throws -> Resource<BetaGroupAttributes> {
        let matches = try await client.resources(
            BetaGroupAttributes.self,
            AppStoreConnectClient.path(
                "/v1/betaGroups", [("filter[app]", appID), ("filter[name]", name)]))
        // The filter may match more loosely than the name: only an exact one counts.
        guard let group = matches.first(where: { $0.attributes?.name == name }) else {
            let all = try await client.resources(
                BetaGroupAttributes.self,
                AppStoreConnectClient.path(
                    "/v1/betaGroups", [("filter[app]", appID), ("limit", "200")]))
            throw AppStoreConnectError.noBetaGroup(name: name, available: all.compactMap { $0.attributes?.name }.sorted())
        }
        return group
    }

    /// Submits the build to beta review unless it is already submitted (or further).
    private func submitForReview(buildID: String, into result: inout Result) async throws {
        let details = try await client.resources(
            BuildBetaDetailAttributes.self,
            AppStoreConnectClient.path(
                "/v1/buildBetaDetails", [("filter[build]", buildID)]))
        let state = details.first?.attributes?.externalBuildState ?? ""
        if Self.submittedStates.contains(state) {
            result.unchanged.append("beta review (\(state))")
            result.externalState = state
            return
        }
        do {
            let submission = try await client.write(
                "POST", "/v1/betaAppReviewSubmissions",
                Components.Schemas.BetaAppReviewSubmissionCreateRequest(
                    data: .init(_type: .betaAppReviewSubmissions, relationships: .init(build: .init(data: .init(_type: .builds, id: buildID))))),
                as: BetaAppReviewSubmissionAttributes.self)
            result.changed.append("beta review submission (\(submission.attributes?.betaReviewState ?? "submitted"))")
            result.externalState = "WAITING_FOR_BETA_REVIEW"
        } catch AppStoreConnectError.api(_, _, 409, let errors) {
            // Already submitted: App Store Connect keeps one submission per build.
            for error in errors { log("App Store Connect: \(error.line)") }
            result.unchanged.append("beta review (already submitted)")
            result.externalState = state
        }
    }

    /// The build by id, or found by version and number, waiting for it to appear after an upload.
    func findBuild(_ request: Request, appID: String, catalog: AppStoreConnectCatalog, started: Date) async throws -> String {
        if let id = request.buildID, !id.isEmpty { return id }
        let poll = AppStoreConnectPoll(
            what: "build \(request.version) (\(request.build)) to appear in App Store Connect", interval: request.pollInterval,
            timeout: request.waitTimeout, budget: request.waitBudget, sleep: sleep, now: now)
        do {
            return try await poll.until(String.self, since: started) {
                if let build = try await catalog.builds(appID: appID, version: request.version, build: request.build, platform: request.platform).first {
                    return .done(build.id)
                }
                // Only an upload on its way is worth waiting for.
                let uploads = try await catalog.uploads(appID: appID, version: request.version, build: request.build, platform: request.platform)
                let pending = uploads.contains { ["AWAITING_UPLOAD", "PROCESSING", "COMPLETE"].contains($0.attributes?.state?.state ?? "") }
                guard pending else { throw AppStoreConnectError.noBuild(version: request.version, build: request.build) }
                log("waiting for build \(request.version) (\(request.build)) to appear in App Store Connect")
                return .waiting(state: "not there yet")
            }
        } catch AppStoreConnectError.timedOut {
            throw AppStoreConnectError.noBuild(version: request.version, build: request.build)
        }
    }
}

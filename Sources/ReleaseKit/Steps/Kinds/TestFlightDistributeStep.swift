import Foundation
import ReleaseAppStoreConnect
import ReleaseSupport

/// `testflight.distribute`: gets an uploaded build to testers. Waits for processing, sets the what-to-test text per
/// locale, optionally answers export compliance, adds the build to beta groups by name, and optionally submits it for
/// beta review (needed before external groups see it). Each action converges: a re-run changes nothing. See
/// ``TestFlightDistributor``.
package struct TestFlightDistributeStep: Step {
    package struct Options: StepOptions {
        @StepOption(must: .notBeEmpty(trimmed: true), help: "the app's bundle id, e.g. ${steps.upload.outputs.bundle_id}")
        package var bundleID: String
        @StepOption(must: .notBeEmpty(trimmed: true), help: "the marketing version, e.g. ${steps.upload.outputs.version}")
        package var version: String
        @StepOption(must: .notBeEmpty(trimmed: true), help: "the build number, e.g. ${steps.upload.outputs.build}")
        package var build: String
        @StepOption(help: "the build's id when known (appstore.upload's build_id); else found by version and build")
        package var buildID: String?
        @StepOption(help: "what to test: text for en-US, or {locale: text}; at most 4,000 characters each")
        package var whatToTest: WhatToTest?
        @StepOption(must: .haveNoEmptyItem(saying: "a group name is empty"), help: "beta groups to add the build to, by name")
        package var groups: [String] = []
        @StepOption(help: "submit the build for beta review (external groups need it)")
        package var submitForReview: Bool = false
        @StepOption(help: "answer export compliance: does the app use non-exempt encryption")
        package var usesNonExemptEncryption: Bool?
        @StepOption(help: "App Store Connect's platform: \(ApplePlatform.AppStoreConnectSpelling.wordList)")
        package var platform: ApplePlatformChoice<ApplePlatform.AppStoreConnectSpelling> = .init(.iOS)
        @StepOption(
            help:
                "how long to wait for the build's processing: processed (the default budget: 5m in CI, until done elsewhere), a duration (30s, 5m, 2h, 1d) or until-done. A budget that runs out ends the step waiting, not failed: the run exits 0 and running it again continues"
        )
        package var wait: WaitBudget = .state("processed")
        @StepOptionGroup
        package var waiting: AppStoreConnectPollingOptions
        @StepOptionGroup
        package var appStoreConnect: AppStoreConnectOptions

        package init() {}
    }

    /// `what_to_test`: one text (for `en-US`) or text per locale.
    package enum WhatToTest: OptionValue, Equatable {
        case text(String)
        case locales([String: String])

        package init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) {
                self = .text(text)
            } else {
                self = .locales(try container.decode([String: String].self))
            }
        }

        /// Locale → text.
        var byLocale: [String: String] {
            switch self {
            case .text(let text): return ["en-US": text]
            case .locales(let texts): return texts
            }
        }

        package static func optionTypeName(_ format: OptionFormat) -> String { "string | {string: string}" }
    }

    /// TestFlight's limit on what-to-test text.
    static let maximumWhatToTest = 4000

    package static let kind = "testflight.distribute"
    package static let exportTraits = ExportTraits(waitsOnApple: true)
    package static let summary = "Get an uploaded build to TestFlight testers: what-to-test per locale, beta groups by name, optional beta review; a re-run changes nothing"
    package static let outputs: [StepDocumentation.Output] = [
        .init("build_id", "string", "the builds resource's id"),
        .init("changed", "list", "what this run changed"),
        .init("external_state", "string", "the build's external testing state after a beta review submission (empty otherwise)"),
    ]
    package static let example = """
        {"id": "testflight", "uses": "testflight.distribute", "needs": ["upload"],
         "with": {"bundle_id": "${steps.upload.outputs.bundle_id}", "version": "${steps.upload.outputs.version}",
                  "build": "${steps.upload.outputs.build}", "build_id": "${steps.upload.outputs.build_id}",
                  "what_to_test": "${steps.notes.outputs.text}", "groups": ["QA"], "uses_non_exempt_encryption": false,
                  \(AppStoreConnectOptions.example)}}
        """

    package let options: Options
    let access: AppStoreConnectAccess

    package init(options: Options) throws {
        try options.validate()
        for (locale, text) in options.whatToTest?.byLocale ?? [:] {
            if locale.isEmpty { throw StepError.invalidOption("what_to_test", "a locale is empty (use names like en-US)") }
            if text.count > Self.maximumWhatToTest {
                throw StepError.invalidOption("what_to_test", "\(text.count) characters for \(locale); TestFlight accepts at most \(Self.maximumWhatToTest)")
            }
        }
        try options.wait.check(states: ["processed"])
        access = AppStoreConnectAccess(options.appStoreConnect)
        self.options = options
    }

    package func verify(in context: StepContext) async throws {
        _ = try access.parsedKey(in: context)
    }

    package func plan(in context: StepContext) async throws -> StepPlan {
        let api = try access.apiURL(in: context)
        let what = "\(options.bundleID) \(options.version) (\(options.build))"
        var effects: [PlannedEffect] = [
            .request(method: "GET", url: api + "/v1/builds/{id}", detail: "wait until \(what) is processed (VALID), \(options.wait.describe(in: context.environment))")
        ]
        if let encryption = options.usesNonExemptEncryption {
            effects.append(.request(method: "PATCH", url: api + "/v1/builds/{id}", detail: "set usesNonExemptEncryption to \(encryption) unless it is"))
        }
        for locale in (options.whatToTest?.byLocale ?? [:]).keys.sorted() {
            effects.append(.request(method: "POST", url: api + "/v1/betaBuildLocalizations", detail: "set what to test for \(locale) unless it is the same"))
        }
        if !options.groups.isEmpty {
            effects.append(
                .request(
                    method: "POST", url: api + "/v1/builds/{id}/relationships/betaGroups",
                    detail: "add the build to " + options.groups.map { "'\($0)'" }.joined(separator: ", ")))
        }
        if options.submitForReview {
            effects.append(.request(method: "POST", url: api + "/v1/betaAppReviewSubmissions", detail: "submit for beta review unless submitted"))
        }
        return StepPlan(effects: effects, outputs: StepOutputs(["build_id": .string(options.buildID ?? ""), "changed": .list([]), "external_state": .string("")]))
    }

    package func run(in context: StepContext) async throws -> StepOutputs {
        let distributor = TestFlightDistributor(session: try access.session(in: context))
        var request = TestFlightDistributor.Request(
            buildID: options.buildID.flatMap { $0.isEmpty ? nil : $0 }, bundleID: options.bundleID, version: options.version,
            build: options.build, platform: options.platform.platform, whatToTest: options.whatToTest?.byLocale ?? [:],
            groups: options.groups, submitForReview: options.submitForReview, usesNonExemptEncryption: options.usesNonExemptEncryption,
            pollInterval: options.waiting.polling.interval, waitTimeout: options.waiting.polling.timeout)
        request.waitBudget = options.wait.seconds(in: context.environment)
        do {
            let result = try await distributor.distribute(request)
            return StepOutputs([
                "build_id": .string(result.buildID), "changed": .list(result.changed.map { .string($0) }),
                "external_state": .string(result.externalState ?? ""),
            ])
        } catch {
            throw AppStoreConnectAccess.stepError(error)
        }
    }
}

import Foundation
import ReleaseAppStoreConnect
import ReleaseSupport

/// `appstore.submit`: submits an uploaded build to App Review through the App Store Connect API. Finds the App Store
/// version for the marketing version (creates it when absent), sets the release type and What's New per locale (from
/// `whats_new`, and from fastlane's `metadata/<locale>/release_notes.txt` when the project has that folder), attaches
/// the build once it is processed, optionally creates a phased release, and submits through the app's open review
/// submission (reused, never duplicated). A re-run once the version is waiting for review changes nothing. See
/// ``AppStoreSubmitter``.
package struct AppStoreSubmitStep: Step {
    package struct Options: StepOptions {
        @StepOption(must: .notBeEmpty(trimmed: true), help: "the app's bundle id, e.g. ${steps.upload.outputs.bundle_id}")
        package var bundleID: String
        @StepOption(must: .notBeEmpty(trimmed: true), help: "the marketing version (the App Store version string), e.g. ${steps.upload.outputs.version}")
        package var version: String
        @StepOption(must: .notBeEmpty(trimmed: true), help: "the build number to ship, e.g. ${steps.upload.outputs.build}")
        package var build: String
        @StepOption(help: "App Store Connect's platform: \(ApplePlatform.AppStoreConnectSpelling.wordList)")
        package var platform: ApplePlatformChoice<ApplePlatform.AppStoreConnectSpelling> = .init(.iOS)
        @StepOption(help: "What's New: text for en-US, or {locale: text}; at most 4,000 characters each; overrides fastlane's release_notes.txt per locale")
        package var whatsNew: TestFlightDistributeStep.WhatToTest?
        @StepOption(help: "fastlane's metadata folder, whose <locale>/release_notes.txt give What's New (default: fastlane/metadata when it exists)")
        package var metadata: String?
        @StepOption(help: "when the approved version goes live: manual (appstore.rollout's release), after_approval, or scheduled")
        package var releaseType: ReleaseType?
        @StepOption(help: "for scheduled: the earliest release date, ISO 8601 (2026-12-01T08:00:00Z)")
        package var earliestReleaseDate: String?
        @StepOption(help: "release in phases over 7 days (true creates the phased release; false removes one that has not started)")
        package var phased: Bool?
        @StepOption(help: "submit for review; false prepares the version and stops")
        package var submit: Bool = true
        @StepOption(help: "when App Review left the open submission with unresolved issues (a rejection): cancel it and submit again")
        package var cancelOpenSubmission: Bool = false
        @StepOption(
            help:
                "how long to wait for the build's processing before attaching it: processed (the default budget: 5m in CI, until done elsewhere), a duration (30s, 5m, 2h, 1d) or until-done. A budget that runs out ends the step waiting, not failed: the run exits 0 and running it again continues"
        )
        package var wait: WaitBudget = .state("processed")
        @StepOptionGroup
        package var waiting: AppStoreConnectPollingOptions
        @StepOptionGroup
        package var appStoreConnect: AppStoreConnectOptions

        package init() {}
    }

    /// `release_type`.
    package enum ReleaseType: String, OptionChoice, Sendable {
        case manual
        case afterApproval = "after_approval"
        case scheduled

        /// App Store Connect's `releaseType`.
        var apiValue: String {
            switch self {
            case .manual: return "MANUAL"
            case .afterApproval: return "AFTER_APPROVAL"
            case .scheduled: return "SCHEDULED"
            }
        }
    }

    package static let kind = "appstore.submit"
    package static let exportTraits = ExportTraits(waitsOnApple: true)
    package static let summary =
        "Submit a build to App Review: App Store version (created or reused), release type, What's New per locale, build, phased release, review submission (reused, never duplicated); a re-run changes nothing"
    package static let outputs: [StepDocumentation.Output] = [
        .init("version_id", "string", "the appStoreVersions resource's id"),
        .init("submission_id", "string", "the reviewSubmissions resource's id (empty with submit: false)"),
        .init("state", "string", "the version's App Store state after the run, e.g. WAITING_FOR_REVIEW"),
        .init("changed", "list", "what this run changed (empty when the version was already submitted)"),
    ]
    package static let example = """
        {"id": "submit", "uses": "appstore.submit", "needs": ["upload"],
         "with": {"bundle_id": "${steps.upload.outputs.bundle_id}", "version": "${steps.upload.outputs.version}",
                  "build": "${steps.upload.outputs.build}", "whats_new": {"en-US": "${steps.notes.outputs.text}"},
                  "release_type": "after_approval", "phased": true,
                  \(AppStoreConnectOptions.example)}}
        """

    /// The largest release_notes.txt read.
    static let maximumNotesFile = 64 << 10

    package let options: Options
    let access: AppStoreConnectAccess

    package init(options: Options) throws {
        try options.validate()
        try Self.check(options.whatsNew?.byLocale ?? [:], option: "whats_new")
        try options.wait.check(states: ["processed"])
        if let date = options.earliestReleaseDate, !date.contains("${"), Timestamp.parseISO8601(date) == nil {
            throw StepError.invalidOption("earliest_release_date", "'\(Echo.text(date))' is not an ISO 8601 date-time such as 2026-12-01T08:00:00Z")
        }
        if options.releaseType == .scheduled, options.earliestReleaseDate == nil {
            throw StepError.invalidOption("earliest_release_date", "release_type 'scheduled' needs an earliest_release_date")
        }
        if options.earliestReleaseDate != nil, options.releaseType != .scheduled {
            throw StepError.invalidOption("earliest_release_date", "only used with release_type 'scheduled'")
        }
        access = AppStoreConnectAccess(options.appStoreConnect)
        self.options = options
    }

    /// Locales App Store Connect knows, texts within its limit.
    static func check(_ texts: [String: String], option: String) throws {
        for locale in texts.keys.sorted() where !locale.contains("${") {
            guard AppStoreLocale.all.contains(locale) else {
                let hint = AppStoreLocale.suggestion(for: locale).map { "did you mean '\($0)'?" } ?? "App Store Connect's locales are " + AppStoreLocale.all.joined(separator: ", ")
                throw StepError.invalidOption(option, "'\(Echo.text(locale))' is not a locale App Store Connect knows (\(hint))")
            }
            // Counted in UTF-16 code units, as App Store Connect counts: an emoji is two, a family of five people nine.
            if let text = texts[locale], text.utf16.count > AppStoreLocale.whatsNewLimit {
                throw StepError.invalidOption(option, "\(text.utf16.count) characters for \(locale); App Store Connect accepts at most \(AppStoreLocale.whatsNewLimit)")
            }
        }
    }

    /// What's New per locale: fastlane's release notes, then `whats_new` over them.
    func whatsNew(in context: StepContext) throws -> [String: String] {
        var texts: [String: String] = [:]
        let folder = options.metadata.map(context.resolvePath) ?? context.resolvePath("fastlane/metadata")
        if context.files.isDirectory(folder) {
            for locale in context.files.names(in: folder) ?? [] {
                let file = (folder as NSString).appendingPathComponent("\(locale)/release_notes.txt")
                guard context.files.exists(file) else { continue }
                // A regular file only (a FIFO there once stalled preflight past two SIGTERMs), within the cap, and
                // inside the checkout: a symlink to `/etc/hostname` is not release notes to publish.
                let data: Data
                do {
                    guard let read = try RegularFile.read(file, limit: Self.maximumNotesFile, checks: .input) else { continue }
                    data = read
                } catch RegularFile.Refusal.tooLarge {
                    throw StepError.failed("\(file): not UTF-8 text within \(ByteFormat.size(Int64(Self.maximumNotesFile)))")
                } catch {
                    throw StepError.failed("\(error)")
                }
                let checkout = Platform.canonicalPath(GitDirectory.checkoutRoot(of: context.workingDirectory)) ?? context.workingDirectory
                if let real = Platform.canonicalPath(file), FilePath.relative(real, to: checkout) == nil {
                    throw StepError.failed("\(file): a symbolic link to '\(Echo.text(real))', outside the checkout '\(checkout)': refused")
                }
                guard let text = String(data: data, encoding: .utf8) else {
                    throw StepError.failed("\(file): not UTF-8 text within \(ByteFormat.size(Int64(Self.maximumNotesFile)))")
                }
                let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
                if !trimmed.isEmpty { texts[locale] = trimmed }
            }
            do {
                try Self.check(texts, option: "metadata")
            } catch StepError.invalidOption(_, let reason) {
                throw StepError.failed("\(folder): \(reason); rename the folder to a known locale or remove its release_notes.txt")
            }
        } else if options.metadata != nil {
            throw StepError.invalidOption("metadata", "'\(Echo.text(folder))' is not a folder (fastlane's metadata folder, with <locale>/release_notes.txt)")
        }
        for (locale, text) in options.whatsNew?.byLocale ?? [:] { texts[locale] = text }
        try Self.check(texts, option: "whats_new")
        return texts
    }

    package func verify(in context: StepContext) async throws {
        _ = try access.parsedKey(in: context)
        _ = try whatsNew(in: context)
    }

    package func plan(in context: StepContext) async throws -> StepPlan {
        let api = try access.apiURL(in: context)
        let what = "\(options.bundleID) \(options.version)"
        var effects: [PlannedEffect] = [
            .request(method: "GET", url: api + "/v1/builds/{id}", detail: "wait until build \(options.build) of \(what) is processed (VALID)"),
            .request(
                method: "POST", url: api + "/v1/appStoreVersions",
                detail: "create App Store version \(what) unless it exists"
                    + (options.releaseType.map { ", release type \($0.rawValue)" } ?? "")),
        ]
        for locale in try whatsNew(in: context).keys.sorted() {
            effects.append(.request(method: "PATCH", url: api + "/v1/appStoreVersionLocalizations/{id}", detail: "set What's New for \(locale) unless it is the same"))
        }
        effects.append(.request(method: "PATCH", url: api + "/v1/appStoreVersions/{id}/relationships/build", detail: "attach build \(options.build) unless attached"))
        if options.phased == true {
            effects.append(.request(method: "POST", url: api + "/v1/appStoreVersionPhasedReleases", detail: "create a phased release unless there is one"))
        }
        if options.submit {
            effects.append(
                .request(
                    method: "PATCH", url: api + "/v1/reviewSubmissions/{id}",
                    detail: "submit for App Review through the open review submission (or a new one) unless already submitted"))
        }
        return StepPlan(
            effects: effects,
            outputs: StepOutputs([
                "version_id": .string(""), "submission_id": .string(""), "state": .string(options.submit ? "WAITING_FOR_REVIEW" : "PREPARE_FOR_SUBMISSION"),
                "changed": .list([]),
            ]))
    }

    package func run(in context: StepContext) async throws -> StepOutputs {
        let texts = try whatsNew(in: context)
        let submitter = AppStoreSubmitter(session: try access.session(in: context))
        var request = AppStoreSubmitter.Request(
            bundleID: options.bundleID, version: options.version, build: options.build, platform: options.platform.platform,
            whatsNew: texts, releaseType: options.releaseType?.apiValue, earliestReleaseDate: options.earliestReleaseDate,
            phased: options.phased, submit: options.submit, cancelOpenSubmission: options.cancelOpenSubmission,
            pollInterval: options.waiting.polling.interval, waitTimeout: options.waiting.polling.timeout)
        request.waitBudget = options.wait.seconds(in: context.environment)
        do {
            let result = try await submitter.submit(request)
            return StepOutputs([
                "version_id": .string(result.versionID), "submission_id": .string(result.submissionID), "state": .string(result.state),
                "changed": .list(result.changed.map { .string($0) }),
            ])
        } catch {
            throw AppStoreConnectAccess.stepError(error)
        }
    }
}

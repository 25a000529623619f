import Foundation
import Rehearsal
import ReleaseTestSupport
import Testing

@testable import ReleaseAppStoreConnect
@testable import ReleaseHTTP
@testable import ReleaseSteps

/// `appstore.submit` and `appstore.rollout` against the local App Store Connect: the first run creates and submits,
/// a re-run writes nothing, an open submission is reused, a rejection is explained, preflight errors come before any
/// write, and the rollout converges. Every exchange is checked against Apple's contract.
@Suite("AppStoreSubmitter") struct AppStoreSubmitterTests {
    static let bundleID = AppStoreConnectTestFixture.bundleID

    static func fixture(build: String = "42", version: String = "1.4.0", processing: String = "VALID", polls: Int = 1) throws -> AppStoreConnectTestFixture {
        let fixture = try AppStoreConnectTestFixture(processingPolls: polls)
        fixture.server.addApp(bundleID: bundleID, name: "Demo")
        fixture.server.addBuild(bundleID: bundleID, version: version, build: build, processingState: processing)
        return fixture
    }

    static func submitter(_ fixture: AppStoreConnectTestFixture, log: Recorder<String> = Recorder()) throws -> AppStoreSubmitter {
        AppStoreSubmitter(session: AppStoreConnectSession(client: try fixture.client(), log: { log.append($0) }, sleep: { _ in }))
    }

    static func request(_ change: (inout AppStoreSubmitter.Request) -> Void = { _ in }) -> AppStoreSubmitter.Request {
        var request = AppStoreSubmitter.Request(
            bundleID: bundleID, version: "1.4.0", build: "42", whatsNew: ["en-US": "Fixes the login crash", "de-DE": "Behebt den Absturz"],
            releaseType: "AFTER_APPROVAL", phased: true, pollInterval: .milliseconds(1), waitTimeout: 60)
        change(&request)
        return request
    }

    /// `METHOD path` of every request that is not a read.
    static func writes(_ fixture: AppStoreConnectTestFixture) -> [String] {
        fixture.server.exchanges().filter { $0.method != "GET" }.map { exchange in
            "\(exchange.method) "
                + (exchange.target.split(separator: "?").first.map(String.init) ?? exchange.target)
                .replacingOccurrences(of: #"/[0-9a-f-]{36}"#, with: "/{id}", options: .regularExpression)
        }
    }

    @Test func theFirstRunCreatesAndSubmitsAndASecondRunWritesNothing() async throws {
        let fixture = try Self.fixture()
        let first = try await Self.submitter(fixture).submit(Self.request())
        #expect(first.state == "WAITING_FOR_REVIEW")
        #expect(!first.versionID.isEmpty && !first.submissionID.isEmpty)
        #expect(
            Self.writes(fixture) == [
                "POST /v1/appStoreVersions",
                "POST /v1/appStoreVersionLocalizations",  // de-DE is new
                "PATCH /v1/appStoreVersionLocalizations/{id}",  // en-US came with the version
                "PATCH /v1/appStoreVersions/{id}/relationships/build",
                "POST /v1/appStoreVersionPhasedReleases",
                "POST /v1/reviewSubmissions",
                "POST /v1/reviewSubmissionItems",
                "PATCH /v1/reviewSubmissions/{id}",
            ])
        fixture.expectContract()
        let summary = fixture.server.summary().joined(separator: "\n")
        #expect(summary.contains("app store version com.example.demo 1.4.0 IOS WAITING_FOR_REVIEW  build 1.4.0 (42)  release AFTER_APPROVAL  phased INACTIVE"))
        #expect(summary.contains(#"what's new de-DE for 1.4.0: "Behebt den Absturz""#))
        #expect(summary.contains("review submission IOS WAITING_FOR_REVIEW: 1.4.0"))

        fixture.server.clearExchanges()
        let log = Recorder<String>()
        let second = try await Self.submitter(fixture, log: log).submit(Self.request())
        #expect(Self.writes(fixture) == [])
        #expect(second.state == "WAITING_FOR_REVIEW")
        #expect(second.versionID == first.versionID && second.submissionID == first.submissionID)
        #expect(second.changed.isEmpty)
        #expect(log.all.contains("App Store version 1.4.0 is WAITING_FOR_REVIEW: already submitted; nothing to change"))
    }

    @Test func aPreparedVersionConvergesWithoutSubmittingAndAnOpenSubmissionIsReused() async throws {
        let fixture = try Self.fixture()
        let prepared = try await Self.submitter(fixture).submit(Self.request { $0.submit = false })
        #expect(prepared.state == "PREPARE_FOR_SUBMISSION" && prepared.submissionID.isEmpty)
        fixture.server.clearExchanges()
        _ = try await Self.submitter(fixture).submit(Self.request { $0.submit = false })
        #expect(Self.writes(fixture) == [], "a prepared version with the same metadata needs no write")

        // An earlier run died after opening a submission: App Store Connect refuses a second one…
        let appID = fixture.server.addApp(bundleID: Self.bundleID, name: "Demo")
        let create = #"{"data": {"type": "reviewSubmissions", "attributes": {"platform": "IOS"}, "relationships": {"app": {"data": {"type": "apps", "id": "\#(appID)"}}}}}"#
        let opened = try fixture.object(try await fixture.raw("POST", "/v1/reviewSubmissions", json: create).body)
        let openID = try #require((opened["data"] as? [String: Any])?["id"] as? String)
        let refused = try await fixture.raw("POST", "/v1/reviewSubmissions", json: create)
        #expect(refused.status == 409)
        #expect(refused.text.contains("There is another reviewSubmissions with id \(openID) still in progress."))

        // …so the step reuses it instead of making one.
        fixture.server.clearExchanges()
        let submitted = try await Self.submitter(fixture).submit(Self.request())
        #expect(submitted.submissionID == openID)
        #expect(submitted.state == "WAITING_FOR_REVIEW")
        #expect(Self.writes(fixture) == ["POST /v1/reviewSubmissionItems", "PATCH /v1/reviewSubmissions/{id}"])
        fixture.expectContract()
    }

    @Test func aRejectionIsReportedAndCancelOpenSubmissionSubmitsAgain() async throws {
        let fixture = try Self.fixture()
        let first = try await Self.submitter(fixture).submit(Self.request())
        #expect(fixture.server.finishReview(bundleID: Self.bundleID, version: "1.4.0", approved: false))

        fixture.server.clearExchanges()
        await #expect(throws: AppStoreConnectError.unresolvedIssues(submissionID: first.submissionID, rejected: ["version 1.4.0 (REJECTED)"])) {
            try await Self.submitter(fixture).submit(Self.request())
        }
        #expect(Self.writes(fixture) == [], "the rejection is found before anything changes")
        let message = AppStoreConnectError.unresolvedIssues(submissionID: "s", rejected: ["version 1.4.0 (REJECTED)"]).description
        #expect(message.contains("cancel_open_submission: true"))

        fixture.server.clearExchanges()
        let again = try await Self.submitter(fixture).submit(Self.request { $0.cancelOpenSubmission = true })
        #expect(again.state == "WAITING_FOR_REVIEW")
        #expect(again.submissionID != first.submissionID)
        #expect(
            Self.writes(fixture) == [
                "PATCH /v1/reviewSubmissions/{id}", "POST /v1/reviewSubmissions", "POST /v1/reviewSubmissionItems", "PATCH /v1/reviewSubmissions/{id}",
            ])
        let canceled = fixture.server.exchanges().first { $0.method == "PATCH" }
        let cancelBody = String(decoding: canceled?.requestBody ?? Data(), as: UTF8.self)
        #expect(cancelBody.contains(#""canceled":true"#))
        fixture.expectContract()
    }

    @Test func preflightFindsAWrongVersionAnUnprocessedBuildAndAVersionPastEditingBeforeAnyWrite() async throws {
        let fixture = try Self.fixture(build: "42", version: "1.3.0")
        await #expect(throws: AppStoreConnectError.buildOfOtherVersion(build: "42", version: "1.4.0", actual: ["1.3.0"])) {
            try await Self.submitter(fixture).submit(Self.request())
        }
        // A build App Store Connect is still processing when the wait runs out.
        let slow = try Self.fixture(processing: "PROCESSING", polls: 1000)
        let timedOut = await #expect(throws: AppStoreConnectError.self) {
            try await Self.submitter(slow).submit(Self.request { $0.waitTimeout = 0 })
        }
        #expect(timedOut?.description.hasPrefix("processing of build 1.4.0 (42) was still PROCESSING after") == true, "\(String(describing: timedOut))")
        #expect(Self.writes(slow) == [])
        fixture.server.addAppStoreVersion(bundleID: Self.bundleID, version: "1.4.0", state: "DEVELOPER_REMOVED_FROM_SALE")
        await #expect(throws: AppStoreConnectError.versionNotEditable(version: "1.4.0", state: "DEVELOPER_REMOVED_FROM_SALE")) {
            try await Self.submitter(fixture).submit(Self.request())
        }
        #expect(Self.writes(fixture) == [])
        fixture.expectContract()
    }

    @Test func anEditableVersionOfAnotherStringIsRenamedNotDuplicated() async throws {
        let fixture = try Self.fixture()
        let draft = fixture.server.addAppStoreVersion(bundleID: Self.bundleID, version: "1.3.9")
        let result = try await Self.submitter(fixture).submit(
            Self.request {
                $0.submit = false; $0.phased = nil; $0.whatsNew = [:]
            })
        #expect(result.versionID == draft)
        #expect(result.changed.contains("App Store version 1.3.9 renamed to 1.4.0"))
        fixture.expectContract()
    }

    @Test func theRolloutReleasesPausesResumesAndCompletesAndEachConverges() async throws {
        let fixture = try Self.fixture()
        _ = try await Self.submitter(fixture).submit(Self.request { $0.releaseType = "MANUAL" })
        let rollout = AppStoreRollout(session: AppStoreConnectSession(client: try fixture.client(), log: { _ in }))
        await #expect(throws: AppStoreConnectError.self) {
            try await rollout.perform(.release, bundleID: Self.bundleID, version: "1.4.0")
        }
        #expect(fixture.server.finishReview(bundleID: Self.bundleID, version: "1.4.0", approved: true))
        let status = try await rollout.perform(.status, bundleID: Self.bundleID, version: "1.4.0")
        #expect(status.state == "PENDING_DEVELOPER_RELEASE" && status.phasedState == "INACTIVE" && !status.changed)

        let steps: [(AppStoreRollout.Action, String, String, Bool)] = [
            (.release, "READY_FOR_SALE", "ACTIVE", true), (.release, "READY_FOR_SALE", "ACTIVE", false),
            (.pause, "READY_FOR_SALE", "PAUSED", true), (.pause, "READY_FOR_SALE", "PAUSED", false),
            (.resume, "READY_FOR_SALE", "ACTIVE", true), (.resume, "READY_FOR_SALE", "ACTIVE", false),
            (.complete, "READY_FOR_SALE", "COMPLETE", true), (.complete, "READY_FOR_SALE", "COMPLETE", false),
        ]
        for (action, state, phased, changed) in steps {
            fixture.server.clearExchanges()
            let result = try await rollout.perform(action, bundleID: Self.bundleID, version: "1.4.0")
            #expect(result.state == state && result.phasedState == phased && result.changed == changed, "\(action)")
            #expect(Self.writes(fixture).isEmpty == !changed, "\(action): \(Self.writes(fixture))")
        }
        await #expect(throws: AppStoreConnectError.rolloutRefused(action: "pause", version: "1.4.0", reason: "its phased release is COMPLETE")) {
            try await rollout.perform(.pause, bundleID: Self.bundleID, version: "1.4.0")
        }
        fixture.expectContract()
    }

    @Test func localesAndTextsAreCheckedWhenTheStepIsBuilt() throws {
        func step(_ texts: [String: String]) throws -> AppStoreSubmitStep {
            var options = AppStoreSubmitStep.Options()
            options.bundleID = "com.example.demo"
            options.version = "1.4.0"
            options.build = "42"
            options.whatsNew = .locales(texts)
            options.appStoreConnect.keyID = "2X9R4HXF34"
            options.appStoreConnect.issuerID = "57246542-96fe-1a63-e053-0824d011072a"
            options.appStoreConnect.key = "${secrets.APP_STORE_CONNECT_KEY}"
            return try AppStoreSubmitStep(options: options)
        }
        _ = try step(["en-US": "ok", "de-DE": "ok"])
        #expect(throws: StepError.invalidOption("whats_new", "'en_us' is not a locale App Store Connect knows (did you mean 'en-US'?)")) {
            try step(["en_us": "x"])
        }
        #expect(throws: StepError.invalidOption("whats_new", "4001 characters for fr-FR; App Store Connect accepts at most 4000")) {
            try step(["fr-FR": String(repeating: "x", count: 4001)])
        }
    }

    @Test func fastlaneReleaseNotesFillLocalesWhatsNewOverridesThemAndAnUnknownFolderIsAPreflightError() throws {
        let directory = TestTemporary.root + "/release-submit-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for (locale, text) in [("de-DE", "Aus fastlane\n"), ("fr-FR", "Depuis fastlane"), ("review_information", "")] {
            try FileManager.default.createDirectory(atPath: directory + "/fastlane/metadata/\(locale)", withIntermediateDirectories: true)
            if !text.isEmpty { try text.write(toFile: directory + "/fastlane/metadata/\(locale)/release_notes.txt", atomically: true, encoding: .utf8) }
        }
        var options = AppStoreSubmitStep.Options()
        options.bundleID = "com.example.demo"
        options.version = "1.4.0"
        options.build = "42"
        options.whatsNew = .locales(["fr-FR": "Explicite", "en-US": "Explicit"])
        options.appStoreConnect.keyID = "2X9R4HXF34"
        options.appStoreConnect.issuerID = "57246542-96fe-1a63-e053-0824d011072a"
        options.appStoreConnect.key = "${secrets.APP_STORE_CONNECT_KEY}"
        let context = StepContext(stepID: "submit", kind: AppStoreSubmitStep.kind, workingDirectory: directory, environment: [:])
        #expect(try AppStoreSubmitStep(options: options).whatsNew(in: context) == ["de-DE": "Aus fastlane", "fr-FR": "Explicite", "en-US": "Explicit"])

        try FileManager.default.createDirectory(atPath: directory + "/fastlane/metadata/de_de", withIntermediateDirectories: true)
        try "x".write(toFile: directory + "/fastlane/metadata/de_de/release_notes.txt", atomically: true, encoding: .utf8)
        #expect(
            throws: StepError.failed(
                directory + "/fastlane/metadata: 'de_de' is not a locale App Store Connect knows (did you mean 'de-DE'?); "
                    + "rename the folder to a known locale or remove its release_notes.txt")
        ) {
            try AppStoreSubmitStep(options: options).whatsNew(in: context)
        }
        options.metadata = "missing/metadata"
        #expect(throws: StepError.self) { try AppStoreSubmitStep(options: options).whatsNew(in: context) }
    }

    /// Issue 40 F8, F14, F15: a FIFO as `release_notes.txt` stalled preflight (opening it waits for a writer); a
    /// symlink to `/etc/hostname` was read and published as What's New; length was counted in Unicode scalars, where
    /// App Store Connect counts UTF-16 code units (an emoji is two).
    @Test func releaseNotesAreRegularFilesInsideTheCheckoutCountedInUTF16() throws {
        let directory = TestTemporary.root + "/release-submit-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let notes = directory + "/fastlane/metadata/en-US/release_notes.txt"
        try FileManager.default.createDirectory(atPath: directory + "/fastlane/metadata/en-US", withIntermediateDirectories: true)
        var options = AppStoreSubmitStep.Options()
        options.bundleID = "com.example.demo"
        options.version = "1.4.0"
        options.build = "42"
        options.appStoreConnect.keyID = "2X9R4HXF34"
        options.appStoreConnect.issuerID = "57246542-96fe-1a63-e053-0824d011072a"
        options.appStoreConnect.key = "${secrets.APP_STORE_CONNECT_KEY}"
        let context = StepContext(stepID: "submit", kind: AppStoreSubmitStep.kind, workingDirectory: directory, environment: [:])
        let step = try AppStoreSubmitStep(options: options)

        #expect(mkfifo(notes, 0o644) == 0)
        let started = ContinuousClock.now
        #expect(throws: StepError.failed("'\(notes)' is a FIFO, not a regular file: refused")) { try step.whatsNew(in: context) }
        #expect(ContinuousClock.now - started < .seconds(5), "reading a FIFO waited for a writer")
        unlink(notes)

        let outside = directory + "-hostname"
        try "build-host-7\n".write(toFile: outside, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: outside) }
        try FileManager.default.createSymbolicLink(atPath: notes, withDestinationPath: outside)
        #expect(throws: StepError.self) { try step.whatsNew(in: context) }
        do {
            _ = try step.whatsNew(in: context)
        } catch StepError.failed(let message) {
            #expect(message.hasPrefix("\(notes): a symbolic link to '"), "\(message)")
            #expect(message.contains("outside the checkout"), "\(message)")
        }
        unlink(notes)

        try String(repeating: "👍", count: 2_001).write(toFile: notes, atomically: true, encoding: .utf8)
        #expect(
            throws: StepError.failed(
                directory + "/fastlane/metadata: 4002 characters for en-US; App Store Connect accepts at most 4000; "
                    + "rename the folder to a known locale or remove its release_notes.txt")
        ) { try step.whatsNew(in: context) }
    }
}

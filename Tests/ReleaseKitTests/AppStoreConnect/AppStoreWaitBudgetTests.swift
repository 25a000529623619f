import Foundation
import Synchronization
import Testing

@testable import ReleaseAppStoreConnect
@testable import ReleaseSteps

/// Issue 37, against the local App Store Connect stand-in, whose processing takes N looks: a wait budget that runs out
/// while Apple processes ends the wait with ``AppStoreConnectError/stillWaiting(what:seconds:lastState:)`` (the step
/// ends waiting, not failed), and the next run continues from App Store Connect's state: the upload sends nothing
/// again, TestFlight distribution and submission carry on once the build is processed.
@Suite struct AppStoreWaitBudgetTests {
    /// A clock that moves only when the code under test sleeps: minutes of polling take no time.
    final class ScriptedClock: Sendable {
        private let current = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        let sleeps = Mutex(0)

        func now() -> Date { current.withLock { $0 } }

        func sleep(_ duration: Duration) {
            let (seconds, attoseconds) = duration.components
            current.withLock { $0 += Double(seconds) + Double(attoseconds) / 1e18 }
            sleeps.withLock { $0 += 1 }
        }
    }

    static let version = AppStoreConnectUploaderTests.version
    static let build = AppStoreConnectUploaderTests.build

    static func uploader(_ fixture: AppStoreConnectTestFixture, _ clock: ScriptedClock, logs: Recorder<String> = Recorder()) throws -> AppStoreConnectUploader {
        AppStoreConnectUploader(
            session: AppStoreConnectSession(client: try fixture.client(), log: { logs.append($0) }, sleep: { clock.sleep($0) }, now: { clock.now() }))
    }

    static func distributor(_ fixture: AppStoreConnectTestFixture, _ clock: ScriptedClock) throws -> TestFlightDistributor {
        TestFlightDistributor(session: AppStoreConnectSession(client: try fixture.client(), log: { _ in }, sleep: { clock.sleep($0) }, now: { clock.now() }))
    }

    static func request(_ path: String, budget: Double?) -> AppStoreConnectUploader.Request {
        var request = AppStoreConnectUploader.Request(
            ipa: path, bundleID: AppStoreConnectTestFixture.bundleID, version: version, build: build,
            platform: .iOS, concurrency: 2, wait: .processed, pollInterval: .seconds(60), waitTimeout: 3600)
        request.waitBudget = budget
        return request
    }

    @Test func processingThatOutlastsTheBudgetEndsTheWaitAndTheNextRunSendsNothingAndFinishes() async throws {
        let fixture = try AppStoreConnectTestFixture(partSize: 10_000, processingPolls: 4)
        fixture.server.addApp(bundleID: AppStoreConnectTestFixture.bundleID, name: "Demo")
        let path = try fixture.file(size: 20_000)
        let clock = ScriptedClock()
        do {
            _ = try await Self.uploader(fixture, clock).upload(Self.request(path, budget: 300))
            Issue.record("the wait did not run out")
        } catch AppStoreConnectError.stillWaiting(let what, let seconds, let state) {
            #expect(what == "processing of build \(Self.version) (\(Self.build))" || what == "the upload of \(Self.version) (\(Self.build))")
            #expect(seconds >= 300 && seconds < 360, "stopped at the first look past the budget: \(seconds)")
            #expect(["PROCESSING", "AWAITING_UPLOAD"].contains(state))
            #expect(
                AppStoreConnectError.stillWaiting(what: what, seconds: 300, lastState: state).description
                    == "\(what): still \(state) after 5m00s, the step's wait budget")
        }
        #expect(fixture.server.uploadedByteCount() == 20_000)
        // As a step, it ends waiting: not a failure.
        let asStep = AppStoreConnectAccess.stepError(AppStoreConnectError.stillWaiting(what: "processing of build 3.0.1 (4321)", seconds: 300, lastState: "PROCESSING"))
        #expect(asStep as? StepError == .waiting("processing of build 3.0.1 (4321): still PROCESSING after 5m00s, the step's wait budget"))

        // The next run (a scheduled resume): nothing sent again, and the build is processed.
        let logs = Recorder<String>()
        let second = try await Self.uploader(fixture, clock, logs: logs).upload(Self.request(path, budget: 3000))
        #expect(second.bytesSent == 0 && second.alreadyUploaded)
        #expect(second.processingState == "VALID")
        #expect(fixture.server.uploadedByteCount() == 20_000)
        #expect(fixture.server.exchanges().filter { $0.operationID == "buildUploads_createInstance" }.count == 1)
        #expect(logs.all.contains { $0.hasSuffix("was uploaded before (upload \(second.uploadID), COMPLETE): nothing to send") }, "\(logs.all)")
        fixture.expectContract()
    }

    @Test func aBudgetLongerThanTheTimeoutFailsAtTheTimeoutAsBefore() async throws {
        let fixture = try AppStoreConnectTestFixture(partSize: 10_000, processingPolls: 100)
        fixture.server.addApp(bundleID: AppStoreConnectTestFixture.bundleID, name: "Demo")
        let path = try fixture.file(size: 5_000)
        var request = Self.request(path, budget: 7200)
        request.waitTimeout = 600
        await #expect {
            try await Self.uploader(fixture, ScriptedClock()).upload(request)
        } throws: { error in
            if case AppStoreConnectError.timedOut = error { return true }
            return false
        }
    }

    @Test func aReleaseWaitsForAppReviewWithinItsBudgetAndTheNextRunReleases() async throws {
        let fixture = try AppStoreSubmitterTests.fixture()
        _ = try await AppStoreSubmitterTests.submitter(fixture).submit(AppStoreSubmitterTests.request { $0.releaseType = "MANUAL" })
        let clock = ScriptedClock()
        let rollout = AppStoreRollout(session: AppStoreConnectSession(client: try fixture.client(), log: { _ in }, sleep: { clock.sleep($0) }, now: { clock.now() }))
        let wait = AppStoreRollout.ReviewWait(interval: .seconds(60), timeout: 86_400, budget: 300)
        await #expect(throws: AppStoreConnectError.stillWaiting(what: "App Review of version 1.4.0", seconds: 300, lastState: "WAITING_FOR_REVIEW")) {
            try await rollout.perform(.release, bundleID: AppStoreSubmitterTests.bundleID, version: "1.4.0", reviewWait: wait)
        }
        #expect(clock.sleeps.withLock { $0 } == 5, "a look a minute, five minutes")
        // Without a wait, a version in review is refused at once, as before.
        await #expect(throws: AppStoreConnectError.self) {
            try await rollout.perform(.release, bundleID: AppStoreSubmitterTests.bundleID, version: "1.4.0")
        }
        // App Review approves meanwhile; the next run releases.
        #expect(fixture.server.finishReview(bundleID: AppStoreSubmitterTests.bundleID, version: "1.4.0", approved: true))
        let released = try await rollout.perform(.release, bundleID: AppStoreSubmitterTests.bundleID, version: "1.4.0", reviewWait: wait)
        #expect(released.changed && released.state == "READY_FOR_SALE")
        fixture.expectContract()
    }

    @Test func testFlightWaitsWithinItsBudgetThenDistributesOnTheNextRun() async throws {
        let fixture = try AppStoreConnectTestFixture(processingPolls: 6)
        fixture.server.addApp(bundleID: AppStoreConnectTestFixture.bundleID, name: "Demo")
        fixture.server.addBetaGroup(bundleID: AppStoreConnectTestFixture.bundleID, name: "QA", isInternal: true)
        let path = try fixture.file(size: 3000)
        let clock = ScriptedClock()
        _ = try await Self.uploader(fixture, clock).upload(
            AppStoreConnectUploader.Request(
                ipa: path, bundleID: AppStoreConnectTestFixture.bundleID, version: Self.version, build: Self.build,
                platform: .iOS, wait: .none, pollInterval: .seconds(60), waitTimeout: 3600))
        var request = TestFlightDistributor.Request(
            bundleID: AppStoreConnectTestFixture.bundleID, version: Self.version, build: Self.build,
            whatToTest: ["en-US": "Try the new widget"], groups: ["QA"], pollInterval: .seconds(60), waitTimeout: 86_400)
        request.waitBudget = 180
        await #expect {
            try await Self.distributor(fixture, clock).distribute(request)
        } throws: { error in
            guard case AppStoreConnectError.stillWaiting(let what, _, _) = error else { return false }
            return what.contains("\(Self.version) (\(Self.build))")
        }
        // Nothing was given to testers while the build was processing.
        #expect(!fixture.server.exchanges().contains { $0.operationID?.hasSuffix("createToManyRelationship") == true })
        #expect(!fixture.server.exchanges().contains { $0.operationID == "betaBuildLocalizations_createInstance" })

        request.waitBudget = nil
        let resumed = try await Self.distributor(fixture, clock).distribute(request)
        #expect(resumed.changed == ["what to test (en-US)", "beta groups 'QA'"], "\(resumed.changed)")
        fixture.expectContract()
    }
}

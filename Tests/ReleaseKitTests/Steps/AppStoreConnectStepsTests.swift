import Foundation
import Testing

@testable import ReleaseSteps

/// The App Store Connect steps' options: every mistake a pipeline can make is named with the option and the value.
@Suite struct AppStoreConnectStepsTests {
    static func upload(_ change: (inout AppStoreUploadStep.Options) -> Void = { _ in }) throws -> AppStoreUploadStep {
        var options = AppStoreUploadStep.Options()
        options.ipa = "build/Demo.ipa"
        options.appStoreConnect.keyID = "2X9R4HXF34"
        options.appStoreConnect.issuerID = "57246542-96fe-1a63-e053-0824d011072a"
        options.appStoreConnect.key = "${secrets.APP_STORE_CONNECT_KEY}"
        change(&options)
        return try AppStoreUploadStep(options: options)
    }

    static func distribute(_ change: (inout TestFlightDistributeStep.Options) -> Void = { _ in }) throws -> TestFlightDistributeStep {
        var options = TestFlightDistributeStep.Options()
        options.bundleID = "com.example.demo"
        options.version = "3.0.1"
        options.build = "4321"
        options.appStoreConnect.keyID = "2X9R4HXF34"
        options.appStoreConnect.issuerID = "57246542-96fe-1a63-e053-0824d011072a"
        options.appStoreConnect.key = "-----BEGIN PRIVATE KEY-----"
        change(&options)
        return try TestFlightDistributeStep(options: options)
    }

    @Test func uploadOptionsAreChecked() throws {
        _ = try Self.upload()
        #expect(throws: StepError.invalidOption("key_id", "'2X9R-4HXF34' is not a key ID (letters and digits, for example 2X9R4HXF34)")) {
            try Self.upload { $0.appStoreConnect.keyID = "2X9R-4HXF34" }
        }
        #expect(throws: StepError.invalidOption("key", "the API key is empty; pass ${secrets.APP_STORE_CONNECT_KEY}")) {
            try Self.upload { $0.appStoreConnect.key = " " }
        }
        #expect(throws: StepError.invalidOption("concurrency", "'17' must be from 1 to 16")) {
            try Self.upload { $0.concurrency = 17 }
        }
        #expect(throws: StepError.invalidOption("poll_interval", "'-1' must be from 0 to 3600")) {
            try Self.upload { $0.waiting.pollInterval = -1 }
        }
        #expect(throws: StepError.invalidOption("api", "'ftp://example.com' is not an http(s) URL without credentials")) {
            try Self.upload { $0.appStoreConnect.api = "ftp://example.com" }
        }
    }

    @Test func whatToTestIsOneTextOrOnePerLocaleWithinTestFlightsLimit() throws {
        let step = try Self.distribute { $0.whatToTest = .text("Try the widget") }
        #expect(step.options.whatToTest?.byLocale == ["en-US": "Try the widget"])
        #expect(throws: StepError.invalidOption("what_to_test", "4001 characters for de-DE; TestFlight accepts at most 4000")) {
            try Self.distribute { $0.whatToTest = .locales(["de-DE": String(repeating: "x", count: 4001)]) }
        }
        #expect(throws: StepError.invalidOption("groups", "a group name is empty")) {
            try Self.distribute { $0.groups = ["QA", ""] }
        }
        #expect(throws: StepError.invalidOption("wait_timeout", "'0' must be from 1 to 604800")) {
            try Self.distribute { $0.waiting.waitTimeout = 0 }
        }
    }
}

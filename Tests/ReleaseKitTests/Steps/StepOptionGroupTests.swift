import Foundation
import Testing

@testable import ReleasePipeline
@testable import ReleaseSteps

/// Options two sample steps share.
private struct SharedOptions: StepOptions, Equatable {
    @StepOption(help: "a required shared option") var accountID: String
    @StepOption(range: 1...10, help: "a shared number") var retries: Int = 3
    @StepOption(name: "endpoint", help: "a renamed shared option") var api: String?
}

/// A step's own options around a group, which sits between them.
private struct GroupedOptions: StepOptions, Equatable {
    @StepOption(.path, help: "the step's own") var archive: String
    @StepOptionGroup var shared: SharedOptions
    @StepOption(help: "the step's own, after the group") var verbose: Bool = false
}

private func decodeGrouped(_ json: String, mode: OptionsDecoder.Mode = .resolved) throws -> OptionsDecoder.Outcome<GroupedOptions> {
    try OptionsDecoder(mode: mode).decode(GroupedOptions.self, from: JSONParser.parse(json), at: .root)
}

@Suite struct StepOptionGroupTests {
    @Test func aGroupIsDocumentedFlatInItsPlace() {
        let options = GroupedOptions.optionDocumentation
        #expect(options.map(\.name) == ["archive", "account_id", "retries", "endpoint", "verbose"])
        #expect(options.map(\.required) == [true, true, false, false, false])
        #expect(options.map(\.defaultValue) == [nil, nil, "3", nil, "false"])
        #expect(options[2].minimum == 1 && options[2].maximum == 10)
    }

    @Test func aGroupsKeysSitBesideTheStepsOwn() throws {
        let outcome = try decodeGrouped(#"{"archive": "A", "account_id": "42", "retries": 5, "endpoint": "https://x", "verbose": true}"#)
        #expect(outcome.value.archive == "A")
        #expect(outcome.value.shared.accountID == "42")
        #expect(outcome.value.shared.retries == 5)
        #expect(outcome.value.shared.api == "https://x")
        #expect(outcome.value.verbose)
        #expect(outcome.unknownKeys.isEmpty)
        #expect(outcome.requestedKeys == ["archive", "account_id", "retries", "endpoint", "verbose"])
    }

    @Test func anAbsentGroupOptionTakesItsDefault() throws {
        let value = try decodeGrouped(#"{"archive": "A", "account_id": "42"}"#).value
        #expect(value.shared.retries == 3)
        #expect(value.shared.api == nil)
        #expect(
            value
                == .with {
                    $0.archive = "A"; $0.shared.accountID = "42"
                })
    }

    @Test func theGroupsPropertyNameIsNoKeyAndTyposAreSuggested() throws {
        let outcome = try decodeGrouped(#"{"archive": "A", "account_id": "42", "shared": {}, "acount_id": "4"}"#)
        #expect(outcome.unknownKeys.map(\.key) == ["shared", "acount_id"])
        #expect(outcome.unknownKeys.first?.known == ["account_id", "archive", "endpoint", "retries", "verbose"])
    }

    @Test func aMissingRequiredGroupOptionIsReportedOnTheStepsObject() {
        #expect(
            throws: OptionsDecoder.Failure(
                path: .root, location: SourceLocation(line: 1, column: 1),
                message: "missing required option 'account_id'")
        ) {
            try decodeGrouped(#"{"archive": "A"}"#)
        }
    }

    @Test func aGroupNumberOutsideItsRangeIsReportedWhereItIsWritten() {
        #expect(
            throws: OptionsDecoder.Failure(
                path: JSONPath.root.appending("retries"), location: SourceLocation(line: 2, column: 13),
                message: "'retries' must be from 1 to 10, found 11")
        ) {
            try decodeGrouped(
                """
                {"archive": "A", "account_id": "42",
                 "retries": 11}
                """)
        }
        #expect(throws: StepError.invalidOption("retries", "'0' must be from 1 to 10")) {
            try GroupedOptions.with {
                $0.archive = "A"; $0.shared.accountID = "42"; $0.shared.retries = 0
            }.validate()
        }
    }

    @Test func duringValidationAReferenceStandsForAGroupOption() throws {
        let value = try decodeGrouped(#"{"archive": "A", "account_id": "${env.ID}", "retries": "${retries}"}"#, mode: .validation).value
        #expect(value.shared.accountID == "${env.ID}")
    }

    @Test func theAppStoreConnectOptionsAreDeclaredOnceForEveryStepThatTakesThem() throws {
        let registry = try StepRegistry.builtIn
        let help = AppStoreConnectOptions.optionDocumentation
        #expect(help.map(\.name) == ["key_id", "issuer_id", "key", "api"])
        for kind in ["appstore.build-number", "appstore.upload", "appstore.submit", "appstore.rollout", "testflight.distribute", "signing.sync"] {
            let options = try #require(registry[kind]).documentation.options
            let shared = options.filter { ["key_id", "issuer_id", "key", "api"].contains($0.name) }
            #expect(shared == help, "\(kind)")
        }
        for kind in ["xcode.archive", "xcode.export"] {
            let options = try #require(registry[kind]).documentation.options
            #expect(options.filter { $0.name.hasPrefix("authentication_key") } == XcodeAuthenticationOptions.optionDocumentation, "\(kind)")
        }
    }
}

import Foundation
import Testing

@testable import ReleaseSteps

/// Issue 37: `wait` of the steps that wait on Apple: a duration, `until-done`, or a named state with the default
/// budget (5 minutes in CI, until done on a laptop).
@Suite struct WaitBudgetTests {
    @Test(arguments: [
        ("5m", WaitBudget.duration(300)), ("30s", .duration(30)), ("2h", .duration(7200)), ("1d", .duration(86_400)),
        ("1.5m", .duration(90)), ("until-done", .untilDone), ("processed", .state("processed")), ("5", .state("5")),
        ("m", .state("m")), ("-5m", .state("-5m")), ("0s", .state("0s")),
    ])
    func aBudgetIsADurationUntilDoneOrANamedState(text: String, expected: WaitBudget) {
        #expect(WaitBudget.parse(text) == expected)
    }

    @Test func aNamedStateWaitsFiveMinutesInCIAndUntilDoneElsewhere() {
        let state = WaitBudget.state("processed")
        #expect(state.seconds(in: ["CI": "true"]) == 300)
        #expect(state.seconds(in: ["CI": "1"]) == 300)
        #expect(state.seconds(in: [:]) == nil)
        #expect(state.seconds(in: ["CI": "false"]) == nil)
        #expect(WaitBudget.untilDone.seconds(in: ["CI": "true"]) == nil)
        #expect(WaitBudget.duration(60).seconds(in: [:]) == 60)
        #expect(state.describe(in: ["CI": "true"]) == "at most 5m00s, then the step ends waiting (not failed)")
        #expect(state.describe(in: [:]) == "until done")
    }

    @Test func aStateTheStepDoesNotKnowOrAnOverlongDurationIsRefused() throws {
        #expect(throws: StepError.invalidOption("wait", "'soon' is not a duration (30s, 5m, 2h, 1d), 'until-done' or one of none, uploaded, processed")) {
            try WaitBudget.state("soon").check(states: ["none", "uploaded", "processed"])
        }
        #expect(throws: StepError.invalidOption("wait", "192h00m is longer than a week")) { try WaitBudget.duration(8 * 86_400).check(states: []) }
        try WaitBudget.state("${env.WAIT}").check(states: ["processed"])
        try WaitBudget.duration(300).check(states: [])
    }

    @Test func theStepsTakeTheirWaitFromThePipeline() throws {
        let upload = try decodeOptions(AppStoreUploadStep.Options.self, #"{"ipa": "a.ipa", "key_id": "K", "issuer_id": "I", "key": "P", "wait": "5m"}"#)
        #expect(upload.wait == .duration(300))
        #expect(try decodeOptions(AppStoreUploadStep.Options.self, #"{"ipa": "a.ipa", "key_id": "K", "issuer_id": "I", "key": "P"}"#).wait == .state("uploaded"))
        let testflight = try decodeOptions(
            TestFlightDistributeStep.Options.self, #"{"bundle_id": "b", "version": "1", "build": "2", "key_id": "K", "issuer_id": "I", "key": "P", "wait": "until-done"}"#)
        #expect(testflight.wait == .untilDone)
        #expect(WaitBudget.duration(300).pipelineText == "\"5m\"" && WaitBudget.duration(90).pipelineText == "\"90s\"")
        #expect(WaitBudget.state("processed").pipelineText == "\"processed\"")
    }
}

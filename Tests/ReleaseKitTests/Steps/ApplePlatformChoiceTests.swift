import Foundation
import Testing

@testable import ReleasePipeline
@testable import ReleaseSteps
@testable import ReleaseSupport

/// Options naming a platform in two tools' words.
private struct PlatformOptions: StepOptions, Equatable {
    @StepOption(help: "iTMSTransporter's") var platform: ApplePlatformChoice<ApplePlatform.TransporterSpelling> = .init(.iOS)
    @StepOption(help: "App Store Connect's") var store: ApplePlatformChoice<ApplePlatform.AppStoreConnectSpelling>?
}

private func decodePlatforms(_ json: String, mode: OptionsDecoder.Mode = .resolved) throws -> PlatformOptions {
    try OptionsDecoder(mode: mode).decode(PlatformOptions.self, from: JSONParser.parse(json), at: .root).value
}

@Suite struct ApplePlatformChoiceTests {
    @Test func theWordsAreTheSpellingsInItsOrder() {
        typealias Transporter = ApplePlatformChoice<ApplePlatform.TransporterSpelling>
        #expect(Transporter.allCases.map(\.rawValue) == ["ios", "osx", "appletvos", "xros"])
        #expect(Transporter.allCases.map(\.platform) == [.iOS, .macOS, .tvOS, .visionOS])
        #expect(Transporter.allowedValues == ["ios", "osx", "appletvos", "xros"])
        #expect(Transporter.optionTypeName(.string) == "ios | osx | appletvos | xros")
        #expect(Transporter.invalidValueMessage("tvos") == "'tvos' is not one of ios, osx, appletvos, xros")
        #expect(Transporter(.tvOS).pipelineText == "\"appletvos\"")
    }

    @Test(arguments: ApplePlatform.allCases)
    func everyPlatformRoundTripsThroughItsWord(platform: ApplePlatform) {
        let store = ApplePlatformChoice<ApplePlatform.AppStoreConnectSpelling>(platform)
        #expect(store.rawValue == platform.appStoreConnect)
        #expect(ApplePlatformChoice<ApplePlatform.AppStoreConnectSpelling>(rawValue: store.rawValue) == store)
        let signing = ApplePlatformChoice<ApplePlatform.SigningSpelling>(platform)
        #expect(signing.rawValue == platform.signing)
        #expect(signing.platform == platform.signingPlatform)
        #expect(ApplePlatformChoice<ApplePlatform.SigningSpelling>(rawValue: signing.rawValue) == signing)
    }

    @Test func watchOSIsHeldAsThePlatformItsWordNames() {
        #expect(ApplePlatformChoice<ApplePlatform.AppStoreConnectSpelling>(.watchOS).platform == .iOS)
        #expect(ApplePlatformChoice<ApplePlatform.AppStoreConnectSpelling>(.watchOS) == .init(.iOS))
    }

    @Test func decodingTakesTheSpellingsWordsOnly() throws {
        let options = try decodePlatforms(#"{"platform": "appletvos", "store": "VISION_OS"}"#)
        #expect(options.platform.platform == .tvOS)
        #expect(options.store?.platform == .visionOS)
        #expect(try decodePlatforms("{}").platform.platform == .iOS)
        #expect(
            throws: OptionsDecoder.Failure(
                path: JSONPath.root.appending("platform"), location: SourceLocation(line: 1, column: 14),
                message: "'tvOS' is not one of ios, osx, appletvos, xros")
        ) {
            try decodePlatforms(#"{"platform": "tvOS"}"#)
        }
        #expect(throws: OptionsDecoder.Failure.self) { try decodePlatforms(#"{"store": "ios"}"#) }
        // During validation a reference stands for any platform.
        #expect(try decodePlatforms(#"{"platform": "${platform}"}"#, mode: .validation).platform.platform == .iOS)
    }

    @Test func documentationListsTheWords() {
        let options = PlatformOptions.optionDocumentation
        #expect(options.map(\.type) == ["ios | osx | appletvos | xros", "IOS | MAC_OS | TV_OS | VISION_OS"])
        #expect(options.map(\.defaultValue) == ["\"ios\"", nil])
        #expect(options.map(\.values) == [["ios", "osx", "appletvos", "xros"], ["IOS", "MAC_OS", "TV_OS", "VISION_OS"]])
    }
}

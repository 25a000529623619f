import ReleaseSupport

/// An option naming an Apple platform in one tool's words (`Spelling`): `itmsp.package`'s `platform` takes
/// iTMSTransporter's `ios | osx | appletvos | xros`, `appstore.build-number`'s App Store Connect's `IOS | MAC_OS |
/// TV_OS | VISION_OS`, and both hold the same ``ApplePlatform``.
///
/// As an ``OptionChoice`` its words are `Spelling`'s, in the tool's order: `release steps` and the schema list them
/// and decoding rejects any other with `'x' is not one of …`.
package struct ApplePlatformChoice<Spelling: ApplePlatformSpelling>: OptionChoice, Equatable {
    /// The platform the word names.
    package let platform: ApplePlatform

    /// The choice of `platform`, held as the platform its word reads back as (watchOS is `IOS` to App Store Connect).
    package init(_ platform: ApplePlatform) {
        self.platform = ApplePlatform(platform.word(as: Spelling.self), as: Spelling.self) ?? platform
    }

    package init?(rawValue: String) {
        guard let platform = ApplePlatform(rawValue, as: Spelling.self) else { return nil }
        self.platform = platform
    }

    /// The tool's word.
    package var rawValue: String { platform.word(as: Spelling.self) }

    package static var allCases: [ApplePlatformChoice] { Spelling.platforms.map(ApplePlatformChoice.init) }
}

import Testing

@testable import ReleaseSupport

@Suite struct ApplePlatformTests {
    /// Each platform's word in each spelling, written out: what the tools expect, so a change to a spelling shows
    /// here rather than in a request App Store Connect refuses.
    static let table:
        [(ApplePlatform, sdk: String, appStoreConnect: String, bundleID: String, signing: String, transporter: String, altool: String, crashlytics: String, supported: String)] = [
            (.iOS, "iphoneos", "IOS", "IOS", "ios", "ios", "ios", "ios", "iPhoneOS"),
            (.tvOS, "appletvos", "TV_OS", "IOS", "tvos", "appletvos", "appletvos", "tvos", "AppleTVOS"),
            (.macOS, "macosx", "MAC_OS", "MAC_OS", "macos", "osx", "macos", "mac", "MacOSX"),
            (.visionOS, "xros", "VISION_OS", "IOS", "ios", "xros", "visionos", "ios", "XROS"),
            (.watchOS, "watchos", "IOS", "IOS", "ios", "ios", "ios", "ios", "WatchOS"),
        ]

    @Test func everyPlatformIsSpelledAsEachToolSpellsIt() {
        #expect(Self.table.map(\.0) == ApplePlatform.allCases)
        for row in Self.table {
            let platform = row.0
            #expect(platform.sdk == row.sdk)
            #expect(platform.appStoreConnect == row.appStoreConnect)
            #expect(platform.bundleIDPlatform == row.bundleID)
            #expect(platform.signing == row.signing)
            #expect(platform.transporter == row.transporter)
            #expect(platform.altool == row.altool)
            #expect(platform.crashlytics == row.crashlytics)
            #expect(platform.bundleSupportedPlatform == row.supported)
            #expect(platform.destination == "generic/platform=\(platform.name)")
        }
    }

    /// Each word reads back as a platform that writes the same word: the platform itself when it has a word of its
    /// own, else the one the tool treats it as (watchOS is `IOS` to App Store Connect and reads back as iOS).
    @Test(arguments: ApplePlatform.allCases)
    func everyWordReadsBackAsAPlatformWritingIt(platform: ApplePlatform) throws {
        #expect(ApplePlatform(name: platform.name) == platform)
        #expect(ApplePlatform(name: platform.name.uppercased()) == platform)
        #expect(ApplePlatform(sdk: platform.sdk) == platform)
        #expect(ApplePlatform(sdk: "/Applications/Xcode.app/Platforms/\(platform.sdk)17.0.sdk") == platform)
        #expect(ApplePlatform(bundleSupportedPlatform: platform.bundleSupportedPlatform) == platform)
        let readBack: [(String, ApplePlatform?, (ApplePlatform) -> String)] = [
            (platform.appStoreConnect, ApplePlatform(appStoreConnect: platform.appStoreConnect), \.appStoreConnect),
            (platform.bundleIDPlatform, ApplePlatform(bundleIDPlatform: platform.bundleIDPlatform), \.bundleIDPlatform),
            (platform.signing, ApplePlatform(signing: platform.signing), \.signing),
            (platform.transporter, ApplePlatform(transporter: platform.transporter), \.transporter),
            (platform.altool, ApplePlatform(altool: platform.altool), \.altool),
            (platform.crashlytics, ApplePlatform(crashlytics: platform.crashlytics), \.crashlytics),
        ]
        for (word, read, write) in readBack {
            let read = try #require(read, "\(word)")
            #expect(write(read) == word)
        }
    }

    @Test func platformsWithAWordOfTheirOwnReadBackAsThemselves() {
        let spellings: [any ApplePlatformSpelling.Type] = [
            ApplePlatform.AppStoreConnectSpelling.self, ApplePlatform.BundleIDSpelling.self, ApplePlatform.SigningSpelling.self,
            ApplePlatform.TransporterSpelling.self, ApplePlatform.AltoolSpelling.self, ApplePlatform.CrashlyticsSpelling.self,
            ApplePlatform.BundleSupportedPlatformSpelling.self,
        ]
        for spelling in spellings {
            #expect(Set(spelling.words).count == spelling.platforms.count, "\(spelling): a word twice")
            for platform in spelling.platforms {
                #expect(Self.readBack(platform, spelling) == platform, "\(spelling) \(platform)")
            }
            for platform in ApplePlatform.allCases {
                #expect(spelling.words.contains(spelling.word(for: platform)), "\(spelling) \(platform)")
            }
        }
    }

    private static func readBack<Spelling: ApplePlatformSpelling>(_ platform: ApplePlatform, _ spelling: Spelling.Type) -> ApplePlatform? {
        ApplePlatform(platform.word(as: spelling), as: spelling)
    }

    /// The words in the order options list them (`'x' is not one of …`, `release steps`).
    @Test func wordsAreListedInEachToolsOrder() {
        #expect(ApplePlatform.AppStoreConnectSpelling.words == ["IOS", "MAC_OS", "TV_OS", "VISION_OS"])
        #expect(ApplePlatform.BundleIDSpelling.words == ["IOS", "MAC_OS"])
        #expect(ApplePlatform.SigningSpelling.words == ["ios", "tvos", "macos"])
        #expect(ApplePlatform.TransporterSpelling.words == ["ios", "osx", "appletvos", "xros"])
        #expect(ApplePlatform.AltoolSpelling.words == ["ios", "appletvos", "visionos", "macos"])
        #expect(ApplePlatform.CrashlyticsSpelling.words == ["ios", "mac", "tvos"])
        #expect(ApplePlatform.SigningSpelling.wordList == "ios, tvos or macos")
        #expect(ApplePlatform.AppStoreConnectSpelling.wordList == "IOS, MAC_OS, TV_OS or VISION_OS")
    }

    @Test func otherWordsAreNoPlatform() {
        for word in ["", "android", "iphoneos"] {
            #expect(ApplePlatform(name: word) == nil)
            #expect(ApplePlatform(appStoreConnect: word) == nil)
            #expect(ApplePlatform(signing: word) == nil)
            #expect(ApplePlatform(transporter: word) == nil)
            #expect(ApplePlatform(altool: word) == nil)
            #expect(ApplePlatform(crashlytics: word) == nil)
        }
        // Each tool's words are exact: App Store Connect's are upper case, the command-line tools' lower case.
        #expect(ApplePlatform(appStoreConnect: "ios") == nil)
        #expect(ApplePlatform(transporter: "IOS") == nil)
        #expect(ApplePlatform(bundleIDPlatform: "UNIVERSAL") == nil)
        #expect(ApplePlatform(bundleSupportedPlatform: "iPhoneSimulator") == nil)
        #expect(ApplePlatform(sdk: "linux") == nil)
    }

    @Test func simulatorSDKsAreTheirPlatform() {
        #expect(ApplePlatform(sdk: "iphonesimulator") == .iOS)
        #expect(ApplePlatform(sdk: "appletvsimulator18.0") == .tvOS)
        #expect(ApplePlatform(sdk: "xrsimulator") == .visionOS)
        #expect(ApplePlatform(sdk: "watchsimulator") == .watchOS)
        #expect(ApplePlatform(sdk: "MacOSX") == .macOS)
    }

    @Test func watchAndVisionAppsSignAsIOS() {
        #expect(ApplePlatform.allCases.map(\.signingPlatform) == [.iOS, .tvOS, .macOS, .iOS, .iOS])
    }

    @Test func iOSComesFirst() {
        #expect(ApplePlatform.allCases.sorted() == [.iOS, .tvOS, .macOS, .visionOS, .watchOS])
        #expect(ApplePlatform.watchOS > .iOS)
    }
}

import Testing

/// What `release version` must report for every project in `../shared/real-projects`, written by reading the
/// files the way Xcode resolves them (target settings over the target `.xcconfig` over project settings over the
/// project `.xcconfig`; `#include`, `$(inherited)` and self-references; `${VAR}`/`$(VAR)` through custom
/// variables; Info.plist literals or references), not by recording the engine's output.
///
/// A row is `target[ < host] | configuration or * | version location | build location`, a location being
/// `value file:line KEY` (paths relative to the project's folder) or `-` for nothing defined.
struct RealProjectTable: Sendable, CustomTestStringConvertible {
    var app: String
    /// `--project`, relative to the app's `head/`; `nil` reads `head/` itself.
    var project: String?
    /// The table's first line: `Project.xcodeproj: version (build) [target, configuration]`, or "" without one.
    var header: String
    var configurations: [String]
    var rows: [String]
    var warnings: [String] = []
    var xcodegenSpec: String?

    var testDescription: String { project.map { "\(app)/\($0)" } ?? app }

    static let all: [RealProjectTable] = [
        duckduckgo, pocketCasts, elementX, elementXInspector, ownCloud, ownCloudLocaleDiff, isowords, habitica,
        habiticaAPIClient, habiticaDatabase, habiticaModels, keepassium, keepassiumLib, swiftfin,
    ]

    // MARK: duckduckgo-ios: an xcconfig include chain; the pbxproj defines no version at all.

    static let duckduckgo: RealProjectTable = {
        let app = "7.157.0 Configuration/Version.xcconfig:1 MARKETING_VERSION | 5 Configuration/BuildNumber.xcconfig:1 CURRENT_PROJECT_VERSION"
        func tests(_ plist: String) -> String {
            "1.0 \(plist):18 CFBundleShortVersionString | 1 \(plist):20 CFBundleVersion"
        }
        return RealProjectTable(
            app: "duckduckgo-ios", header: "DuckDuckGo-iOS.xcodeproj: 7.157.0 (5) [DuckDuckGo, Release]",
            configurations: ["Debug", "Alpha Debug", "Alpha", "Release"],
            rows: [
                "DuckDuckGo | * | \(app)",
                "ShareExtension < DuckDuckGo | * | \(app)",
                "OpenAction < DuckDuckGo | * | \(app)",
                "WidgetsExtension < DuckDuckGo | * | \(app)",
                // GENERATE_INFOPLIST_FILE with a plist that has no version keys: the build settings.
                "PacketTunnelProvider < DuckDuckGo | * | \(app)",
                "AutofillCredentialProvider < DuckDuckGo | * | \(app)",
                // The framework's plist says 1.0 literally but takes the app's build.
                "Core | * | 1.0 Core/Info.plist:18 CFBundleShortVersionString | 5 Configuration/BuildNumber.xcconfig:1 CURRENT_PROJECT_VERSION",
                // No Info.plist at all: the build settings, as agvtool reads them.
                "Instruments | * | \(app)",
                // AtbUITests and IntegrationTests share one plist.
                "AtbUITests | * | \(tests("IntegrationTests/Info.plist"))",
                "UnitTests | * | \(tests("DuckDuckGoTests/Info.plist"))",
                "FingerprintingUITests | * | \(tests("FingerprintingUITests/Info.plist"))",
                "IntegrationTests | * | \(tests("IntegrationTests/Info.plist"))",
                "PerformanceTests | * | \(tests("IntegrationTests copy-Info.plist"))",
                // A target .xcconfig (SwiftLintToolBundleConfiguration) over the project's.
                "SwiftLintToolBundle | * | \(app)",
                // INFOPLIST_FILE = "" with a generated plist.
                "WebViewUnitTests | * | \(app)",
            ]
            // ExternalDeveloper.xcconfig is absent but included with #include? before Version.xcconfig: nothing
            // it could define survives, so no warning.
        )
    }()

    // MARK: pocket-casts-ios: custom variables in an xcconfig; git-ignored CocoaPods base configurations.

    static let pocketCasts: RealProjectTable = {
        let version = "7.75 config/Version.xcconfig:2 VERSION_SHORT"
        let build = "7.75.0.3 config/Version.xcconfig:1 VERSION_LONG"
        var rows = [
            "podcasts", "NotificationExtension < podcasts", "NotificationContent < podcasts", "Pocket Casts Watch App < podcasts",
            "PodcastsIntents < podcasts", "PodcastsIntentsUI < podcasts", "WidgetExtension < podcasts", "Share Extension < podcasts",
        ]
        .map { "\($0) | * | \(version) | \(build)" }
        // Test targets override MARKETING_VERSION = 1.0 at target level, once per configuration.
        for (target, lines) in [
            ("Screenshot Automation", [11573, 11035, 11611, 11650]), ("Screenshot Automation Watch", [11681, 11065, 11715, 11750]),
            ("PocketCastsTests", [11435, 11100, 11470, 11506]),
        ] {
            for (configuration, line) in zip(["Debug", "Staging", "Prototype", "Release"], lines) {
                rows.append("\(target) | \(configuration) | 1.0 podcasts.xcodeproj/project.pbxproj:\(line) MARKETING_VERSION | \(build)")
            }
        }
        func pods(_ target: String, _ configuration: String, line: Int, values: String) -> String {
            "podcasts.xcodeproj/project.pbxproj:\(line): base configuration 'Pods/Target Support Files/Pods-\(target)/Pods-\(target).\(configuration.lowercased()).xcconfig' does not exist; the \(values) of '\(target)' (\(configuration)) may differ from what is shown"
        }
        return RealProjectTable(
            app: "pocket-casts-ios", header: "podcasts.xcodeproj: 7.75 (7.75.0.3) [podcasts, Release]",
            configurations: ["Debug", "Staging", "Prototype", "Release"], rows: rows,
            warnings: [
                // The Pods layer sits above the project's xcconfig, so it could override both values of the app…
                pods("podcasts", "Debug", line: 12167, values: "version and build"),
                pods("podcasts", "Staging", line: 10782, values: "version and build"),
                pods("podcasts", "Prototype", line: 11880, values: "version and build"),
                pods("podcasts", "Release", line: 12193, values: "version and build"),
                // …but only the build of the tests, whose version is set at target level above it.
                pods("PocketCastsTests", "Debug", line: 11416, values: "build"),
                pods("PocketCastsTests", "Staging", line: 11081, values: "build"),
                pods("PocketCastsTests", "Prototype", line: 11449, values: "build"),
                pods("PocketCastsTests", "Release", line: 11485, values: "build"),
            ]
        )
    }()

    // MARK: element-x-ios: XcodeGen; target-level MARKETING_VERSION = "$(MARKETING_VERSION)" means inherited.

    static let elementX: RealProjectTable = {
        let debug = "26.07.5 ElementX.xcodeproj/project.pbxproj:10027 MARKETING_VERSION | 1 ElementX.xcodeproj/project.pbxproj:10003 CURRENT_PROJECT_VERSION"
        let release = "26.07.5 ElementX.xcodeproj/project.pbxproj:9946 MARKETING_VERSION | 1 ElementX.xcodeproj/project.pbxproj:9928 CURRENT_PROJECT_VERSION"
        var rows: [String] = []
        for target in ["ElementX", "NSE < ElementX", "ShareExtension < ElementX", "MatrixRustSDKMocks"] {
            rows += ["\(target) | Debug | \(debug)", "\(target) | Release | \(release)"]
        }
        for target in ["UnitTests", "PreviewTests", "UITests", "IntegrationTests", "AccessibilityTests"] {
            rows.append("\(target) | * | 1.0 \(target)/SupportingFiles/Info.plist:18 CFBundleShortVersionString | 1 \(target)/SupportingFiles/Info.plist:20 CFBundleVersion")
        }
        // The target specs are XcodeGen includes (app.yml, */SupportingFiles/target.yml): the corpus holds them all.
        return RealProjectTable(
            app: "element-x-ios", header: "ElementX.xcodeproj: 26.07.5 (1) [ElementX, Debug]", configurations: ["Debug", "Release"],
            rows: rows,
            xcodegenSpec: "project.yml"
        )
    }()

    static let elementXInspector = RealProjectTable(
        app: "element-x-ios", project: "compound-ios/Inspector/Inspector.xcodeproj", header: "Inspector.xcodeproj: 1.0 (2) [Compound Inspector, Release]",
        configurations: ["Debug", "Release"],
        rows: [
            "Compound Inspector | Debug | 1.0 Inspector.xcodeproj/project.pbxproj:408 MARKETING_VERSION | 2 Inspector.xcodeproj/project.pbxproj:392 CURRENT_PROJECT_VERSION",
            "Compound Inspector | Release | 1.0 Inspector.xcodeproj/project.pbxproj:442 MARKETING_VERSION | 2 Inspector.xcodeproj/project.pbxproj:426 CURRENT_PROJECT_VERSION",
        ]
    )

    // MARK: owncloud-ios-app: custom variables in the pbxproj, `${VAR}` and `$(VAR)`.

    static let ownCloud: RealProjectTable = {
        let file = "ownCloud.xcodeproj/project.pbxproj"
        let values = [
            "Debug": "12.7.0 \(file):5260 APP_SHORT_VERSION | 302 \(file):5261 APP_VERSION",
            "Release": "12.7.0 \(file):5331 APP_SHORT_VERSION | 302 \(file):5332 APP_VERSION",
        ]
        let builds = ["Debug": "302 \(file):5261 APP_VERSION", "Release": "302 \(file):5332 APP_VERSION"]
        var rows = [
            "MakeTVG | * | - | -",
            "ownCloudAppTests | * | 1.0 ownCloudAppTests/Info.plist:18 CFBundleShortVersionString | 148 ownCloudAppTests/Info.plist:20 CFBundleVersion",
        ]
        for configuration in ["Debug", "Release"] {
            // The Share Extension's CURRENT_PROJECT_VERSION = 161 is dead: its plist reads $(APP_VERSION).
            for target in [
                "ownCloud", "ownCloud File Provider < ownCloud", "ownCloud File Provider UI < ownCloud", "ownCloud Intents < ownCloud",
                "ownCloud Share Extension < ownCloud", "ownCloud Action Extension < ownCloud",
            ] {
                rows.append("\(target) | \(configuration) | \(values[configuration]!)")
            }
            rows.append("ownCloudTests | \(configuration) | 1.0 ownCloudTests/Info.plist:18 CFBundleShortVersionString | \(builds[configuration]!)")
            rows.append("ownCloudApp | \(configuration) | 1.0 ownCloudAppFramework/Resources/Info.plist:18 CFBundleShortVersionString | \(builds[configuration]!)")
        }
        rows.append("ownCloudAppShared | Debug | 1.0 ownCloudAppShared/Info.plist:18 CFBundleShortVersionString | 1 \(file):5607 CURRENT_PROJECT_VERSION")
        rows.append("ownCloudAppShared | Release | 1.0 ownCloudAppShared/Info.plist:18 CFBundleShortVersionString | 1 \(file):5655 CURRENT_PROJECT_VERSION")
        return RealProjectTable(
            app: "owncloud-ios-app", header: "ownCloud.xcodeproj: 12.7.0 (302) [ownCloud, Release]", configurations: ["Debug", "Release"], rows: rows
        )
    }()

    static let ownCloudLocaleDiff = RealProjectTable(
        app: "owncloud-ios-app", project: "tools/LocaleDiff/LocaleDiff.xcodeproj", header: "", configurations: ["Debug", "Release"],
        rows: ["LocaleDiff | * | - | -"]
    )

    // MARK: isowords: literal plist values in App/; the project is in a subfolder.

    static let isowords: RealProjectTable = {
        func plist(_ path: String, _ build: Int = 20, version: Int = 18) -> String {
            "1.3 \(path):\(version) CFBundleShortVersionString | 105 \(path):\(build) CFBundleVersion"
        }
        var rows = ["isowords | * | \(plist("iOS/Info.plist", 185, version: 170))", "AppClip < isowords | * | \(plist("AppClip/Info.plist", 22, version: 20))"]
        for (preview, build) in [
            ("CubeCorePreview", 20), ("CubePreviewPreview", 20), ("GameOverPreview", 20), ("HomeFeaturePreview", 35),
            ("LeaderboardsPreview", 20), ("OnboardingPreview", 35), ("SettingsPreview", 20), ("TrailerPreview", 20),
            ("UpgradeInterstitialPreview", 20),
        ] {
            rows.append("\(preview) | * | \(plist("Previews/\(preview)/Info.plist", build))")
        }
        return RealProjectTable(
            app: "isowords", header: "isowords.xcodeproj: 1.3 (105) [isowords, Release]", configurations: ["Debug", "Release", "Testflight"], rows: rows
        )
    }()

    // MARK: habitica-ios: per-target literals in the pbxproj, literal builds in the plists.

    static let habitica: RealProjectTable = {
        let file = "Habitica.xcodeproj/project.pbxproj"
        let configurations = ["Debug", "Release", "Testflight-Staff", "Testflight-Beta"]
        var rows = [
            "HabiticaTests | * | 1.0 HabiticaTests/Info.plist:18 CFBundleShortVersionString | 1008 HabiticaTests/Info.plist:22 CFBundleVersion",
            "Habitica Snapshots | * | 1.0 Habitica Snapshots/Info.plist:18 CFBundleShortVersionString | 1008 Habitica Snapshots/Info.plist:20 CFBundleVersion",
        ]
        // The literal CFBundleVersion in each plist wins over CURRENT_PROJECT_VERSION.
        for (target, plist, lines) in [
            ("Habitica", "HabitRPG/Habitica-Info.plist:42", [5353, 5426, 4454, 4090]),
            ("Habitica Intents < Habitica", "Habitica Intents/Info.plist:22", [4997, 5042, 4598, 4234]),
            ("Habitica IntentsUI < Habitica", "Habitica IntentsUI/Info.plist:22", [4913, 4956, 4640, 4276]),
            ("Habitica WidgetsExtension < Habitica", "Habitica Widgets/Info.plist:22", [4825, 4872, 4684, 4320]),
        ] {
            for (configuration, line) in zip(configurations, lines) {
                rows.append("\(target) | \(configuration) | 3.12 \(file):\(line) MARKETING_VERSION | 1008 \(plist) CFBundleVersion")
            }
        }
        for (configuration, (version, build)) in zip(configurations, [(4748, 4740), (4782, 4774), (4717, 4709), (4353, 4345)]) {
            rows.append("Habitica UI Tests | \(configuration) | 1.0 \(file):\(version) MARKETING_VERSION | 1008 \(file):\(build) CURRENT_PROJECT_VERSION")
        }
        // The orphan Habitica Notifications/Info.plist (build 695) belongs to no target and is not read.
        return RealProjectTable(app: "habitica-ios", header: "Habitica.xcodeproj: 3.12 (1008) [Habitica, Release]", configurations: configurations, rows: rows)
    }()

    /// A Habitica framework sub-project: a literal 1.0 with the project's build 1, and tests at 1.0 (1).
    static func habiticaFramework(_ name: String, lines: [(String, Int)]) -> RealProjectTable {
        var rows = ["\(name)Tests | * | 1.0 \(name)Tests/Info.plist:18 CFBundleShortVersionString | 1 \(name)Tests/Info.plist:20 CFBundleVersion"]
        for (configuration, line) in lines {
            rows.append("\(name) | \(configuration) | 1.0 \(name)/Info.plist:18 CFBundleShortVersionString | 1 \(name).xcodeproj/project.pbxproj:\(line) CURRENT_PROJECT_VERSION")
        }
        return RealProjectTable(
            app: "habitica-ios", project: "\(name)/\(name).xcodeproj", header: "\(name).xcodeproj: 1.0 (1) [\(name), Release]",
            configurations: lines.map(\.0), rows: rows
        )
    }

    // The three sub-projects list their configurations in different orders.
    static let habiticaAPIClient = habiticaFramework(
        "Habitica API Client", lines: [("Debug", 1381), ("Release", 1447), ("Testflight-Beta", 1721), ("Testflight-Staff", 1610)]
    )
    static let habiticaDatabase = habiticaFramework(
        "Habitica Database", lines: [("Debug", 722), ("Release", 786), ("Testflight-Staff", 1044), ("Testflight-Beta", 939)]
    )
    static let habiticaModels = habiticaFramework(
        "Habitica Models", lines: [("Debug", 807), ("Testflight-Staff", 1040), ("Testflight-Beta", 1161), ("Release", 876)]
    )

    // MARK: keepassium: project-level values that five shipping targets inherit.

    static let keepassium: RealProjectTable = {
        let file = "KeePassium.xcodeproj/project.pbxproj"
        let values = [
            "Debug": "2.6 \(file):1450 MARKETING_VERSION | 173 \(file):1428 CURRENT_PROJECT_VERSION",
            "Release": "2.6 \(file):1515 MARKETING_VERSION | 173 \(file):1499 CURRENT_PROJECT_VERSION",
        ]
        var rows: [String] = []
        for configuration in ["Debug", "Release"] {
            // INFOPLIST_FILE = $(SRCROOT)/KeePassium/Info.plist for Pro and Org; the plists are preprocessed (#ifdef INTUNE).
            for target in ["KeePassium", "KeePassium AutoFill < KeePassium", "KeePassium Pro", "KeePassium Pro AutoFill < KeePassium Pro", "KeePassium Org"] {
                rows.append("\(target) | \(configuration) | \(values[configuration]!)")
            }
        }
        rows += [
            "KeePassiumTests | Debug | 1.0 \(file):1820 MARKETING_VERSION | 1 \(file):1818 CURRENT_PROJECT_VERSION",
            "KeePassiumTests | Release | 1.0 \(file):1841 MARKETING_VERSION | 1 \(file):1839 CURRENT_PROJECT_VERSION",
            // Embedded by the Mac app, but a helper bundle keeps its own numbering.
            "MacUtils | Debug | 1.0 \(file):1289 MARKETING_VERSION | 1 \(file):1282 CURRENT_PROJECT_VERSION",
            "MacUtils | Release | 1.0 \(file):1315 MARKETING_VERSION | 1 \(file):1308 CURRENT_PROJECT_VERSION",
        ]
        return RealProjectTable(app: "keepassium", header: "KeePassium.xcodeproj: 2.6 (173) [KeePassium, Release]", configurations: ["Debug", "Release"], rows: rows)
    }()

    static let keepassiumLib = RealProjectTable(
        app: "keepassium", project: "KeePassiumLib/KeePassiumLib.xcodeproj", header: "KeePassiumLib.xcodeproj: 1.0 (1) [KeePassiumLib, Release]",
        configurations: ["Debug", "Release"],
        rows: [
            "KeePassiumLib | Debug | 1.0 KeePassiumLib/Info.plist:18 CFBundleShortVersionString | 1 KeePassiumLib.xcodeproj/project.pbxproj:255 CURRENT_PROJECT_VERSION",
            "KeePassiumLib | Release | 1.0 KeePassiumLib/Info.plist:18 CFBundleShortVersionString | 1 KeePassiumLib.xcodeproj/project.pbxproj:323 CURRENT_PROJECT_VERSION",
        ]
    )

    // MARK: swiftfin: per-target literals; an Xcode 16 anchored base configuration with an absent #include?.

    static let swiftfin: RealProjectTable = {
        let file = "Swiftfin.xcodeproj/project.pbxproj"
        return RealProjectTable(
            app: "swiftfin", header: "Swiftfin.xcodeproj: 1.0 (1) [Swiftfin iOS, Release]", configurations: ["Debug", "Release"],
            rows: [
                "Swiftfin iOS | Debug | 1.0 \(file):1150 MARKETING_VERSION | 1 \(file):1133 CURRENT_PROJECT_VERSION",
                "Swiftfin iOS | Release | 1.0 \(file):1190 MARKETING_VERSION | 1 \(file):1172 CURRENT_PROJECT_VERSION",
                "Swiftfin tvOS | Debug | 1.4.1 \(file):953 MARKETING_VERSION | 70 \(file):943 CURRENT_PROJECT_VERSION",
                "Swiftfin tvOS | Release | 1.4.1 \(file):983 MARKETING_VERSION | 70 \(file):973 CURRENT_PROJECT_VERSION",
            ]
            // DevelopmentTeam.xcconfig (#include?, git-ignored) sits below the target-level values: no warning.
        )
    }()
}

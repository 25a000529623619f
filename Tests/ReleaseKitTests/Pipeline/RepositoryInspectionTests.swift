import Foundation
import Testing

@testable import ReleasePipeline
@testable import ReleasePlanning
@testable import ReleaseSupport

/// What `release init` reads from a repository, and the choices it makes.
@Suite struct RepositoryInspectionTests {
    @Test(
        arguments: [
            ("git@github.com:acme/app.git", "acme/app"),
            ("https://github.com/acme/app", "acme/app"),
            ("ssh://git@github.com/acme/app.git", "acme/app"),
            ("https://gitlab.com/acme/app.git", nil),
        ] as [(String, String?)])
    func readsTheGitHubRemote(url: String, expected: String?) throws {
        let path = TestPipelines.temporaryDirectory() + "/config"
        try "[core]\n\tbare = false\n[remote \"origin\"]\n\turl = \(url)\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        #expect(RepositoryInspection.githubRepository(gitConfig: path) == expected)
    }

    static func scheme(archiving app: String, configuration: String = "Release", extensionScheme: Bool = false) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <Scheme LastUpgradeVersion = "1500"\(extensionScheme ? " wasCreatedForAppExtension = \"YES\"" : "") version = "2.0">
           <BuildAction parallelizeBuildables = "YES">
              <BuildActionEntries>
                 <BuildActionEntry buildForArchiving = "YES">
                    <BuildableReference BuildableIdentifier = "primary" BuildableName = "\(app).app" BlueprintName = "\(app)"
                       ReferencedContainer = "container:Demo.xcodeproj">
                    </BuildableReference>
                 </BuildActionEntry>
              </BuildActionEntries>
           </BuildAction>
           <ArchiveAction buildConfiguration = "\(configuration)" revealArchiveInOrganizer = "YES"/>
        </Scheme>
        """
    }

    static func demo(schemes: [String: String]) throws -> String {
        let directory = TestPipelines.temporaryDirectory()
        try FileManager.default.copyItem(atPath: FixturePaths.fixture("DemoApp").path, toPath: directory + "/DemoApp")
        let folder = directory + "/DemoApp/Demo.xcodeproj/xcshareddata/xcschemes"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (name, text) in schemes { try text.write(toFile: folder + "/\(name).xcscheme", atomically: true, encoding: .utf8) }
        return directory + "/DemoApp"
    }

    @Test func choosesTheSharedSchemeThatArchivesTheAppInRelease() throws {
        let directory = try Self.demo(schemes: [
            "Demo Debug": Self.scheme(archiving: "Demo", configuration: "Debug"),
            "Demo Widget": Self.scheme(archiving: "Demo", extensionScheme: true),
            "Demo-Release": Self.scheme(archiving: "Demo"),
            "Empty": "<Scheme/>",
        ])
        let inspection = try RepositoryInspection.inspect(directory)
        #expect(inspection.project == "Demo.xcodeproj")
        #expect(inspection.appTarget == "Demo")
        #expect(inspection.app?.platform == .iOS)
        #expect(inspection.bundleIdentifier == "com.example.demo")
        #expect(inspection.schemeNames == ["Demo Debug", "Demo Widget", "Demo-Release", "Empty"])
        #expect(inspection.scheme == "Demo-Release")
        #expect(inspection.configuration == "Release")
        #expect(inspection.reasons.contains("scheme 'Demo-Release': it archives Demo.app in Release; 1 other archives it too (Demo Debug)"), "\(inspection.reasons)")
        #expect(inspection.version == "3.0.0")
        // The starter it leads to is a valid pipeline.
        _ = try TestPipelines.load(StarterPipeline(inspection).text)
        _ = try TestPipelines.load(StarterPipeline(inspection, signing: .files).text)
        _ = try TestPipelines.load(StarterPipeline(inspection, signing: .sync).text)
    }

    @Test func refusesWhatIsNotThere() throws {
        let directory = try Self.demo(schemes: ["Demo": Self.scheme(archiving: "Demo")])
        func problem(_ answers: RepositoryInspection.Answers) -> String {
            do {
                _ = try RepositoryInspection.inspect(directory, answers: answers)
                return "no problem"
            } catch {
                return "\(error)"
            }
        }
        #expect(problem(.init(scheme: "Dmeo")) == "--scheme 'Dmeo' does not exist: the shared schemes are 'Demo' (did you mean 'Demo'?)")
        #expect(problem(.init(target: "DemoKit")).hasPrefix("--target 'DemoKit' is not an app target here; the apps are Demo (iOS)"))
        #expect(problem(.init(platform: "tvOS")).hasPrefix("no tvOS app in Demo.xcodeproj: its apps are Demo (iOS)"))
        #expect(problem(.init(platform: "android")) == "--platform 'android' is not one of iOS, tvOS, macOS, visionOS, watchOS")
        #expect(problem(.init(workspace: "None.xcworkspace")).hasPrefix("--workspace 'None.xcworkspace': no such .xcworkspace in "))
        let empty = TestPipelines.temporaryDirectory()
        do {
            _ = try RepositoryInspection.inspect(empty)
            Issue.record("a folder with no project must be refused")
        } catch {
            #expect("\(error)".hasPrefix("no Xcode project (.xcodeproj), workspace or XcodeGen spec (project.yml) in "))
        }
        #expect(RepositoryInspection.isRepositoryName("acme/app.ios") && !RepositoryInspection.isRepositoryName(".") && !RepositoryInspection.isRepositoryName("a/b/c"))
        #expect(RepositoryInspection.isTeamID("ABCDE12345") && !RepositoryInspection.isTeamID("abcde12345") && !RepositoryInspection.isTeamID("ABC"))
    }

    /// What each real app's shape leads to (../shared/real-projects README, "Project shape files").
    @Test(
        .needsShared(.realProjects),
        arguments: [
            ("duckduckgo-ios", nil, "DuckDuckGo-iOS.xcodeproj", nil, "iOS Browser", "DuckDuckGo", "HKE973VLUW", [] as [String]),
            ("element-x-ios", nil, "ElementX.xcodeproj", nil, "ElementX", "ElementX", "7J4U792NQT", ["xcodegen"]),
            ("habitica-ios", nil, "Habitica.xcodeproj", "Habitica.xcworkspace", "Habitica", "Habitica", "9Q9SMRMCNN", []),
            ("isowords", nil, "App/isowords.xcodeproj", nil, "isowords", "isowords", "VFRXY8HC3H", []),
            ("keepassium", nil, "KeePassium.xcodeproj", "KeePassium.xcworkspace", "KeePassium", "KeePassium", "84W4PHXS24", []),
            ("owncloud-ios-app", nil, "ownCloud.xcodeproj", nil, "ownCloud", "ownCloud", "4AP2STM4H5", []),
            ("pocket-casts-ios", nil, "podcasts.xcodeproj", "podcasts.xcworkspace", "pocketcasts", "podcasts", "PZYM8XX95Q", ["pod"]),
            ("swiftfin", nil, "Swiftfin.xcodeproj", nil, "Swiftfin", "Swiftfin iOS", nil, []),
            ("swiftfin", "tvOS", "Swiftfin.xcodeproj", nil, "Swiftfin tvOS", "Swiftfin tvOS", nil, []),
        ] as [(String, String?, String, String?, String, String, String?, [String])])
    func readsEachRealProject(
        app: String, platform: String?, project: String, workspace: String?, scheme: String, target: String,
        team: String?, generation: [String]
    ) throws {
        let head = try RealProjectsCorpus.require() + "/\(app)/head"
        let inspection = try RepositoryInspection.inspect(head, answers: .init(platform: platform))
        #expect(inspection.project == project)
        #expect(inspection.workspace == workspace)
        #expect(inspection.scheme == scheme)
        #expect(inspection.appTarget == target)
        #expect(inspection.app?.platform == platform.flatMap(ApplePlatform.init(name:)) ?? .iOS)
        #expect(inspection.team == team)
        #expect((inspection.xcodegenSpec != nil) == generation.contains("xcodegen"))
        #expect((inspection.podfile != nil) == generation.contains("pod"))
        let text = StarterPipeline(inspection).text
        #expect(text.contains(#""destination": "\#(inspection.app!.platform.destination)""#))
        _ = try TestPipelines.load(text)
    }

    /// Issue 35: the Xcode a project builds with, from `.xcode-version` or else its CI: element-x selects Xcode 26.5
    /// in a workflow and in Xcode Cloud's scripts (`Xcode_26.5.0.app` is 26.5); a computed `$(<.xcode-version)` is not
    /// read; a tie goes to the newest.
    @Test(.needsShared(.realProjects)) func readsThePinnedXcodeFromXcodeVersionOrTheCI() throws {
        let corpus = try RealProjectsCorpus.require()
        let element = try RepositoryInspection.inspect(corpus + "/element-x-ios/head", answers: .init())
        #expect(element.xcodeVersion == "26.5" && element.xcodeVersionSource == ".github/workflows/compound-ios.yml:38")
        #expect(StarterPipeline(element).text.contains("built with Xcode 26.5 (.github/workflows/compound-ios.yml:38), on macos-26"))
        let duckduckgo = try RepositoryInspection.inspect(corpus + "/duckduckgo-ios/head", answers: .init())
        #expect(duckduckgo.xcodeVersion == "16.2" && duckduckgo.xcodeVersionSource == ".xcode-version")
        let habitica = try RepositoryInspection.inspect(corpus + "/habitica-ios/head", answers: .init())
        #expect(habitica.xcodeVersion == nil)

        let directory = TestPipelines.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory + "/.github/workflows", withIntermediateDirectories: true)
        try
            "jobs:\n  a:\n    steps:\n      - uses: maxim-lobanov/setup-xcode@v1\n        with:\n          xcode-version: '16.4'\n      - run: sudo xcode-select -s /Applications/Xcode_$(<.xcode-version).app\n"
            .write(toFile: directory + "/.github/workflows/a.yml", atomically: true, encoding: .utf8)
        try "env:\n  DEVELOPER_DIR: /Applications/Xcode_26.1.app/Contents/Developer\n".write(
            toFile: directory + "/.github/workflows/b.yml", atomically: true, encoding: .utf8)
        #expect(RepositoryInspection.ciXcodeVersion(root: directory)! == ("26.1", ".github/workflows/b.yml:2"))
    }

    @Test func readsFastlaneLiteralsOnly() throws {
        let directory = TestPipelines.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory + "/fastlane", withIntermediateDirectories: true)
        try "app_identifier \"com.acme.app\" # The bundle identifier\nteam_id(\"ABCDE12345\")\napple_id ENV['APPLE_ID']\n"
            .write(toFile: directory + "/fastlane/Appfile", atomically: true, encoding: .utf8)
        try "git_url(ENV['MATCH_URL'])\ntype(\"appstore\")\n".write(toFile: directory + "/fastlane/Matchfile", atomically: true, encoding: .utf8)
        #expect(RepositoryInspection.fastlane(in: directory) == .init(appIdentifier: "com.acme.app", teamID: "ABCDE12345", matchType: "appstore"))
        try "app_identifier(ENV['OWNCLOUD_APP_IDENTIFIER'])\n".write(toFile: directory + "/fastlane/Appfile", atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(atPath: directory + "/fastlane/Matchfile")
        #expect(RepositoryInspection.fastlane(in: directory) == nil)
    }

    /// Issue 40 F12: a scheme named with `${…}` was written into `variables.scheme` as a reference (an invalid
    /// starter, or an unmasked `${env.NAME}` in xcodebuild's argv); names from the project are written as text.
    @Test func aSchemeNameHoldingAReferenceIsWrittenAsText() throws {
        let directory = try Self.demo(schemes: ["Demo": Self.scheme(archiving: "Demo")])
        var inspection = try RepositoryInspection.inspect(directory)
        inspection.scheme = "Demo$(touch${IFS}MARK)${env.HOME}"
        let text = StarterPipeline(inspection).text
        #expect(text.contains(#""scheme": "Demo$(touch$${IFS}MARK)$${env.HOME}""#), "\(text)")
        // Before, loading failed: "unknown variable '${IFS}'".
        _ = try TestPipelines.load(text)
    }

    /// Issue 40 F13: a `project.pbxproj` that is a symlink to a file outside the repository was read without a word.
    @Test func aProjectFileLinkedFromOutsideTheRepositoryIsRefused() throws {
        let directory = try Self.demo(schemes: ["Demo": Self.scheme(archiving: "Demo")])
        let outside = TestPipelines.temporaryDirectory() + "/elsewhere.pbxproj"
        let pbxproj = directory + "/Demo.xcodeproj/project.pbxproj"
        try FileManager.default.moveItem(atPath: pbxproj, toPath: outside)
        try FileManager.default.createSymbolicLink(atPath: pbxproj, withDestinationPath: outside)
        do {
            _ = try RepositoryInspection.inspect(directory)
            Issue.record("a project file outside the repository was read")
        } catch let problem as RepositoryInspection.Problem {
            #expect(problem.description.hasPrefix("'Demo.xcodeproj/project.pbxproj' is a symbolic link to '"), "\(problem.description)")
            #expect(problem.description.hasSuffix("outside the repository \(directory): refused"), "\(problem.description)")
        }
    }

    @Test func readsTheGymfilesLiteralsAndTheFastfilesAppStoreBuild() throws {
        let directory = TestPipelines.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory + "/fastlane", withIntermediateDirectories: true)
        try """
        lane :beta do
          build_app(scheme: "App Debug") # a developer build
        end
        lane :release do
          build_app(
            export_method: "ad-hoc",
            scheme: "App Testers",
          )
          gym(
            scheme: "App Store",
            configuration: "AppStore",
            export_method: "app-store",
          )
        end

        """.write(toFile: directory + "/fastlane/Fastfile", atomically: true, encoding: .utf8)
        #expect(
            RepositoryInspection.gym(in: directory)
                == ["scheme": "App Store", "configuration": "AppStore", "export_method": "app-store", "source": "Fastfile"])
        // A Gymfile wins; values read from the environment are left out.
        try "scheme(\"App Release\")\nconfiguration ENV['CONFIGURATION']\nexport_method \"app-store\"\n"
            .write(toFile: directory + "/fastlane/Gymfile", atomically: true, encoding: .utf8)
        #expect(RepositoryInspection.gym(in: directory) == ["scheme": "App Release", "export_method": "app-store", "source": "Gymfile"])
    }

    @Test func theGymfilesSchemeIsTheOneArchived() throws {
        let directory = TestPipelines.temporaryDirectory() + "/Demo"
        try FileManager.default.copyItem(atPath: FixturePaths.fixture("DemoApp").path, toPath: directory)
        let schemes = directory + "/Demo.xcodeproj/xcshareddata/xcschemes"
        try FileManager.default.createDirectory(atPath: schemes, withIntermediateDirectories: true)
        for (name, configuration) in [("Demo", "Debug"), ("Demo Store", "Release")] {
            try """
            <?xml version="1.0" encoding="UTF-8"?>
            <Scheme version = "1.7">
               <BuildAction>
                  <BuildActionEntries>
                     <BuildActionEntry buildForArchiving = "YES">
                        <BuildableReference BuildableIdentifier = "primary" BlueprintIdentifier = "A1" BuildableName = "Demo.app" BlueprintName = "Demo" ReferencedContainer = "container:Demo.xcodeproj">
                        </BuildableReference>
                     </BuildActionEntry>
                  </BuildActionEntries>
               </BuildAction>
               <ArchiveAction buildConfiguration = "\(configuration)" revealArchiveInOrganizer = "YES">
               </ArchiveAction>
            </Scheme>

            """.write(toFile: schemes + "/\(name).xcscheme", atomically: true, encoding: .utf8)
        }
        // Without fastlane, the scheme named after the app.
        #expect(try RepositoryInspection.inspect(directory).scheme == "Demo")
        try FileManager.default.createDirectory(atPath: directory + "/fastlane", withIntermediateDirectories: true)
        try "scheme(\"Demo Store\")\n".write(toFile: directory + "/fastlane/Gymfile", atomically: true, encoding: .utf8)
        let inspection = try RepositoryInspection.inspect(directory)
        #expect(inspection.scheme == "Demo Store")
        #expect(inspection.configuration == "Release")
        #expect(inspection.reasons.contains("scheme 'Demo Store': fastlane's Gymfile builds it (archives in Release)"), "\(inspection.reasons)")
    }

    @Test(.needsShared(.realProjects)) func duckduckgosFastfileNamesItsAppStoreScheme() throws {
        let head = try RealProjectsCorpus.require() + "/duckduckgo-ios/head"
        let gym = RepositoryInspection.gym(in: head)
        #expect(gym["scheme"] == "iOS Browser" && gym["export_method"] == "app-store", "\(gym)")
    }

    /// `--signing files` on an app that embeds extensions: each embedded target's profile has its own secret, of each
    /// type, named after its bundle id, so a run missing one names it. DuckDuckGo's app embeds five extensions.
    /// `--signing files` on a project that signs automatically (the demo): Xcode's automatic signing wants development
    /// profiles the run does not install and, without `-allowProvisioningUpdates`, refuses to make them ("Automatic
    /// signing is disabled and unable to generate a profile"). So the archive signs automatically with the API key and
    /// the export signs manually with the installed distribution profiles, without the key.
    @Test func filesSigningOnAnAutomaticProjectArchivesWithTheKeyAndExportsWithTheInstalledProfiles() throws {
        let directory = try Self.demo(schemes: ["Demo": Self.scheme(archiving: "Demo")])
        let inspection = try RepositoryInspection.inspect(directory)
        #expect(inspection.signing?.manual == [])
        let starter = StarterPipeline(inspection, signing: .files)
        #expect(starter.projectSignsAutomatically && starter.archiveSignsWithKey)
        let text = starter.text
        _ = try TestPipelines.load(text)
        func line(_ id: String) throws -> String { String(try #require(text.split(separator: "\n").first { $0.contains("\"id\": \"\(id)\"") })) }
        let archive = try line("archive")
        for expected in [
            "\"allow_provisioning_updates\": true", "\"authentication_key\": \"${secrets.APP_STORE_CONNECT_KEY}\"",
            "\"authentication_key_id\": \"${env.APP_STORE_CONNECT_KEY_ID}\"", "\"authentication_key_issuer_id\": \"${env.APP_STORE_CONNECT_ISSUER_ID}\"",
            "\"CODE_SIGN_STYLE\": \"Automatic\"", "\"needs\": [\"commit\", \"keychain\", \"profiles\", \"adhoc-profiles\"]",
        ] {
            #expect(archive.contains(expected), "\(expected) in \(archive)")
        }
        // The development certificate Xcode fetches is not in the run's keychain: codesign searches the search list.
        #expect(!archive.contains("OTHER_CODE_SIGN_FLAGS"), "\(archive)")
        let export = try line("export")
        #expect(!export.contains("authentication_key") && !export.contains("allow_provisioning_updates") && !export.contains("signing_style"), "\(export)")
        #expect(try line("keychain").contains("${secrets.CERTIFICATE_P12}"))
        // The other modes are as they were: the API key everywhere, or signing.sync's manual settings without it.
        #expect(StarterPipeline(inspection).archiveSignsWithKey)
        let sync = StarterPipeline(inspection, signing: .sync)
        #expect(!sync.archiveSignsWithKey)
        #expect(!(sync.text.split(separator: "\n").first { $0.contains("\"id\": \"archive\"") } ?? "").contains("allow_provisioning_updates"))
    }

    @Test(.needsShared(.realProjects)) func filesSigningGivesEachEmbeddedTargetItsOwnProfileSecrets() throws {
        let directory = TestPipelines.temporaryDirectory() + "/duckduckgo"
        try FileManager.default.copyItem(atPath: try RealProjectsCorpus.require() + "/duckduckgo-ios/head", toPath: directory)
        let inspection = try RepositoryInspection.inspect(directory)
        #expect(
            Set(inspection.embeddedBundleIdentifiers)
                == [
                    "com.duckduckgo.mobile.ios.ShareExtension", "com.duckduckgo.mobile.ios.OpenAction2", "com.duckduckgo.mobile.ios.Widgets",
                    "com.duckduckgo.mobile.ios.NetworkExtension", "com.duckduckgo.mobile.ios.CredentialExtension",
                ], "\(inspection.embeddedBundleIdentifiers)")
        let starter = StarterPipeline(inspection, signing: .files)
        let text = starter.text
        let pipeline = try TestPipelines.load(text)
        let secrets = Set(starter.secrets.map(\.name))
        for (base, step) in [("APPSTORE_PROFILE", "profiles"), ("ADHOC_PROFILE", "adhoc-profiles")] {
            let expected = [base] + ["SHAREEXTENSION", "OPENACTION2", "WIDGETS", "NETWORKEXTENSION", "CREDENTIALEXTENSION"].map { base + "_" + $0 }
            #expect(Set(expected).isSubset(of: secrets), "\(secrets)")
            #expect(Set(Planner.secretNames(in: pipeline.definition)).isSuperset(of: expected))
            let line = try #require(text.split(separator: "\n").first { $0.contains("\"id\": \"\(step)\"") })
            for secret in expected { #expect(line.contains("\"${secrets.\(secret)}\""), "\(line)") }
        }
        #expect(
            starter.secrets.contains {
                $0.name == "APPSTORE_PROFILE_WIDGETS" && $0.purpose.contains("the App Store provisioning profile for com.duckduckgo.mobile.ios.Widgets")
            })
        // DuckDuckGo signs manually (its own specifiers name its profiles): the archive keeps that, with the run's keychain.
        #expect(!starter.archiveSignsWithKey)
        let archive = try #require(text.split(separator: "\n").first { $0.contains("\"id\": \"archive\"") })
        #expect(!archive.contains("allow_provisioning_updates") && archive.contains("--keychain ${steps.keychain.outputs.path}"), "\(archive)")
        // Without extensions, one profile of each type, as before.
        let plain = StarterPipeline(project: "Demo.xcodeproj", scheme: "Demo", appName: "Demo", bundleIdentifier: "com.example.demo", signing: .files)
        #expect(plain.secrets.map(\.name).filter { $0.contains("PROFILE") } == ["APPSTORE_PROFILE", "ADHOC_PROFILE"])
    }
}

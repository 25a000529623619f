import Foundation
import Rehearsal
import Testing

/// `signing.sync` end to end: the real `release` binary, the fake `security` and `xcodebuild` (Fixtures/FakeTools)
/// and the local App Store Connect. From an empty account a run creates one certificate, the bundle ids and the
/// profiles, archives and exports with them and leaves nothing behind; a second run writes nothing; a read-only run
/// that would have to change something fails in preflight and changes nothing; an expiring profile is renewed; the
/// private key is in no output, report or journal.
@Suite struct SigningSyncCommandTests {
    static let keyPEM = (try? String(contentsOfFile: AppleDistributeTests.signing + "/CertificateKey.pem", encoding: .utf8)) ?? ""

    /// The demo machine with a pipeline `Pipelines/sync.json`: signing.sync, archive, export (profiles by default).
    static func machine(with options: String = #""create": true, "readonly": false"#, extra: [String: String] = [:]) throws -> AppleDistributeTests.Machine {
        var environment = extra
        environment["CERTIFICATE_KEY"] = keyPEM
        let machine = try AppleDistributeTests.machine(extra: environment)
        let pipeline = #"""
            {
              "version": 1,
              "name": "sync",
              "variables": {"project": "Fixtures/DemoApp/Demo.xcodeproj"},
              "steps": [
                {"id": "signing", "uses": "signing.sync", "when": {"os": "macos"},
                 "with": {"type": "app-store", "project": "${project}", "certificate_key": "${secrets.CERTIFICATE_KEY}", \#(options),
                          "key_id": "${env.APP_STORE_CONNECT_KEY_ID}", "issuer_id": "${env.APP_STORE_CONNECT_ISSUER_ID}",
                          "key": "${secrets.APP_STORE_CONNECT_KEY}"}},
                {"id": "archive", "uses": "xcode.archive", "when": {"os": "macos"},
                 "with": {"project": "${project}", "scheme": "Demo", "configuration": "Release", "archive_path": "build/Demo.xcarchive",
                          "build_settings": {"DEVELOPMENT_TEAM": "ABCDE12345", "OTHER_CODE_SIGN_FLAGS": "--keychain ${steps.signing.outputs.keychain}"}}},
                {"id": "export", "uses": "xcode.export", "when": {"os": "macos"},
                 "with": {"archive": "${steps.archive.outputs.path}", "method": "app-store", "export_path": "build/export"}}
              ]
            }
            """#
        try pipeline.write(toFile: machine.directory + "/Pipelines/sync.json", atomically: true, encoding: .utf8)
        return machine
    }

    /// The write requests App Store Connect received, `METHOD /path`.
    static func writes(_ machine: AppleDistributeTests.Machine) -> [String] {
        machine.appStore.exchanges().filter { $0.method != "GET" }.map { "\($0.method) \($0.target.split(separator: "?")[0])" }
    }

    /// Every text of the run: outputs, the report and the journal's files.
    static func everything(_ outcome: ReleaseBinary.Outcome, _ machine: AppleDistributeTests.Machine, report: String) -> String {
        var text = outcome.stdout + outcome.stderr + ((try? String(contentsOfFile: report, encoding: .utf8)) ?? "")
        for folder in [machine.directory + "/.git/release-journal", machine.directory + "/.release/journal"] {
            let enumerator = FileManager.default.enumerator(atPath: folder)
            while let path = enumerator?.nextObject() as? String {
                text += (try? String(contentsOfFile: folder + "/" + path, encoding: .utf8)) ?? ""
            }
        }
        return text
    }

    /// The key's body lines (each 64 base64 characters): none may appear anywhere.
    static var keyLines: [String] {
        keyPEM.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("-----") }
    }

    @Test func fromAnEmptyAccountARunCreatesSignsExportsAndASecondRunWritesNothing() throws {
        let machine = try Self.machine()
        let report = machine.directory + "/build/report.json"
        let outcome = try ReleaseBinary.run(
            ["run", "sync", "--os", "macos", "--report", report], in: machine.directory,
            environment: machine.environment)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        // One certificate, the app's and the widget's bundle ids and App Store profiles, in that order.
        #expect(Self.writes(machine) == ["POST /v1/certificates", "POST /v1/bundleIds", "POST /v1/profiles", "POST /v1/bundleIds", "POST /v1/profiles"])
        let summary = machine.appStore.summary()
        #expect(summary.contains("bundle id com.example.demo IOS") && summary.contains("bundle id com.example.demo.widget IOS"), "\(summary)")
        #expect(summary.filter { $0.hasPrefix("profile IOS_APP_STORE 'release app-store com.example.") && $0.contains(" ACTIVE ") }.count == 2, "\(summary)")

        // The key and the certificate went into the temporary keychain; the export used the profiles made.
        let security = machine.calls("security")
        let keychain = try #require(security.first { $0.first == "create-keychain" }?.last)
        #expect(security.contains { $0.starts(with: ["import"]) && $0.contains("priv") && $0.contains("/usr/bin/codesign") })
        #expect(security.contains { $0.starts(with: ["import"]) && $0.contains("x509") })
        #expect(machine.calls("xcodebuild").first?.last == "OTHER_CODE_SIGN_FLAGS=--keychain \(keychain)")
        let plistData = try Data(contentsOf: URL(fileURLWithPath: machine.directory + "/build/export/ExportOptions.plist"))
        let plist = try #require(try PropertyListSerialization.propertyList(from: plistData, format: nil) as? [String: Any])
        #expect(plist["signingStyle"] as? String == "manual")
        let mapping = try #require(plist["provisioningProfiles"] as? [String: String])
        #expect(Set(mapping.keys) == ["com.example.demo", "com.example.demo.widget"])
        #expect(outcome.stderr.contains("created profile 'release app-store com.example.demo' (\(mapping["com.example.demo"] ?? "?"))"), "\(outcome.stderr)")
        #expect(FileManager.default.fileExists(atPath: machine.directory + "/build/export/Demo.ipa"))
        try AppleDistributeTests().expectClean(machine)
        let all = Self.everything(outcome, machine, report: report)
        #expect(!Self.keyLines.isEmpty && !Self.keyLines.contains { all.contains($0) }, "the private key is in no output, report or journal")

        // The second run finds everything: no write request, the same profiles, nothing left behind.
        machine.appStore.clearExchanges()
        let second = try ReleaseBinary.run(["run", "sync", "--os", "macos", "--report", report], in: machine.directory, environment: machine.environment)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(Self.writes(machine) == [])
        #expect(second.stderr.contains("App Store Connect had everything (no write)"), "\(second.stderr)")
        let again = try Data(contentsOf: URL(fileURLWithPath: machine.directory + "/build/export/ExportOptions.plist"))
        #expect((try PropertyListSerialization.propertyList(from: again, format: nil) as? [String: Any])?["provisioningProfiles"] as? [String: String] == mapping)
        try AppleDistributeTests().expectClean(machine)
        #expect(!Self.keyLines.contains { Self.everything(second, machine, report: report).contains($0) })

        // An expiring profile is renewed, and only it.
        #expect(try machine.appStore.setProfileExpiration(name: "release app-store com.example.demo", to: Date().addingTimeInterval(3 * 86_400)))
        machine.appStore.clearExchanges()
        let third = try ReleaseBinary.run(["run", "sync", "--os", "macos"], in: machine.directory, environment: machine.environment)
        #expect(third.status == 0, "\(third.stderr)")
        let renewals = Self.writes(machine)
        #expect(renewals.count == 2 && renewals.first?.hasPrefix("DELETE /v1/profiles/") == true && renewals.last == "POST /v1/profiles", "\(renewals)")
        try AppleDistributeTests().expectClean(machine)
    }

    @Test func aReadOnlyRunThatWouldChangeSomethingFailsInPreflightAndChangesNothing() throws {
        for (options, extra, why) in [
            (#""create": true, "readonly": true"#, [String: String](), "readonly: true"),
            (#""create": true"#, ["CI": "true"], "readonly: true, the default when CI is set"),
            (#""readonly": false"#, [:], "create: false"),
        ] {
            let machine = try Self.machine(with: options, extra: extra)
            let outcome = try ReleaseBinary.run(["run", "sync", "--os", "macos"], in: machine.directory, environment: machine.environment)
            #expect(outcome.status == 1, "\(outcome.stderr)")
            #expect(outcome.stderr.contains("signing.sync would have to change App Store Connect, and changed nothing (\(why)):"), "\(outcome.stderr)")
            #expect(outcome.stderr.contains("- create a DISTRIBUTION certificate from a signing request made with the private key"))
            #expect(outcome.stderr.contains("- create profile 'release app-store com.example.demo.widget' for com.example.demo.widget (new bundle id)"))
            #expect(outcome.stderr.contains("release run <this pipeline> --only signing"), "\(outcome.stderr)")
            #expect(Self.writes(machine) == [], "nothing was changed on App Store Connect")
            #expect(!machine.calls("security").contains { $0.first == "create-keychain" }, "nor on the machine")
            #expect(machine.calls("xcodebuild").isEmpty, "preflight stopped the run before the build")
            #expect(!Self.keyLines.contains { (outcome.stdout + outcome.stderr).contains($0) })
        }
        // Explicit bundle ids replace the project's.
        let machine = try Self.machine(with: #""bundle_ids": ["com.example.other"], "readonly": true"#)
        let outcome = try ReleaseBinary.run(["run", "sync", "--os", "macos"], in: machine.directory, environment: machine.environment)
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("- create bundle id 'com.example.other' (IOS)"), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("com.example.demo.widget"), "\(outcome.stderr)")
    }

    @Test func signingStatusShowsWhatWouldBeUsedAndWhatASyncWouldChange() throws {
        let machine = try Self.machine()
        let before = try ReleaseBinary.run(["signing", "status", "sync", "--os", "macos", "--json"], in: machine.directory, environment: machine.environment)
        #expect(before.status == 0, "\(before.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(before.stdout.utf8)) as? [String: Any])
        let step = try #require((json["steps"] as? [[String: Any]])?.first)
        #expect(step["id"] as? String == "signing" && step["type"] as? String == "app-store" && step["complete"] as? Bool == false)
        #expect(step["certificate"] is NSNull)
        #expect(
            (step["changes"] as? [[String: Any]])?.map { $0["action"] as? String ?? "" }
                == ["create-certificate", "create-bundle-id", "create-bundle-id", "create-profile", "create-profile"])
        #expect(Self.writes(machine) == [], "status is read-only")

        #expect(try ReleaseBinary.run(["run", "sync", "--os", "macos"], in: machine.directory, environment: machine.environment).status == 0)
        let after = try ReleaseBinary.run(["signing", "status", "sync", "--os", "macos"], in: machine.directory, environment: machine.environment)
        #expect(after.status == 0, "\(after.stderr)")
        #expect(after.stderr.contains("signing.sync 'signing' (app-store, ios)"), "\(after.stderr)")
        #expect(after.stderr.contains("certificate DISTRIBUTION "), "\(after.stderr)")
        #expect(after.stderr.contains("com.example.demo.widget: profile 'release app-store com.example.demo.widget' ("), "\(after.stderr)")
        #expect(after.stderr.contains("a sync would change nothing"), "\(after.stderr)")

        // A teammate revokes the certificate: status and a read-only run say so and what to do.
        machine.appStore.revokeCertificates(ofType: "DISTRIBUTION")
        let revoked = try ReleaseBinary.run(["signing", "status", "sync", "--os", "macos"], in: machine.directory, environment: machine.environment)
        #expect(revoked.stderr.contains("is no longer on App Store Connect: it was revoked"), "\(revoked.stderr)")
        var ci = machine.environment
        ci["CI"] = "true"
        try String(contentsOfFile: machine.directory + "/Pipelines/sync.json", encoding: .utf8)
            .replacingOccurrences(of: #""create": true, "readonly": false"#, with: #""create": true"#)
            .write(toFile: machine.directory + "/Pipelines/sync.json", atomically: true, encoding: .utf8)
        machine.appStore.clearExchanges()
        let refused = try ReleaseBinary.run(["run", "sync", "--os", "macos"], in: machine.directory, environment: ci)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("it was revoked (perhaps by a teammate"), "\(refused.stderr)")
        #expect(refused.stderr.contains("signing.sync makes a new certificate from the same key"), "\(refused.stderr)")
        #expect(Self.writes(machine) == [])
    }

    @Test func aRehearsalSyncsAgainstTheStandInWithAPlaceholderKey() throws {
        var machine = try Self.machine()
        machine.environment["CERTIFICATE_KEY"] = ""
        let outcome = try ReleaseBinary.run(["run", "sync", "--os", "macos", "--rehearse"], in: machine.directory, environment: machine.environment)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("CERTIFICATE_KEY"), "the header names the placeholder secret: \(outcome.stderr)")
        #expect(outcome.stderr.contains("certificate DISTRIBUTION "), "the rehearsal's summary lists the certificate made: \(outcome.stderr)")
        #expect(outcome.stderr.contains("profile IOS_APP_STORE 'release app-store com.example.demo' com.example.demo ACTIVE"), "\(outcome.stderr)")
        #expect(Self.writes(machine) == [], "the pipeline's own App Store Connect was not used")
        #expect(!outcome.stderr.contains("-----BEGIN RSA PRIVATE KEY-----") && !outcome.stdout.contains("PRIVATE KEY-----"))
        try AppleDistributeTests().expectClean(machine)
    }
}

import Crypto
import Foundation
import Rehearsal
import ReleaseAppStoreConnect
import ReleaseSentry
import Testing

/// Issue 38 end to end: the `release` binary guards a phased release in rehearsals, against the local App Store
/// Connect (a version rolling out on day 3, kept in the rehearsal's storage) and the local Sentry, whose scripted
/// series walks the guard through wait, pause (once) and a repeat that changes nothing; each check's state is the
/// git note on the release's tag.
@Suite struct RolloutGuardCommandTests {
    static let pipeline = #"""
        {"version": 1, "name": "guard",
         "steps": [
           {"id": "rollout-guard", "uses": "appstore.rollout",
            "with": {"action": "guard", "bundle_id": "com.example.demo", "version": "1.4.0",
                     "sentry": {"organization": "example", "project": "demo-ios", "token": "${secrets.SENTRY_TOKEN}"},
                     "min_crash_free_sessions": 99.5, "min_sessions": 500, "slack": "${secrets.SLACK_WEBHOOK_URL}",
                     "key_id": "${env.APP_STORE_CONNECT_KEY_ID}", "issuer_id": "${env.APP_STORE_CONNECT_ISSUER_ID}",
                     "key": "${secrets.APP_STORE_CONNECT_KEY}"}}
         ]}
        """#

    @Test func aRehearsedGuardWaitsThenPausesOnceAndRecordsItsChecks() throws {
        let directory = try ReleaseBinary.gitRepository(branch: "main")
        try Self.pipeline.write(toFile: directory + "/guard.json", atomically: true, encoding: .utf8)
        try ReleaseBinary.git(["tag", "v1.4.0-42"], in: directory)
        let storage = directory + "/.git/guard-rehearsal"
        // The release rolling out, as the local App Store Connect keeps it between rehearsals.
        let seed = try LocalAppStoreConnectServer(configuration: .init(storageDirectory: storage + "/appstore", keys: []))
        seed.addApp(bundleID: "com.example.demo", name: "Demo")
        seed.addBuild(bundleID: "com.example.demo", version: "1.4.0", build: "42")
        seed.setPhasedRelease(bundleID: "com.example.demo", version: "1.4.0", build: "42", state: "ACTIVE", day: 3)
        seed.stop()

        let arguments = ["run", "guard.json", "--rehearse", "--rehearsal-storage", storage]
        let first = try ReleaseBinary.run(arguments + ["--report", directory + "/first.json"], in: directory)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("decision: wait: nothing judged yet: too few sessions: 40 of the 500 min_sessions"), "\(first.stderr)")
        #expect(first.stderr.contains("GET /api/0/organizations/example/sessions/?field=crash_free_rate(session)"), "\(first.stderr)")
        let report = try String(contentsOfFile: directory + "/first.json", encoding: .utf8)
        #expect(report.contains(#""decision" : "wait""#) || report.contains(#""decision":"wait""#), "\(report)")

        let second = try ReleaseBinary.run(arguments, in: directory)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.contains("phased release of version 1.4.0: ACTIVE → PAUSED"), "\(second.stderr)")
        #expect(second.stderr.contains("decision: pause: crash-free sessions 98.70% is 0.80 points below the minimum 99.50%"))
        #expect(second.stderr.contains("told Slack: com.example.demo 1.4.0: phased release paused"))

        let third = try ReleaseBinary.run(arguments, in: directory)
        #expect(third.status == 0, "\(third.stderr)")
        #expect(third.stderr.contains("decision: none: still unhealthy, the phased release stays paused"), "\(third.stderr)")
        #expect(!third.stderr.contains("ACTIVE → PAUSED"))

        // The note on the tag holds the three checks, newest last.
        let notes = Process()
        let pipe = Pipe()
        notes.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        notes.arguments = ["git", "notes", "--ref", "release-rollout", "show", "v1.4.0-42^{commit}"]
        notes.currentDirectoryURL = URL(fileURLWithPath: directory)
        notes.standardOutput = pipe
        try notes.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        notes.waitUntilExit()
        #expect(notes.terminationStatus == 0)
        let decisions = text.components(separatedBy: "\"decision\" : \"").dropFirst().map { $0.prefix { $0 != "\"" } }
        #expect(decisions == ["wait", "pause", "none"], "\(text)")
        #expect(text.contains("\"paused_by_guard\" : true"))
    }

    /// A real (not rehearsed) run against local servers named by the environment, as a scheduled job would.
    struct Services {
        static let keyID = "GUARD12345"
        static let issuer = "57246542-96fe-1a63-e053-0824d011072a"
        var directory: String
        var appStore: LocalAppStoreConnectServer
        var sentry: LocalSentryServer
        var environment: [String: String]

        init(series: [SentryReleaseHealth]) throws {
            directory = try ReleaseBinary.gitRepository(branch: "main")
            try ReleaseBinary.git(["tag", "v1.4.0-42"], in: directory)
            let pem = P256.Signing.PrivateKey().pemRepresentation
            appStore = try LocalAppStoreConnectServer(
                configuration: .init(
                    storageDirectory: ReleaseBinary.temporaryDirectory(),
                    keys: [
                        .init(
                            keyID: Self.keyID, issuerID: Self.issuer,
                            publicKeyPEM: try AppStoreConnectKey(id: Self.keyID, issuer: Self.issuer, pem: pem).publicKeyPEM)
                    ]))
            appStore.addApp(bundleID: "com.example.demo", name: "Demo")
            appStore.addBuild(bundleID: "com.example.demo", version: "1.4.0", build: "42")
            appStore.setPhasedRelease(bundleID: "com.example.demo", version: "1.4.0", build: "42", state: "ACTIVE", day: 3)
            sentry = try LocalSentryServer(configuration: .init(token: "sntrys-good-token-0123456789", series: series))
            environment = [
                "APP_STORE_CONNECT_API_URL": try appStore.start(), "APP_STORE_CONNECT_KEY_ID": Self.keyID,
                "APP_STORE_CONNECT_ISSUER_ID": Self.issuer, "APP_STORE_CONNECT_KEY": pem,
                "SENTRY_URL": try sentry.start(), "SENTRY_TOKEN": "sntrys-good-token-0123456789",
            ]
            let pipeline = RolloutGuardCommandTests.pipeline
                .replacingOccurrences(of: #""organization": "example""#, with: #""url": "${env.SENTRY_URL}", "organization": "example""#)
                .replacingOccurrences(of: #", "slack": "${secrets.SLACK_WEBHOOK_URL}""#, with: "")
            try pipeline.write(toFile: directory + "/guard.json", atomically: true, encoding: .utf8)
            try pipeline.replacingOccurrences(of: #""min_sessions": 500"#, with: #""min_sessions": 500, "required": true"#)
                .write(toFile: directory + "/required.json", atomically: true, encoding: .utf8)
        }
    }

    @Test func rolloutStatusShowsThePhaseTheNumbersAndTheLastDecision() throws {
        let services = try Services(series: [SentryReleaseHealth(sessions: 1500, crashFreeSessions: 98.7, crashFreeUsers: 99.9)])
        defer {
            services.appStore.stop()
            services.sentry.stop()
        }
        let before = try ReleaseBinary.run(["rollout", "status", "guard.json"], in: services.directory, environment: services.environment)
        #expect(before.status == 0, "\(before.stderr)")
        #expect(before.stderr.contains("rollout guard 'rollout-guard' (com.example.demo 1.4.0)\n  phased release: ACTIVE, day 3 of 7 (5% of users)"))
        #expect(before.stderr.contains("  would decide now: pause: crash-free sessions 98.70% is 0.80 points below the minimum 99.50%"))
        #expect(before.stderr.contains("  last decision: none recorded on tag 'v1.4.0-42'"), "\(before.stderr)")
        #expect(services.appStore.phasedRelease(bundleID: "com.example.demo", version: "1.4.0")?.state == "ACTIVE")

        let run = try ReleaseBinary.run(["run", "guard.json"], in: services.directory, environment: services.environment)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(services.appStore.phasedRelease(bundleID: "com.example.demo", version: "1.4.0")?.state == "PAUSED")
        #expect(!run.stderr.contains("sntrys-good-token-0123456789"))

        let after = try ReleaseBinary.run(["rollout", "status", "guard.json", "--json"], in: services.directory, environment: services.environment)
        #expect(after.status == 0, "\(after.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(after.stdout.utf8)) as? [String: Any])
        let entry = try #require((object["guards"] as? [[String: Any]])?.first)
        #expect(entry["phased_state"] as? String == "PAUSED")
        #expect((entry["last_decision"] as? [String: Any])?["decision"] as? String == "pause")
        #expect((entry["would_decide"] as? [String: Any])?["decision"] as? String == "none")
        #expect(((entry["health"] as? [String: Any])?["sentry"] as? [String: Any])?["sessions"] as? Int == 1500)
    }

    @Test func anUnreachableSourceWarnsAndExitsZeroUnlessRequiredAndARefusedTokenNamesTheSetting() throws {
        let services = try Services(series: [SentryReleaseHealth(sessions: 1500, crashFreeSessions: 98.7, crashFreeUsers: 99.9)])
        defer {
            services.appStore.stop()
            services.sentry.stop()
        }
        services.sentry.setUnavailable(true)
        let warned = try ReleaseBinary.run(["run", "guard.json"], in: services.directory, environment: services.environment)
        #expect(warned.status == 0, "\(warned.stderr)")
        #expect(warned.stderr.contains("Sentry cannot be reached"), "\(warned.stderr)")
        #expect(warned.stderr.contains("no decision this time (set 'required: true' to fail instead)"))
        let required = try ReleaseBinary.run(["run", "required.json"], in: services.directory, environment: services.environment)
        #expect(required.status == 1, "\(required.stderr)")
        #expect(required.stderr.contains("(the guard is 'required')"), "\(required.stderr)")
        services.sentry.setUnavailable(false)

        var wrong = services.environment
        wrong["SENTRY_TOKEN"] = "sntrys-wrong-token-0000000000"
        let refused = try ReleaseBinary.run(["run", "guard.json"], in: services.directory, environment: wrong)
        #expect(refused.status == 1, "\(refused.stderr)")
        #expect(refused.stderr.contains("sentry.token"), "\(refused.stderr)")
        #expect(refused.stderr.contains("Sentry refused the token (HTTP 401): 'Invalid token'"))
        #expect(!refused.stderr.contains("sntrys-wrong-token-0000000000"))
        #expect(services.appStore.phasedRelease(bundleID: "com.example.demo", version: "1.4.0")?.state == "ACTIVE")
    }
}

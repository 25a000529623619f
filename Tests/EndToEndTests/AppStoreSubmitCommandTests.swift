import Crypto
import Foundation
import Rehearsal
import ReleaseAppStoreConnect
import Testing

/// `appstore.submit` and `appstore.rollout` through `release run`, against a local App Store Connect: the first run
/// creates the version (What's New from `whats_new` and from fastlane's release_notes.txt), attaches the build, creates
/// the phased release and submits; a re-run sends no write; a rejection fails with what to do; `cancel_open_submission`
/// submits again; after approval the rollout pauses, resumes and completes, each converging. The key and its tokens
/// appear in no output.
@Suite("appstore.submit and appstore.rollout (end to end)", .serialized)
struct AppStoreSubmitCommandTests {
    static let issuer = "57246542-96fe-1a63-e053-0824d011072a"
    static let keyID = "SUBMIT1234"
    static let bundleID = "com.example.demo"

    struct Setup {
        var directory: String
        var server: LocalAppStoreConnectServer
        var environment: [String: String]
        var pem: String

        /// `METHOD path` of the writes the server received since the last clear.
        var writes: [String] {
            server.exchanges().filter { $0.method != "GET" }.map { exchange in
                let path = String(exchange.target.split(separator: "?").first ?? "")
                return exchange.method + " " + path.replacingOccurrences(of: #"/[0-9a-f-]{36}"#, with: "/{id}", options: .regularExpression)
            }
        }

        func run(_ pipeline: String) throws -> ReleaseBinary.Outcome {
            server.clearExchanges()
            let outcome = try ReleaseBinary.run(["run", pipeline], in: directory, environment: environment)
            // The key's body lines and any JWT ("eyJ" is base64url for '{"') appear in no output.
            for line in pem.split(separator: "\n") where !line.hasPrefix("-----") {
                #expect(!outcome.stdout.contains(line) && !outcome.stderr.contains(line), "the key was printed")
            }
            #expect(!outcome.stderr.contains("eyJ") && !outcome.stdout.contains("eyJ"), "a token was printed")
            return outcome
        }
    }

    static func step(_ uses: String, _ with: String) -> String {
        """
        {"version": 1, "name": "store", "steps": [{"id": "store", "uses": "\(uses)", "with": {\(with),
          "bundle_id": "\(bundleID)", "version": "1.4.0",
          "key_id": "${env.APP_STORE_CONNECT_KEY_ID}", "issuer_id": "${env.APP_STORE_CONNECT_ISSUER_ID}", "key": "${secrets.APP_STORE_CONNECT_KEY}"}}]}
        """
    }

    static func setup() throws -> Setup {
        let directory = try ReleaseBinary.gitRepository(branch: "release/1.4.0")
        let pem = P256.Signing.PrivateKey().pemRepresentation
        let server = try LocalAppStoreConnectServer(
            configuration: .init(
                storageDirectory: ReleaseBinary.temporaryDirectory(),
                keys: [.init(keyID: keyID, issuerID: issuer, publicKeyPEM: try AppStoreConnectKey(id: keyID, issuer: issuer, pem: pem).publicKeyPEM)],
                processingPolls: 0))
        server.addApp(bundleID: bundleID, name: "Demo")
        server.addBuild(bundleID: bundleID, version: "1.4.0", build: "42")
        let environment = [
            "APP_STORE_CONNECT_API_URL": try server.start(), "APP_STORE_CONNECT_KEY_ID": keyID,
            "APP_STORE_CONNECT_ISSUER_ID": issuer, "APP_STORE_CONNECT_KEY": pem,
        ]
        try FileManager.default.createDirectory(atPath: directory + "/fastlane/metadata/de-DE", withIntermediateDirectories: true)
        try "Behebt den Absturz beim Anmelden\n".write(toFile: directory + "/fastlane/metadata/de-DE/release_notes.txt", atomically: true, encoding: .utf8)
        let submit = #""build": "42", "whats_new": {"en-US": "Fixes the login crash"}, "phased": true, "poll_interval": 0"#
        try step("appstore.submit", submit).write(toFile: directory + "/submit.json", atomically: true, encoding: .utf8)
        try step("appstore.submit", submit + #", "cancel_open_submission": true"#).write(toFile: directory + "/resubmit.json", atomically: true, encoding: .utf8)
        for action in ["pause", "resume", "complete", "status"] {
            try step("appstore.rollout", #""action": "\#(action)""#).write(toFile: directory + "/\(action).json", atomically: true, encoding: .utf8)
        }
        return Setup(directory: directory, server: server, environment: environment, pem: pem)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: ReleaseBinary.path)))
    func submitsConvergesExplainsARejectionAndRollsOut() throws {
        let setup = try Self.setup()
        defer { setup.server.stop() }

        let first = try setup.run("submit.json")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(setup.writes.count == 8, "\(setup.writes)")
        let summary = setup.server.summary()
        #expect(summary.contains("app store version com.example.demo 1.4.0 IOS WAITING_FOR_REVIEW  build 1.4.0 (42)  release AFTER_APPROVAL  phased INACTIVE"))
        #expect(summary.contains(#"what's new de-DE for 1.4.0: "Behebt den Absturz beim Anmelden""#), "from fastlane's release_notes.txt")
        #expect(summary.contains(#"what's new en-US for 1.4.0: "Fixes the login crash""#))
        #expect(first.stderr.contains("store │ App Store version 1.4.0 is WAITING_FOR_REVIEW"), "\(first.stderr)")

        let second = try setup.run("submit.json")
        #expect(second.status == 0, "\(second.stderr)")
        #expect(setup.writes == [], "a re-run changes nothing")
        #expect(second.stderr.contains("already submitted; nothing to change"))

        // App Review rejects it: the run says what is open and what to do, and changes nothing.
        #expect(setup.server.finishReview(bundleID: Self.bundleID, version: "1.4.0", approved: false))
        let rejected = try setup.run("submit.json")
        #expect(rejected.status == 1)
        #expect(rejected.stderr.contains("with unresolved issues (UNRESOLVED_ISSUES): version 1.4.0 (REJECTED)"), "\(rejected.stderr)")
        #expect(rejected.stderr.contains("'cancel_open_submission: true'"))
        #expect(setup.writes == [])

        let resubmitted = try setup.run("resubmit.json")
        #expect(resubmitted.status == 0, "\(resubmitted.stderr)")
        let resubmitWrites = setup.writes
        #expect(
            resubmitWrites == [
                "PATCH /v1/reviewSubmissions/{id}", "POST /v1/reviewSubmissions", "POST /v1/reviewSubmissionItems", "PATCH /v1/reviewSubmissions/{id}",
            ])
        #expect(setup.server.summary().contains { $0.hasPrefix("review submission IOS COMPLETE (canceled)") })
        #expect(setup.server.summary().contains("review submission IOS WAITING_FOR_REVIEW: 1.4.0"))

        // Approved and released with its phased release: pause, resume, complete, each a second time without a write.
        #expect(setup.server.finishReview(bundleID: Self.bundleID, version: "1.4.0", approved: true))
        for (action, state) in [("pause", "PAUSED"), ("resume", "ACTIVE"), ("complete", "COMPLETE")] {
            let changed = try setup.run("\(action).json")
            #expect(changed.status == 0, "\(changed.stderr)")
            let writes = setup.writes
            #expect(writes == ["PATCH /v1/appStoreVersionPhasedReleases/{id}"], "\(action)")
            #expect(changed.stderr.contains("phased release \(state)"), "\(changed.stderr)")
            let again = try setup.run("\(action).json")
            #expect(again.status == 0 && setup.writes == [], "\(action) again: \(setup.writes)")
            #expect(again.stderr.contains("nothing to change"))
        }
        let status = try setup.run("status.json")
        #expect(status.status == 0 && setup.writes == [])
        #expect(status.stderr.contains("store │ version 1.4.0 is READY_FOR_SALE; phased release COMPLETE, day 7 of 7"), "\(status.stderr)")
    }
}

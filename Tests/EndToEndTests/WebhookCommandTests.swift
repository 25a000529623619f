import Crypto
import Foundation
import Rehearsal
import ReleaseAppStoreConnect
import ReleaseSupport
import Testing

/// `release webhook create`, `release webhook` and `release report --cost` through the binary: the app's webhook is
/// created on a local App Store Connect (once, however often the command runs), a release's submission and App
/// Review send it signed deliveries, `release webhook` verifies one and names the ref to resume; a wrong signature
/// exits 1, prints nothing for programs to act on and changes nothing; the run's report prices its minutes.
@Suite("release webhook and release report (end to end)", .serialized)
struct WebhookCommandTests {
    static let secret = "s3cret-for-webhooks"

    @Test func aCreatedWebhookGetsSignedDeliveriesThatTheCommandVerifies() throws {
        let setup = try AppStoreSubmitCommandTests.setup()
        let receiver = RecordingServer()
        let hook = try receiver.start() + "/asc"
        defer { receiver.stop() }

        let create = ["webhook", "create", "--url", hook, "--secret", Self.secret, "--bundle-id", AppStoreSubmitCommandTests.bundleID]
        let created = try ReleaseBinary.run(create + ["--json"], in: setup.directory, environment: setup.environment)
        #expect(created.status == 0, "\(created.stderr)")
        let first = try #require(try JSONSerialization.jsonObject(with: Data(created.stdout.utf8)) as? [String: Any])
        #expect(first["created"] as? Bool == true)
        let again = try ReleaseBinary.run(create, in: setup.directory, environment: setup.environment)
        #expect(again.status == 0 && again.stderr.hasPrefix("updated webhook \(first["webhook_id"] as? String ?? "?")"), "\(again.stderr)")
        #expect(!created.stderr.contains(Self.secret) && !again.stderr.contains(Self.secret))
        let missingKey = try ReleaseBinary.run(create, in: setup.directory, environment: ["APP_STORE_CONNECT_KEY": ""])
        #expect(missingKey.status == 64 && missingKey.stderr.contains("set APP_STORE_CONNECT_KEY"), "\(missingKey.stderr)")

        // The submission moves the version to WAITING_FOR_REVIEW; App Review approves it.
        let submitted = try setup.run("submit.json")
        #expect(submitted.status == 0, "\(submitted.stderr)")
        #expect(setup.server.finishReview(bundleID: AppStoreSubmitCommandTests.bundleID, version: "1.4.0", approved: true))
        _ = try setup.run("status.json")  // any request sends what is queued
        let posts = receiver.requests.filter { $0.method == "POST" && $0.path == "/asc" }
        #expect(posts.count == 2)
        let last = try #require(posts.last)
        let body = setup.directory + "/delivery.json"
        try Data(try #require(last.body)).write(to: URL(fileURLWithPath: body))
        let signature = try #require(last.header("x-apple-signature"))

        let verified = try ReleaseBinary.run(
            ["webhook", "--secret", Self.secret, "--signature", signature, "--json"], in: setup.directory, environment: setup.environment, input: body)
        #expect(verified.status == 0, "\(verified.stderr)")
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(verified.stdout.utf8)) as? [String: Any])
        #expect(answer["event"] as? String == "APP_STORE_VERSION_APP_VERSION_STATE_UPDATED")
        #expect(answer["new_state"] as? String == "READY_FOR_DISTRIBUTION" && answer["resume"] as? Bool == true)
        #expect(answer["version"] as? String == "1.4.0" && answer["ref"] as? String == "release/1.4.0")
        let human = try ReleaseBinary.run(
            ["webhook", "--secret", Self.secret], in: setup.directory, environment: ["HTTP_X_APPLE_SIGNATURE": signature], input: body)
        #expect(human.status == 0 && human.stderr.contains("state: WAITING_FOR_REVIEW -> READY_FOR_DISTRIBUTION"), "\(human.stderr)")

        // A wrong signature: exit 1, a message without the secret, nothing asked of App Store Connect.
        setup.server.clearExchanges()
        let wrong = WebhookSignature.sign(try Data(contentsOf: URL(fileURLWithPath: body)), secret: "guessed")
        let refused = try ReleaseBinary.run(
            ["webhook", "--secret", Self.secret, "--signature", wrong, "--json"], in: setup.directory, environment: setup.environment, input: body)
        #expect(refused.status == 1)
        #expect(refused.stderr == "error: the signature does not match the body under the secret (HMAC-SHA256 of the raw body): the delivery was refused\n")
        #expect(!refused.stdout.contains(Self.secret) && refused.stdout.contains(#""verified" : false"#), "\(refused.stdout)")
        #expect(setup.server.exchanges().isEmpty)
        let unsigned = try ReleaseBinary.run(["webhook", "--secret", Self.secret], in: setup.directory, input: body)
        #expect(unsigned.status == 64 && unsigned.stderr.contains("--signature"), "\(unsigned.stderr)")
    }

    @Test func aRunReportIsPricedByRunnerKind() throws {
        let directory = ReleaseBinary.temporaryDirectory()
        try #"{"version": 1, "name": "quick", "steps": [{"id": "a", "uses": "shell", "with": {"run": ["true"]}}]}"#
            .write(toFile: directory + "/p.json", atomically: true, encoding: .utf8)
        let run = try ReleaseBinary.run(["run", "p.json", "--report", "report.json"], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/report.json"))) as? [String: Any])
        #expect(report["runner"] as? String == Platform.systemKind)
        #expect((report["steps"] as? [[String: Any]])?.first?["runner"] as? String == Platform.systemKind)

        let priced = try ReleaseBinary.run(["report", "--cost", "report.json", "--price", "linux=0.01", "--json"], in: directory)
        #expect(priced.status == 0, "\(priced.stderr)")
        let cost = try #require(try JSONSerialization.jsonObject(with: Data(priced.stdout.utf8)) as? [String: Any])
        let runner = try #require((cost["runners"] as? [String: Any])?[Platform.systemKind] as? [String: Any])
        #expect(runner["minutes"] as? Int == 1 && runner["jobs"] as? Int == 1)

        try #"{"runner": "macos", "steps": []}"#.write(toFile: directory + "/old.json", atomically: true, encoding: .utf8)
        let bad = try ReleaseBinary.run(["report", "--cost", "report.json", "old.json"], in: directory)
        #expect(bad.status == 1 && bad.stderr == "error: old.json: $.duration: missing\n", "\(bad.stderr)")
        let noCost = try ReleaseBinary.run(["report", "report.json"], in: directory)
        #expect(noCost.status == 64 && noCost.stderr.contains("--cost"), "\(noCost.stderr)")
        let badPrice = try ReleaseBinary.run(["report", "--cost", "report.json", "--price", "macos"], in: directory)
        #expect(badPrice.status == 64 && badPrice.stderr.contains("KIND=USD_PER_MINUTE"), "\(badPrice.stderr)")
    }
}

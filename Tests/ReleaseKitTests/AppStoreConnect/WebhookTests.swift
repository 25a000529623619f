import Crypto
import Foundation
import Rehearsal
import Testing

@testable import ReleaseAppStoreConnect
@testable import ReleaseSupport

/// `release webhook`: the signature check, the delivery's body read defensively, what to resume, and the stand-in's
/// webhooks and signed deliveries.
struct WebhookTests {
    static let secret = "my_secret_string"
    static let body = Data(
        #"{"data":{"type":"buildUploadStateUpdated","id":"a1b2","version":1,"attributes":{"oldState":"PROCESSING","newState":"COMPLETE","timestamp":"2026-12-06T07:00:00Z"},"relationships":{"instance":{"data":{"type":"buildUploads","id":"f00d-1"}}}}}"#
            .utf8)

    // MARK: Signature

    @Test func theSignatureIsHMACSHA256OfTheBodyInEveryAcceptedSpelling() throws {
        // RFC 4231-style check against a known vector: HMAC-SHA256("key", "The quick brown fox jumps over the lazy dog").
        let fox = Data("The quick brown fox jumps over the lazy dog".utf8)
        let known = "f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8"
        #expect(WebhookSignature.sign(fox, secret: "key") == "hmacsha256=" + known)
        for spelling in [
            "hmacsha256=" + known, "HMACSHA256=" + known, "sha256=" + known, known, known.uppercased(),
            Data(try #require(WebhookSignature.digest(in: known))).base64EncodedString(), " hmacsha256=\(known) ",
        ] {
            #expect(WebhookSignature.isValid(spelling, body: fox, secret: "key"), "\(spelling)")
        }
    }

    @Test func aWrongSecretAChangedBodyOrGarbageIsRefused() {
        let signature = WebhookSignature.sign(Self.body, secret: Self.secret)
        #expect(WebhookSignature.isValid(signature, body: Self.body, secret: Self.secret))
        #expect(!WebhookSignature.isValid(signature, body: Self.body, secret: Self.secret + "x"))
        var changed = Self.body
        changed[changed.count - 3] ^= 0x01
        #expect(!WebhookSignature.isValid(signature, body: changed, secret: Self.secret))
        #expect(!WebhookSignature.isValid(signature, body: Self.body, secret: ""))
        for garbage in ["", "hmacsha256=", "hmacsha256=zz", String(signature.dropLast()), "sha1=" + String(repeating: "0", count: 40), String(repeating: "a", count: 500)] {
            #expect(!WebhookSignature.isValid(garbage, body: Self.body, secret: Self.secret), "\(garbage)")
        }
    }

    // MARK: The body

    @Test func aDeliveryIsReadIntoItsEventResourceAndStates() throws {
        let delivery = try WebhookDelivery(parsing: Self.body)
        #expect(
            delivery
                == WebhookDelivery(
                    eventType: "BUILD_UPLOAD_STATE_UPDATED", id: "a1b2", instanceType: "buildUploads", instanceID: "f00d-1", oldState: "PROCESSING",
                    newState: "COMPLETE", timestamp: "2026-12-06T07:00:00Z"))
        #expect(WebhookDelivery.eventType("appStoreVersionAppVersionStateUpdated") == "APP_STORE_VERSION_APP_VERSION_STATE_UPDATED")
        #expect(WebhookDelivery.eventType("webhookPingCreated") == "WEBHOOK_PING_CREATED")
        #expect(WebhookDelivery.eventType("BUILD_UPLOAD_STATE_UPDATED") == "BUILD_UPLOAD_STATE_UPDATED")
        // Brackets inside strings (escaped quotes too) do not count toward the nesting bound.
        #expect(JSONDepth.deepest(in: Data(#"{"a": "[[[\"{{", "b": [[1]]}"#.utf8)) == 3)
        #expect(JSONDepth.deepest(in: Data("7".utf8)) == 0)
        let values = try WebhookDelivery(
            parsing: Data(#"{"data":{"type":"appStoreVersionAppVersionStateUpdated","attributes":{"oldValue":"IN_REVIEW","newValue":"ACCEPTED"}}}"#.utf8))
        #expect(values.oldState == "IN_REVIEW" && values.newState == "ACCEPTED" && values.instanceID == nil)
    }

    @Test(arguments: [
        (#"[]"#, "$: not a JSON object"),
        (#"nope"#, "$: not JSON"),
        (#"{}"#, "data: missing"),
        (#"{"data": []}"#, "data: not an object"),
        (#"{"data": {}}"#, "data.type: missing"),
        (#"{"data": {"type": 7}}"#, "data.type: not a string"),
        (#"{"data": {"type": "x; rm -rf /"}}"#, "data.type: not an identifier (letters, digits, '-', '_', '.'; at most 64)"),
        (
            #"{"data": {"type": "a", "relationships": {"instance": {"data": {"type": "builds", "id": "../../v1/apps"}}}}}"#,
            "data.relationships.instance.data.id: not an identifier (letters, digits, '-', '_', '.'; at most 64)"
        ),
        (#"{"data": {"type": "a", "attributes": {"newState": "A\u001b[2J"}}}"#, "data.attributes.newState: not a short printable string"),
        (String(repeating: "[", count: 40) + String(repeating: "]", count: 40), "$: nested deeper than 16 levels"),
    ])
    func aBodyThatIsNotADeliveryIsRefusedAtItsPath(text: String, message: String) {
        #expect(throws: WebhookError.self) { try WebhookDelivery(parsing: Data(text.utf8)) }
        do {
            _ = try WebhookDelivery(parsing: Data(text.utf8))
        } catch {
            #expect("\(error)" == "the delivery's body, at \(message)")
        }
    }

    @Test func aBodyLargerThanAnyDeliveryIsRefusedBeforeItsSignatureIsChecked() async throws {
        let large = Data(repeating: 0x20, count: WebhookDelivery.maxBodySize + 1)
        await #expect(throws: WebhookError.tooLarge(limit: WebhookDelivery.maxBodySize)) {
            try await WebhookReceiver.receive(body: large, signature: WebhookSignature.sign(large, secret: Self.secret), secret: Self.secret, environment: [:])
        }
    }

    // MARK: Receiving

    @Test func aGoodSignatureVerifiesAndSaysWhatToResume() async throws {
        let signature = WebhookSignature.sign(Self.body, secret: Self.secret)
        let resume = try await WebhookReceiver.receive(body: Self.body, signature: signature, secret: Self.secret, environment: [:])
        #expect(resume.resumes && resume.delivery.eventType == "BUILD_UPLOAD_STATE_UPDATED" && resume.ref == nil)
        #expect(
            resume.text == """
                verified: BUILD_UPLOAD_STATE_UPDATED (a1b2)
                resource: buildUploads f00d-1
                state: PROCESSING -> COMPLETE
                the build upload is COMPLETE: resume the release
                resume: run the release pipeline again on every open release/* branch (set APP_STORE_CONNECT_KEY_ID, APP_STORE_CONNECT_ISSUER_ID and APP_STORE_CONNECT_KEY to name the one)

                """)
        // From the environment, as a CGI relay passes them.
        let fromEnvironment = try await WebhookReceiver.receive(
            body: Self.body, signature: nil, secret: nil,
            environment: ["HTTP_X_APPLE_SIGNATURE": signature, "APP_STORE_CONNECT_WEBHOOK_SECRET": Self.secret])
        #expect(fromEnvironment == resume)
    }

    @Test func aWrongSignatureIsRefusedWithoutTheSecretInTheMessage() async throws {
        let wrong = WebhookSignature.sign(Self.body, secret: "another secret")
        do {
            _ = try await WebhookReceiver.receive(body: Self.body, signature: wrong, secret: Self.secret, environment: [:])
            Issue.record("a wrong signature verified")
        } catch let error as WebhookError {
            #expect(error == .badSignature)
            #expect(!error.description.contains(Self.secret))
        }
        await #expect(throws: WebhookError.noSecret) { try await WebhookReceiver.receive(body: Self.body, signature: wrong, secret: "", environment: [:]) }
        await #expect(throws: WebhookError.noSignature) { try await WebhookReceiver.receive(body: Self.body, signature: nil, secret: Self.secret, environment: [:]) }
    }

    @Test func onlyTheStatesARunWaitsOnResumeIt() {
        func resume(_ event: String, _ state: String?) -> Bool {
            WebhookResume(delivery: WebhookDelivery(eventType: event, newState: state)).resumes
        }
        #expect(resume("BUILD_UPLOAD_STATE_UPDATED", "COMPLETE"))
        #expect(resume("BUILD_UPLOAD_STATE_UPDATED", "FAILED"))
        #expect(!resume("BUILD_UPLOAD_STATE_UPDATED", "PROCESSING"))
        #expect(resume("APP_STORE_VERSION_APP_VERSION_STATE_UPDATED", "READY_FOR_DISTRIBUTION"))
        #expect(resume("APP_STORE_VERSION_APP_VERSION_STATE_UPDATED", "REJECTED"))
        #expect(!resume("APP_STORE_VERSION_APP_VERSION_STATE_UPDATED", "WAITING_FOR_REVIEW"))
        #expect(!resume("BETA_FEEDBACK_CRASH_SUBMISSION_CREATED", nil))
        #expect(!resume("WEBHOOK_PING_CREATED", nil))
    }

    @Test func registrationRefusesAnUnknownEventTypeOrURL() throws {
        let request = WebhookRegistration.Request(bundleID: "a", url: "https://example.com/hook", secret: "s", name: "release", eventTypes: ["BUILD_DONE"])
        #expect(throws: WebhookError.self) { try WebhookRegistration.check(request) }
        var noURL = request
        noURL.eventTypes = ["BUILD_UPLOAD_STATE_UPDATED"]
        noURL.url = "ftp://x"
        #expect(throws: WebhookError.create("--url 'ftp://x' is not an http(s) URL with a host")) { try WebhookRegistration.check(noURL) }
    }

    // MARK: The stand-in

    @Test func aCreatedWebhookReceivesSignedDeliveriesThatVerify() async throws {
        let fixture = try AppStoreConnectTestFixture(processingPolls: 0)
        let receiver = RecordingServer()
        let receiverURL = try receiver.start()
        defer { receiver.stop() }
        let appID = fixture.server.addApp(bundleID: AppStoreConnectTestFixture.bundleID, name: "Demo")
        let client = try fixture.client()
        let registration = WebhookRegistration(client: client)
        let request = WebhookRegistration.Request(
            bundleID: AppStoreConnectTestFixture.bundleID, url: receiverURL + "/hook", secret: Self.secret, name: "release",
            eventTypes: WebhookResume.releaseEventTypes)
        let outcome = try await registration.register(request)
        #expect(outcome.created && outcome.appID == appID)
        // Registering again converges on the same webhook (updated, not doubled).
        let again = try await registration.register(request)
        #expect(!again.created && again.webhookID == outcome.webhookID)
        let listed = try await client.resources(WebhookRegistration.Attributes.self, "/v1/apps/\(appID)/webhooks")
        #expect(listed.map(\.id) == [outcome.webhookID] && listed.first?.attributes?.url == receiverURL + "/hook")
        // The answers never carry the secret.
        #expect(!fixture.server.exchanges().contains { String(decoding: $0.responseBody ?? Data(), as: UTF8.self).contains(Self.secret) })

        // A build upload goes AWAITING_UPLOAD → PROCESSING → COMPLETE: two deliveries.
        let path = try fixture.file(size: 1500)
        let (uploadID, file) = try await fixture.reserve(appID: appID, version: "1.4.0", build: "42", path: path)
        _ = try await fixture.sendParts(file, from: path)
        let fileID = try #require((file["data"] as? [String: Any])?["id"] as? String)
        let sha256 = try await FileDigest.sha256(ofFile: path).hex
        _ = try await client.send("PATCH", "/v1/buildUploadFiles/\(fileID)", json: fixture.commitBody(fileID, hash: sha256))
        _ = try await client.send("GET", "/v1/buildUploads/\(uploadID)")

        let deliveries = fixture.server.webhookDeliveries()
        #expect(deliveries.map(\.eventType) == ["BUILD_UPLOAD_STATE_UPDATED", "BUILD_UPLOAD_STATE_UPDATED"])
        #expect(deliveries.allSatisfy { $0.status == 200 })
        let posts = receiver.requests.filter { $0.method == "POST" && $0.path == "/hook" }
        #expect(posts.count == 2)
        let last = try #require(posts.last)
        let body = Data(try #require(last.body))
        let signature = try #require(last.header("x-apple-signature"))
        #expect(signature.hasPrefix("hmacsha256=") && signature == deliveries.last?.signature)

        let resume = try await WebhookReceiver.receive(body: body, signature: signature, secret: Self.secret, environment: [:])
        #expect(resume.delivery.instanceID == uploadID && resume.delivery.oldState == "PROCESSING" && resume.delivery.newState == "COMPLETE")
        let resolved = await WebhookResume.resolve(resume.delivery, client: client)
        #expect(resolved.version == "1.4.0" && resolved.build == "42" && resolved.ref == "release/1.4.0" && resolved.resumes)
        #expect(resolved.json["ref"] as? String == "release/1.4.0")
        // A resource the key cannot read leaves the version unknown and says why.
        var unknown = resume.delivery
        unknown.instanceID = "no-such-upload"
        let unread = await WebhookResume.resolve(unknown, client: client)
        #expect(unread.version == nil && unread.ref == nil && unread.resumes)
        #expect(unread.lookupProblem?.hasPrefix("could not read buildUploads no-such-upload: ") == true, "\(unread.lookupProblem ?? "")")
        #expect(unread.text.contains("note: could not read buildUploads no-such-upload"))

        // What a rehearsal prints: the webhook and its deliveries, never the secret.
        let summary = fixture.server.summary()
        #expect(summary.contains("webhook \(AppStoreConnectTestFixture.bundleID) \(receiverURL)/hook: 2 deliveries since start, 2 answered 2xx"), "\(summary)")
        #expect(!summary.joined().contains(Self.secret))

        // Every request and answer, webhooks included, in the contract's shapes.
        fixture.expectContract()

        // The build Apple made of the upload finishes processing: its external TestFlight state changes too.
        let buildIDs = fixture.server.exchanges().compactMap { exchange -> String? in
            guard exchange.target == "/v1/buildUploads/\(uploadID)", let body = exchange.responseBody,
                let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
                let data = object["data"] as? [String: Any], let relationships = data["relationships"] as? [String: Any],
                let build = (relationships["build"] as? [String: Any])?["data"] as? [String: Any]
            else { return nil }
            return build["id"] as? String
        }
        let buildID = try #require(buildIDs.last)
        _ = try await client.send("GET", "/v1/builds/\(buildID)")
        let beta = try #require(fixture.server.webhookDeliveries().last)
        #expect(beta.eventType == "BUILD_BETA_DETAIL_EXTERNAL_BUILD_STATE_UPDATED")
        let betaResume = try await WebhookReceiver.receive(body: beta.body, signature: beta.signature, secret: Self.secret, environment: [:])
        #expect(betaResume.delivery.instanceType == "buildBetaDetails" && betaResume.delivery.oldState == "PROCESSING")
        #expect(betaResume.delivery.newState == "MISSING_EXPORT_COMPLIANCE" && betaResume.resumes)

        // A wrong secret does not verify the same delivery.
        await #expect(throws: WebhookError.badSignature) {
            try await WebhookReceiver.receive(body: body, signature: signature, secret: "guess", environment: [:])
        }
    }

    @Test func aVersionStateChangeIsDeliveredWithItsVersionAndApp() async throws {
        let fixture = try AppStoreConnectTestFixture()
        let receiver = RecordingServer()
        let receiverURL = try receiver.start()
        defer { receiver.stop() }
        let appID = fixture.server.addApp(bundleID: AppStoreConnectTestFixture.bundleID, name: "Demo")
        let client = try fixture.client()
        _ = try await WebhookRegistration(client: client).register(
            .init(
                bundleID: AppStoreConnectTestFixture.bundleID, url: receiverURL + "/v", secret: Self.secret, name: "release",
                eventTypes: ["APP_STORE_VERSION_APP_VERSION_STATE_UPDATED"]))
        let versionID = fixture.server.addAppStoreVersion(bundleID: AppStoreConnectTestFixture.bundleID, version: "2.0.0", state: "WAITING_FOR_REVIEW")
        #expect(fixture.server.finishReview(bundleID: AppStoreConnectTestFixture.bundleID, version: "2.0.0", approved: true))
        await fixture.server.deliverWebhooks()
        let post = try #require(receiver.requests.first { $0.path == "/v" })
        let resume = try await WebhookReceiver.receive(
            body: Data(try #require(post.body)), signature: post.header("x-apple-signature"), secret: Self.secret, environment: [:])
        #expect(resume.delivery.eventType == "APP_STORE_VERSION_APP_VERSION_STATE_UPDATED" && resume.delivery.instanceID == versionID)
        #expect(resume.delivery.oldState == "WAITING_FOR_REVIEW" && resume.delivery.newState == "READY_FOR_DISTRIBUTION" && resume.resumes)
        let resolved = await WebhookResume.resolve(resume.delivery, client: client)
        #expect(resolved.appID == appID && resolved.version == "2.0.0" && resolved.ref == "release/2.0.0")
        fixture.expectContract()
    }
}

import Foundation
import ReleaseAppStoreConnect
import ReleaseHTTP

/// Webhooks: an app's webhooks (`GET /v1/apps/{id}/webhooks`, `POST /v1/webhooks`, `GET`/`PATCH`/`DELETE
/// /v1/webhooks/{id}`, with the contract's `WebhookCreateRequest` and `WebhookUpdateRequest`), and the deliveries
/// App Store Connect sends them.
///
/// When a build upload's state, a build's external TestFlight state or an App Store version's `appVersionState`
/// changes (any change ``mutate(_:)`` makes), each enabled webhook of the app that asked for
/// `BUILD_UPLOAD_STATE_UPDATED`, `BUILD_BETA_DETAIL_EXTERNAL_BUILD_STATE_UPDATED` or
/// `APP_STORE_VERSION_APP_VERSION_STATE_UPDATED` gets a POST of the notification document with
/// `x-apple-signature: hmacsha256=<hex>` (``WebhookSignature/sign(_:secret:)``). Deliveries go out after the request
/// that caused them is handled and before it is answered (seeding calls such as ``finishReview(bundleID:version:platform:approved:)``
/// queue theirs for ``deliverWebhooks()``), and only to the loopback: a rehearsal never leaves the machine.
extension LocalAppStoreConnectServer {
    static let webhookEventTypes = WebhookRegistration.eventTypes.sorted()

    func handleWebhooks(_ request: APIRequest) throws -> Reply {
        switch request.operation {
        case .appWebhooks: return try listWebhooks(request)
        case .webhooksCreate: return try createWebhook(request)
        case .webhooksGet: return try instance(request, "webhooks", \.webhooks, id: \.id, render: webhookJSON)
        case .webhooksUpdate: return try updateWebhook(request)
        case .webhooksDelete:
            try mutate { state in
                guard let index = state.snapshot.webhooks.firstIndex(where: { $0.id == request.id }) else {
                    throw AppStoreConnectProblem.notFound("webhooks", request.id)
                }
                state.snapshot.webhooks.remove(at: index)
            }
            return Reply(status: 204)
        default: throw AppStoreConnectProblem.unknownPath
        }
    }

    private func listWebhooks(_ request: APIRequest) throws -> Reply {
        let items: [[String: Any]] = try state.withLock { state in
            guard state.snapshot.apps.contains(where: { $0.id == request.id }) else { throw AppStoreConnectProblem.notFound("apps", request.id) }
            return state.snapshot.webhooks.filter { $0.appID == request.id }.map(webhookJSON)
        }
        return page(items, request)
    }

    private func createWebhook(_ request: APIRequest) throws -> Reply {
        let entity = try AppStoreConnectEntity(request.body, type: "webhooks")
        let attributes = try entity.attributes(
            ["name": .string, "url": .string, "secret": .string, "eventTypes": .listOf(Self.webhookEventTypes), "enabled": .boolean],
            required: ["name", "secret", "eventTypes", "url", "enabled"])
        try entity.onlyRelationships(["app"])
        let appID = try entity.relationship("app", type: "apps", required: true) ?? ""
        let url = attributes["url"] as? String ?? ""
        try Self.checkWebhookURL(url)
        try entity.decode(as: request.operation)
        let webhook: [String: Any] = try mutate { state in
            guard state.snapshot.apps.contains(where: { $0.id == appID }) else {
                throw AppStoreConnectProblem.invalidRelationship("/data/relationships/app/data/id", "There is no resource of type 'apps' with id '\(appID)'", status: 422)
            }
            let webhook = AppStoreConnectSnapshot.Webhook(
                id: UUID().uuidString.lowercased(), appID: appID, name: attributes["name"] as? String ?? "", url: url,
                secret: attributes["secret"] as? String ?? "", eventTypes: attributes["eventTypes"] as? [String] ?? [],
                enabled: (attributes["enabled"] as? NSNumber)?.boolValue ?? false)
            state.snapshot.webhooks.append(webhook)
            return webhookJSON(webhook)
        }
        return created(webhook, "webhooks")
    }

    private func updateWebhook(_ request: APIRequest) throws -> Reply {
        let entity = try AppStoreConnectEntity(request.body, type: "webhooks", id: request.id)
        let attributes = try entity.attributes(
            ["name": .string, "url": .string, "secret": .string, "eventTypes": .listOf(Self.webhookEventTypes), "enabled": .boolean],
            nullable: ["name", "url", "secret", "eventTypes", "enabled"])
        if let url = attributes["url"] as? String { try Self.checkWebhookURL(url) }
        try entity.decode(as: request.operation)
        let webhook: [String: Any] = try mutate { state in
            guard let index = state.snapshot.webhooks.firstIndex(where: { $0.id == request.id }) else {
                throw AppStoreConnectProblem.notFound("webhooks", request.id)
            }
            if let name = attributes["name"] as? String { state.snapshot.webhooks[index].name = name }
            if let url = attributes["url"] as? String { state.snapshot.webhooks[index].url = url }
            if let secret = attributes["secret"] as? String { state.snapshot.webhooks[index].secret = secret }
            if let types = attributes["eventTypes"] as? [String] { state.snapshot.webhooks[index].eventTypes = types }
            if let enabled = attributes["enabled"] as? NSNumber { state.snapshot.webhooks[index].enabled = enabled.boolValue }
            return webhookJSON(state.snapshot.webhooks[index])
        }
        return single(webhook, reading: request)
    }

    /// `url` is a `uri` in the contract: an absolute http(s) URL.
    private static func checkWebhookURL(_ url: String) throws {
        guard let components = URLComponents(string: url), ["http", "https"].contains(components.scheme?.lowercased() ?? ""),
            !(components.host ?? "").isEmpty
        else {
            throw AppStoreConnectProblem.invalid("/data/attributes/url", "'\(url)' is not a valid URL")
        }
    }

    /// A `Webhook` document: never the secret.
    func webhookJSON(_ webhook: AppStoreConnectSnapshot.Webhook) -> [String: Any] {
        [
            "type": "webhooks", "id": webhook.id,
            "attributes": ["enabled": webhook.enabled, "eventTypes": webhook.eventTypes, "name": webhook.name, "url": webhook.url] as [String: Any],
            "relationships": ["app": ["data": ["type": "apps", "id": webhook.appID]]],
            "links": ["self": resourceURL("webhooks", webhook.id)],
        ]
    }

    // MARK: Deliveries

    /// What a change is measured against: `type/id` → (app, state) of every build upload and App Store version.
    static func watchedStates(_ snapshot: AppStoreConnectSnapshot) -> [String: (appID: String, state: String)] {
        guard !snapshot.webhooks.isEmpty else { return [:] }
        var states: [String: (appID: String, state: String)] = [:]
        for upload in snapshot.buildUploads { states["buildUploads/" + upload.id] = (upload.appID, upload.state) }
        for version in snapshot.appStoreVersions {
            states["appStoreVersions/" + version.id] = (version.appID, appVersionState(version.appStoreState) ?? version.appStoreState)
        }
        for build in snapshot.builds {
            guard let detail = snapshot.betaDetails.first(where: { $0.id == build.betaDetailID }) else { continue }
            states["buildBetaDetails/" + detail.id] = (build.appID, detail.externalBuildState)
        }
        return states
    }

    /// Queues a signed delivery per subscribed webhook for each state that differs from `before`.
    func queueDeliveries(since before: [String: (appID: String, state: String)], in state: inout State) {
        guard !state.snapshot.webhooks.isEmpty else { return }
        let after = Self.watchedStates(state.snapshot)
        for key in after.keys.sorted() {
            // A change, not a creation: Apple's events are "state updated".
            guard let now = after[key], let old = before[key]?.state, old != now.state else { continue }
            let parts = key.split(separator: "/", maxSplits: 1).map(String.init)
            let (eventType, type): (String, String)
            switch parts[0] {
            case "buildUploads": (eventType, type) = ("BUILD_UPLOAD_STATE_UPDATED", "buildUploadStateUpdated")
            case "buildBetaDetails":
                (eventType, type) = ("BUILD_BETA_DETAIL_EXTERNAL_BUILD_STATE_UPDATED", "buildBetaDetailExternalBuildStateUpdated")
            default: (eventType, type) = ("APP_STORE_VERSION_APP_VERSION_STATE_UPDATED", "appStoreVersionAppVersionStateUpdated")
            }
            let attributes: [String: Any] = ["oldState": old, "newState": now.state, "timestamp": Self.date(Date())]
            let document: [String: Any] = [
                "data": [
                    "type": type, "id": UUID().uuidString.lowercased(), "version": 1, "attributes": attributes,
                    "relationships": [
                        "instance": ["data": ["type": parts[0], "id": parts[1]], "links": ["self": resourceURL(parts[0], parts[1])]]
                    ],
                ] as [String: Any]
            ]
            let body = (try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
            for webhook in state.snapshot.webhooks where webhook.appID == now.appID && webhook.enabled && webhook.eventTypes.contains(eventType) {
                state.outbox.append(
                    AppStoreConnectWebhookDelivery(
                        webhookID: webhook.id, eventType: eventType, url: webhook.url, body: body,
                        signature: WebhookSignature.sign(body, secret: webhook.secret)))
            }
        }
    }

    /// Sends every queued delivery, oldest first, once each (no retries: a receiver that is down misses it, as a
    /// real one would until Apple redelivers), to loopback URLs only.
    package func deliverWebhooks() async {
        let pending = state.withLock { state in
            defer { state.outbox.removeAll() }
            return state.outbox
        }
        guard !pending.isEmpty else { return }
        var configuration = HTTPClient.Configuration(
            connectTimeout: .seconds(5), stallTimeout: .seconds(5), totalTimeout: .seconds(10), retryPolicy: RetryPolicy(maxAttempts: 1))
        configuration.allowedHosts = ["127.0.0.1", "localhost", "::1", "[::1]"]
        let client = HTTPClient(configuration: configuration)
        for var delivery in pending {
            let request = HTTPRequest(
                method: "POST", url: delivery.url,
                headers: [("Content-Type", "application/json"), ("x-apple-signature", delivery.signature)],
                body: .data(delivery.body), maxResponseBytes: 64 << 10)
            do {
                delivery.status = try await client.send(request).status
            } catch {
                delivery.failure = String(describing: error)
            }
            let sent = delivery
            state.withLock { $0.deliveries.append(sent) }
        }
    }

    /// Every webhook delivery sent since start, oldest first.
    package func webhookDeliveries() -> [AppStoreConnectWebhookDelivery] {
        state.withLock { $0.deliveries }
    }
}

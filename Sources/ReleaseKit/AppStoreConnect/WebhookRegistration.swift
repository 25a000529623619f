import Foundation

/// `release webhook create`: gives an app the webhook a release resumes from, converging. The app's webhooks are
/// listed (`GET /v1/apps/{id}/webhooks`); one with the same URL is updated (`PATCH /v1/webhooks/{id}`: secret,
/// event types, enabled), else one is created (`POST /v1/webhooks` with `WebhookCreateRequest`: `name`, `url`,
/// `secret`, `eventTypes`, `enabled`, and relationship `app`, all required by the contract). Running it twice leaves
/// one webhook.
package struct WebhookRegistration: Sendable {
    /// What to register.
    package struct Request: Sendable {
        package var bundleID: String
        package var url: String
        package var secret: String
        package var name: String
        package var eventTypes: [String]

        package init(bundleID: String, url: String, secret: String, name: String, eventTypes: [String]) {
            self.bundleID = bundleID
            self.url = url
            self.secret = secret
            self.name = name
            self.eventTypes = eventTypes
        }
    }

    /// What App Store Connect holds afterwards.
    package struct Outcome: Sendable, Equatable {
        package var webhookID: String
        package var appID: String
        /// Created now (false: an existing webhook with the same URL was updated).
        package var created: Bool

        package var json: [String: Any] { ["webhook_id": webhookID, "app_id": appID, "created": created] }
    }

    /// `Webhook.attributes` (the contract never returns the secret).
    struct Attributes: Decodable, Sendable {
        var enabled: Bool?
        var eventTypes: [String]?
        var name: String?
        var url: String?
    }

    /// The contract's `WebhookEventType` values.
    package static let eventTypes = Set(Components.Schemas.WebhookEventType.allCases.map(\.rawValue))

    package let client: AppStoreConnectClient

    package init(client: AppStoreConnectClient) {
        self.client = client
    }

    /// Checks a request before anything is sent.
    /// - Throws: ``WebhookError/create(_:)`` naming the bad value (never the secret's).
    package static func check(_ request: Request) throws {
        guard let components = URLComponents(string: request.url), ["https", "http"].contains(components.scheme?.lowercased() ?? ""),
            !(components.host ?? "").isEmpty
        else {
            throw WebhookError.create("--url '\(request.url)' is not an http(s) URL with a host")
        }
        guard !request.secret.isEmpty else { throw WebhookError.noSecret }
        guard !request.eventTypes.isEmpty else { throw WebhookError.create("no event types") }
        for type in request.eventTypes where !eventTypes.contains(type) {
            throw WebhookError.create("--event '\(type)' is not a WebhookEventType (one of \(eventTypes.sorted().joined(separator: ", ")))")
        }
        guard !request.name.isEmpty, request.name.count <= 200 else { throw WebhookError.create("--name must be 1 to 200 characters") }
    }

    /// Creates or updates the app's webhook for `request.url`.
    /// - Throws: ``WebhookError`` for a bad request, ``AppStoreConnectError`` with Apple's answer.
    package func register(_ request: Request) async throws -> Outcome {
        try Self.check(request)
        let app = try await AppStoreConnectCatalog(client: client).app(bundleID: request.bundleID)
        let existing = try await client.resources(Attributes.self, "/v1/apps/\(app.id)/webhooks")
        let eventTypes = try request.eventTypes.map {
            try AppStoreConnectClient.contract($0, as: Components.Schemas.WebhookEventType.self, what: "a webhook event type")
        }
        if let webhook = existing.first(where: { $0.attributes?.url == request.url }) {
            let document = Components.Schemas.WebhookUpdateRequest(
                data: .init(
                    _type: .webhooks, id: webhook.id,
                    attributes: .init(enabled: true, eventTypes: eventTypes, name: request.name, secret: request.secret, url: request.url)))
            _ = try await client.write("PATCH", "/v1/webhooks/\(webhook.id)", document, as: Attributes.self)
            return Outcome(webhookID: webhook.id, appID: app.id, created: false)
        }
        let document = Components.Schemas.WebhookCreateRequest(
            data: .init(
                _type: .webhooks,
                attributes: .init(enabled: true, eventTypes: eventTypes, name: request.name, secret: request.secret, url: request.url),
                relationships: .init(app: .init(data: .init(_type: .apps, id: app.id)))))
        let created = try await client.write("POST", "/v1/webhooks", document, as: Attributes.self)
        return Outcome(webhookID: created.id, appID: app.id, created: true)
    }
}

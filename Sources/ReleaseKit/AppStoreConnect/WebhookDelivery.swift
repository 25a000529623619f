import Foundation
import ReleaseSupport

/// One App Store Connect webhook delivery's body, read defensively: a value nobody we trust wrote until its signature
/// verified, and even then only data (nothing in it is run, and every string kept is short and printable).
///
/// Apple's OpenAPI contract has no schema for the body (see `../shared/reference/app-store-connect/README.md`), so
/// this reads the JSON:API notification document receivers see:
/// `{"data": {"type": "buildUploadStateUpdated", "id": …, "attributes": {"oldState"|"oldValue": …,
/// "newState"|"newValue": …, "timestamp": …}, "relationships": {"instance": {"data": {"type": "buildUploads",
/// "id": …}}}}}`. `data.type` is the event in camel case; ``eventType`` spells it as the contract's
/// `WebhookEventType` (`BUILD_UPLOAD_STATE_UPDATED`). Only `data.type` is required; everything else is optional, and
/// a present value of the wrong shape is an error naming its JSON path.
package struct WebhookDelivery: Sendable, Equatable {
    /// The largest body read: a state-change notification is a few hundred bytes.
    package static let maxBodySize = 64 << 10
    /// The deepest nesting of arrays and objects accepted (the document above is five deep).
    static let maxDepth = 16
    /// The longest string kept from the body.
    static let maxText = 200

    /// `BUILD_UPLOAD_STATE_UPDATED`, `APP_STORE_VERSION_APP_VERSION_STATE_UPDATED`, `WEBHOOK_PING_CREATED`, …
    package var eventType: String
    /// The notification's id.
    package var id: String?
    /// The resource the event is about (`buildUploads`, `appStoreVersions`) and its id.
    package var instanceType: String?
    package var instanceID: String?
    package var oldState: String?
    package var newState: String?
    package var timestamp: String?

    /// A test delivery (`POST /v1/webhookPings`): nothing to resume.
    package var isPing: Bool { eventType.hasPrefix("WEBHOOK_PING") }

    package init(
        eventType: String, id: String? = nil, instanceType: String? = nil, instanceID: String? = nil, oldState: String? = nil,
        newState: String? = nil, timestamp: String? = nil
    ) {
        self.eventType = eventType
        self.id = id
        self.instanceType = instanceType
        self.instanceID = instanceID
        self.oldState = oldState
        self.newState = newState
        self.timestamp = timestamp
    }

    /// Reads a delivery's body.
    /// - Throws: ``WebhookError/tooLarge(limit:)`` or ``WebhookError/invalidPayload(path:reason:)``.
    package init(parsing body: Data) throws {
        guard body.count <= Self.maxBodySize else { throw WebhookError.tooLarge(limit: Self.maxBodySize) }
        guard JSONDepth.deepest(in: body) <= Self.maxDepth else {
            throw WebhookError.invalidPayload(path: "$", reason: "nested deeper than \(Self.maxDepth) levels")
        }
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: body)
        } catch {
            throw WebhookError.invalidPayload(path: "$", reason: "not JSON")
        }
        guard let document = root as? [String: Any] else { throw WebhookError.invalidPayload(path: "$", reason: "not a JSON object") }
        let data = try Self.object(document["data"], path: "data", required: true) ?? [:]
        guard let type = try Self.identifier(data["type"], path: "data.type") else {
            throw WebhookError.invalidPayload(path: "data.type", reason: "missing")
        }
        eventType = Self.eventType(type)
        id = try Self.identifier(data["id"], path: "data.id")
        let attributes = try Self.object(data["attributes"], path: "data.attributes") ?? [:]
        oldState = try Self.text(attributes["oldState"] ?? attributes["oldValue"], path: "data.attributes.oldState")
        newState = try Self.text(attributes["newState"] ?? attributes["newValue"], path: "data.attributes.newState")
        timestamp = try Self.text(attributes["timestamp"], path: "data.attributes.timestamp")
        let relationships = try Self.object(data["relationships"], path: "data.relationships") ?? [:]
        let instance = try Self.object(relationships["instance"], path: "data.relationships.instance") ?? [:]
        let linkage = try Self.object(instance["data"], path: "data.relationships.instance.data") ?? [:]
        instanceType = try Self.identifier(linkage["type"], path: "data.relationships.instance.data.type")
        instanceID = try Self.identifier(linkage["id"], path: "data.relationships.instance.data.id")
    }

    /// `buildUploadStateUpdated` → `BUILD_UPLOAD_STATE_UPDATED`; a name already in upper snake case stays.
    static func eventType(_ type: String) -> String {
        var out = ""
        for character in type {
            if character.isUppercase, !out.isEmpty, !type.contains("_") { out.append("_") }
            out.append(contentsOf: character.uppercased())
        }
        return out
    }

    // MARK: Reading values

    private static func object(_ value: Any?, path: String, required: Bool = false) throws -> [String: Any]? {
        guard let value, !(value is NSNull) else {
            if required { throw WebhookError.invalidPayload(path: path, reason: "missing") }
            return nil
        }
        guard let object = value as? [String: Any] else { throw WebhookError.invalidPayload(path: path, reason: "not an object") }
        return object
    }

    /// A type name or an id: letters, digits, `-`, `_`, `.`, at most 64 of them (ids go into API paths).
    private static func identifier(_ value: Any?, path: String) throws -> String? {
        guard let text = try string(value, path: path) else { return nil }
        let allowed = text.utf8.allSatisfy { unit in
            (unit >= 0x30 && unit <= 0x39) || (unit >= 0x41 && unit <= 0x5A) || (unit >= 0x61 && unit <= 0x7A)
                || unit == UInt8(ascii: "-") || unit == UInt8(ascii: "_") || unit == UInt8(ascii: ".")
        }
        guard allowed, (1...64).contains(text.utf8.count) else {
            throw WebhookError.invalidPayload(path: path, reason: "not an identifier (letters, digits, '-', '_', '.'; at most 64)")
        }
        return text
    }

    /// A state or a date: printable, at most ``maxText`` characters.
    private static func text(_ value: Any?, path: String) throws -> String? {
        guard let text = try string(value, path: path) else { return nil }
        guard text.count <= maxText, text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) else {
            throw WebhookError.invalidPayload(path: path, reason: "not a short printable string")
        }
        return text
    }

    private static func string(_ value: Any?, path: String) throws -> String? {
        guard let value, !(value is NSNull) else { return nil }
        guard let text = value as? String else { throw WebhookError.invalidPayload(path: path, reason: "not a string") }
        return text
    }
}

import Foundation
import ReleaseSupport

/// The `data` of a JSON:API create or update request, checked the way App Store Connect checks it: the
/// resource type, the id (for updates), attributes by kind (unknown ones refused), and relationships by type.
/// Each problem is an ``AppStoreConnectProblem`` with a `source.pointer` into the body.
struct AppStoreConnectEntity {
    /// What an attribute must hold.
    enum Kind {
        case string
        case boolean
        /// An integer from `minimum` on.
        case integer(minimum: Int64)
        case oneOf([String])
        /// An array whose every item is one of these (`eventTypes`).
        case listOf([String])
        /// Apple's `Checksums`: `{file: {hash, algorithm: MD5|SHA_256}, composite: {hash, algorithm: MD5}}`.
        case checksums
    }

    let type: String
    let object: [String: Any]
    /// The request body as sent, for ``decode(_:)``.
    let body: Data

    /// Parses `body` and checks `data.type` (and `data.id` when `id` is given).
    init(_ body: Data, type: String, id: String? = nil) throws {
        guard !body.isEmpty, let document = try? JSONSerialization.jsonObject(with: body) else {
            throw AppStoreConnectProblem.unprocessable("The request body is not a JSON document.")
        }
        guard let root = document as? [String: Any], let data = root["data"] as? [String: Any] else {
            throw AppStoreConnectProblem.unprocessable("The request body must be an object with a 'data' object.")
        }
        guard let actual = data["type"] as? String else {
            throw AppStoreConnectProblem.required(type: "type", pointer: "/data/type")
        }
        guard actual == type else {
            throw AppStoreConnectProblem.invalid("/data/type", "'\(actual)' is not the resource type of this request; expected '\(type)'")
        }
        if let id {
            guard let given = data["id"] as? String else { throw AppStoreConnectProblem.required(type: "id", pointer: "/data/id") }
            guard given == id else {
                throw AppStoreConnectProblem.invalid("/data/id", "The id '\(given)' does not match the id '\(id)' in the request path")
            }
        }
        self.type = type
        object = data
        self.body = body
    }

    /// The body decoded as the contract's request document of `operation` (``AppStoreConnectOperation/requestDocument``,
    /// the generated type the client encodes it from): what the checks above leave to the schema (a value outside an
    /// enumeration, a linkage of the wrong type, a wrong kind deep in a document) is refused the way Apple refuses it,
    /// with a 409 pointing at the value.
    func decode(as operation: AppStoreConnectOperation) throws {
        try Self.decode(body, as: operation)
    }

    /// `body` decoded as the contract's request document of `operation`; nothing to decode for an operation without one.
    static func decode(_ body: Data, as operation: AppStoreConnectOperation) throws {
        guard let document = operation.requestDocument else { return }
        _ = try decode(document, body)
    }

    /// `body` decoded as the contract's `Document`; a body the schema refuses is an ``AppStoreConnectProblem``.
    static func decode<Document: Decodable>(_: Document.Type, _ body: Data) throws -> Document {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = Timestamp.parseISO8601(text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not an ISO 8601 date-time")
            }
            return date
        }
        do {
            return try decoder.decode(Document.self, from: body)
        } catch let error as DecodingError {
            throw AppStoreConnectProblem(decoding: error)
        }
    }

    /// The attributes, checked against `kinds`: unknown names, wrong kinds and missing `required` ones are
    /// refused; `nullable` ones may be `null` (returned as `NSNull`).
    func attributes(_ kinds: [String: Kind], required: [String] = [], nullable: Set<String> = []) throws -> [String: Any] {
        let attributes: [String: Any]
        switch object["attributes"] {
        case nil: attributes = [:]
        case let value as [String: Any]: attributes = value
        default: throw AppStoreConnectProblem.wrongType("/data/attributes", expected: "an object")
        }
        for name in required where attributes[name] == nil || attributes[name] is NSNull {
            throw AppStoreConnectProblem.required(attribute: name)
        }
        for (name, value) in attributes.sorted(by: { $0.key < $1.key }) {
            guard let kind = kinds[name] else { throw AppStoreConnectProblem.unknownAttribute(name, resource: type) }
            if value is NSNull {
                if nullable.contains(name) { continue }
                throw AppStoreConnectProblem.wrongType("/data/attributes/\(name)", expected: "a value, not null")
            }
            try Self.check(value, kind, pointer: "/data/attributes/\(name)")
        }
        return attributes
    }

    /// The id of relationship `name`, which must point at a resource of `type`; nil when absent and not
    /// `required`.
    func relationship(_ name: String, type: String, required: Bool) throws -> String? {
        let relationships = object["relationships"] as? [String: Any] ?? [:]
        guard let relationship = relationships[name] else {
            if required { throw AppStoreConnectProblem.required(relationship: name) }
            return nil
        }
        let pointer = "/data/relationships/\(name)/data"
        guard let data = (relationship as? [String: Any])?["data"] as? [String: Any] else {
            throw AppStoreConnectProblem.invalidRelationship(pointer, "The relationship '\(name)' must have a 'data' object with 'type' and 'id'")
        }
        return try Self.linkage(data, type: type, pointer: pointer)
    }

    /// Refuses relationships other than `known`.
    func onlyRelationships(_ known: Set<String>) throws {
        let relationships = object["relationships"] as? [String: Any] ?? [:]
        if let unknown = relationships.keys.sorted().first(where: { !known.contains($0) }) {
            throw AppStoreConnectProblem.invalidRelationship(
                "/data/relationships/\(unknown)", "'\(unknown)' is not a relationship on the resource '\(type)'")
        }
    }

    /// The ids of a linkages request (`{"data": [{"type": …, "id": …}]}`), each of `type`.
    static func linkages(_ body: Data, type: String) throws -> [String] {
        guard let document = try? JSONSerialization.jsonObject(with: body), let root = document as? [String: Any] else {
            throw AppStoreConnectProblem.unprocessable("The request body is not a JSON document.")
        }
        guard let items = root["data"] as? [Any] else {
            throw AppStoreConnectProblem.wrongType("/data", expected: "an array of resource identifiers")
        }
        return try items.enumerated().map { index, item in
            guard let linkage = item as? [String: Any] else {
                throw AppStoreConnectProblem.wrongType("/data/\(index)", expected: "an object with 'type' and 'id'")
            }
            return try Self.linkage(linkage, type: type, pointer: "/data/\(index)")
        }
    }

    private static func linkage(_ data: [String: Any], type: String, pointer: String) throws -> String {
        guard let actual = data["type"] as? String else { throw AppStoreConnectProblem.required(type: "type", pointer: pointer + "/type") }
        guard actual == type else {
            throw AppStoreConnectProblem.invalidRelationship(pointer + "/type", "'\(actual)' is not a valid type here; expected '\(type)'")
        }
        guard let id = data["id"] as? String, !id.isEmpty else { throw AppStoreConnectProblem.required(type: "id", pointer: pointer + "/id") }
        return id
    }

    /// Whether a JSONSerialization value is `true`/`false`. `is Bool` cannot tell: on Linux every NSNumber
    /// casts to Bool, on Darwin 0 and 1 do; the boolean ones alone have the `c` (char) type encoding.
    static func isBoolean(_ value: Any) -> Bool {
        guard let number = value as? NSNumber else { return false }
        return String(cString: number.objCType) == "c"
    }

    private static func check(_ value: Any, _ kind: Kind, pointer: String) throws {
        switch kind {
        case .string:
            guard value is String else { throw AppStoreConnectProblem.wrongType(pointer, expected: "a string") }
        case .boolean:
            guard Self.isBoolean(value) else {
                throw AppStoreConnectProblem.wrongType(pointer, expected: "a boolean")
            }
        case .integer(let minimum):
            guard let number = value as? NSNumber, !Self.isBoolean(value), number.doubleValue == number.doubleValue.rounded() else {
                throw AppStoreConnectProblem.wrongType(pointer, expected: "an integer")
            }
            guard number.int64Value >= minimum else {
                throw AppStoreConnectProblem.invalid(pointer, "The value \(number) at '\(pointer)' must be at least \(minimum)")
            }
        case .oneOf(let allowed):
            guard let text = value as? String else { throw AppStoreConnectProblem.wrongType(pointer, expected: "a string") }
            guard allowed.contains(text) else {
                throw AppStoreConnectProblem.invalid(pointer, "'\(text)' is not a valid value; valid values: \(allowed.joined(separator: ", "))")
            }
        case .listOf(let allowed):
            guard let items = value as? [Any] else { throw AppStoreConnectProblem.wrongType(pointer, expected: "an array") }
            for (index, item) in items.enumerated() { try check(item, .oneOf(allowed), pointer: pointer + "/\(index)") }
        case .checksums:
            guard let checksums = value as? [String: Any] else { throw AppStoreConnectProblem.wrongType(pointer, expected: "an object") }
            let parts: [(String, [String])] = [("file", ["MD5", "SHA_256"]), ("composite", ["MD5"])]
            for (key, _) in checksums where !parts.contains(where: { $0.0 == key }) {
                throw AppStoreConnectProblem.invalid(pointer + "/\(key)", "'\(key)' is not part of sourceFileChecksums")
            }
            for (part, algorithms) in parts {
                guard let entry = checksums[part] else { continue }
                guard let object = entry as? [String: Any] else { throw AppStoreConnectProblem.wrongType(pointer + "/\(part)", expected: "an object") }
                if let hash = object["hash"] { try check(hash, .string, pointer: pointer + "/\(part)/hash") }
                if let algorithm = object["algorithm"] { try check(algorithm, .oneOf(algorithms), pointer: pointer + "/\(part)/algorithm") }
            }
        }
    }
}

extension AppStoreConnectProblem {
    /// A required member of the document itself (`/data/type`, a linkage's `id`).
    static func required(type name: String, pointer: String) -> Self {
        Self(
            status: 409, code: "ENTITY_ERROR.ATTRIBUTE.REQUIRED", title: "The provided entity is missing a required attribute",
            detail: "You must provide a value for '\(name)' with this request", pointer: pointer)
    }
}

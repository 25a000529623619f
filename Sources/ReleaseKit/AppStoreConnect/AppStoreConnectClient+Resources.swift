import Foundation
import ReleaseSupport

/// JSON:API helpers on ``AppStoreConnectClient``: query strings, single resources, collections, and request documents.
extension AppStoreConnectClient {
    /// `path?name=value&…` with names and values percent-encoded (`filter[app]` becomes `filter%5Bapp%5D`), in the
    /// order given.
    package static func path(_ path: String, _ query: [(String, String)]) -> String {
        guard !query.isEmpty else { return path }
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+[]?#")
        let pairs = query.map { name, value in
            (name.addingPercentEncoding(withAllowedCharacters: allowed) ?? name) + "="
                + (value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value)
        }
        return path + "?" + pairs.joined(separator: "&")
    }

    /// The resource at `path`.
    package func resource<A>(_ attributes: A.Type, _ path: String) async throws -> Resource<A> {
        try await get(Single<A>.self, path).data
    }

    /// Every resource of the collection at `path`, page after page.
    package func resources<A>(_ attributes: A.Type, _ path: String) async throws -> [Resource<A>] {
        try await all(Resource<A>.self, path)
    }

    /// Sends a request document of Apple's contract (a generated `Components.Schemas.…Request`: a body that does not
    /// match the contract does not compile) and decodes the resource it answers with.
    package func write<Document: Encodable, A>(_ method: String, _ path: String, _ document: Document, as attributes: A.Type) async throws -> Resource<A> {
        try decode(Single<A>.self, try await send(method, path, json: Self.encode(document)), path: path).data
    }

    /// Sends a request document of Apple's contract whose answer has no body to read (204, relationship requests).
    package func write<Document: Encodable>(_ method: String, _ path: String, _ document: Document) async throws {
        _ = try await send(method, path, json: Self.encode(document))
    }

    /// A document's bytes as ``JSONWriter`` writes them (keys sorted by their bytes, slashes not escaped), so a request
    /// is the same from run to run and from platform to platform; dates in Apple's ISO 8601 form.
    static func encode<Document: Encodable>(_ document: Document) throws -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            let fraction = date.timeIntervalSince1970 - date.timeIntervalSince1970.rounded(.down)
            try container.encode(Timestamp.iso8601(date, milliseconds: fraction >= 0.001))
        }
        let tree = try JSONSerialization.jsonObject(with: try encoder.encode(document), options: [.fragmentsAllowed])
        guard let data = JSONWriter.data(tree) else {
            throw AppStoreConnectError.notInContract(what: "a \(Document.self)", value: "a number JSON cannot hold", allowed: ["finite numbers"])
        }
        return data
    }

    /// `value` as the contract's enumeration `T` (a generated `Components.Schemas.Platform`, say).
    /// - Throws: ``AppStoreConnectError/notInContract(what:value:allowed:)`` naming `what` and the allowed values.
    static func contract<T: RawRepresentable & CaseIterable>(_ value: String, as _: T.Type, what: String) throws -> T where T.RawValue == String {
        guard let typed = T(rawValue: value) else {
            throw AppStoreConnectError.notInContract(what: what, value: value, allowed: T.allCases.map(\.rawValue))
        }
        return typed
    }
}

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

    /// Sends a JSON:API request `document` (`{"data": …}`) and decodes the resource it answers with.
    package func write<A>(_ method: String, _ path: String, _ document: [String: Any], as attributes: A.Type) async throws -> Resource<A> {
        try decode(Single<A>.self, try await send(method, path, json: Self.encode(document)), path: path).data
    }

    /// Sends a JSON:API request `document` whose answer has no body to read (204, relationship requests).
    package func write(_ method: String, _ path: String, _ document: [String: Any]) async throws {
        _ = try await send(method, path, json: Self.encode(document))
    }

    /// A document's bytes, keys sorted so requests are the same from run to run.
    static func encode(_ document: [String: Any]) -> Data {
        JSONWriter.data(document) ?? Data()
    }

    /// `{"data": {"type": TYPE, "id": ID}}`: the linkage a relationship takes.
    package static func linkage(_ type: String, _ id: String) -> [String: Any] {
        ["data": ["type": type, "id": id]]
    }
}

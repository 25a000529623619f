import Foundation

/// What went wrong talking to App Store Connect, with Apple's own words.
public enum AppStoreConnectError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The API answered with a JSON:API `ErrorResponse`: one line per entry of `errors[]`.
    case api(method: String, path: String, status: Int, errors: [Entry])
    /// 401: the key, issuer or token was not accepted.
    case unauthorized(errors: [Entry])
    /// The answer could not be read as what the operation returns.
    case invalidResponse(path: String, reason: String)

    /// One entry of `errors[]` (Apple's `ErrorResponse.errors.items`: status, code, title, detail and a source
    /// pointer or parameter).
    public struct Entry: Sendable, Equatable, Decodable {
        public var status: String
        public var code: String
        public var title: String
        public var detail: String
        public var source: Source?

        /// Where in the request the problem is.
        public struct Source: Sendable, Equatable, Decodable {
            public var pointer: String?
            public var parameter: String?
        }

        public init(status: String, code: String, title: String, detail: String, source: Source? = nil) {
            self.status = status
            self.code = code
            self.title = title
            self.detail = detail
            self.source = source
        }

        /// `409 ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE: The provided entity … (detail) at /data/attributes/cfBundleVersion`
        public var line: String {
            var text = "\(status) \(code): \(title)"
            if !detail.isEmpty && detail != title { text += " (\(detail))" }
            if let pointer = source?.pointer { text += " at \(pointer)" } else if let parameter = source?.parameter { text += " (parameter \(parameter))" }
            return Echo.text(text, limit: 1000)
        }
    }

    /// The `errors[]` of an error body, or nil when it is not a JSON:API error document.
    public static func entries(in body: Data) -> [Entry]? {
        struct Document: Decodable { var errors: [Entry] }
        return try? JSONDecoder().decode(Document.self, from: body).errors
    }

    public var description: String {
        switch self {
        case .api(let method, let path, let status, let errors):
            let lines = errors.map(\.line)
            let head = "App Store Connect answered \(method) \(path) with HTTP \(status)"
            return lines.isEmpty ? head : head + ":\n" + lines.map { "  " + $0 }.joined(separator: "\n")
        case .unauthorized(let errors):
            let reasons = errors.map(\.line).joined(separator: "; ")
            return "App Store Connect did not accept the API key (check key_id, issuer_id and key; the key must not be revoked)"
                + (reasons.isEmpty ? "" : ": " + reasons)
        case .invalidResponse(let path, let reason):
            return "App Store Connect sent an answer to \(path) that cannot be read: \(reason)"
        }
    }
}

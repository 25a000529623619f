import Foundation
import ReleaseAppStoreConnect

/// An error answer of the local App Store Connect server, in Apple's `ErrorResponse` shape (`errors[]` of
/// `id`, `status`, `code`, `title`, `detail` and a `source` pointer or parameter), with Apple's codes and
/// wording. Thrown by the handlers, rendered once by the router.
struct AppStoreConnectProblem: Error, Sendable {
    var status: Int
    var code: String
    var title: String
    var detail: String
    var pointer: String?
    var parameter: String?
    var headers: [(String, String)] = []

    /// The `ErrorResponse` document, built as the contract's generated type (the answer the router writes is a JSON
    /// object tree, so it is handed on as one).
    var json: Any {
        let source: Components.Schemas.ErrorResponse.ErrorsPayloadPayload.SourcePayload? =
            if let pointer { .ErrorSourcePointer(.init(pointer: pointer)) } else if let parameter { .ErrorSourceParameter(.init(parameter: parameter)) } else { nil }
        let document = Components.Schemas.ErrorResponse(
            errors: [.init(id: UUID().uuidString.lowercased(), status: "\(status)", code: code, title: title, detail: detail, source: source)])
        return (try? JSONEncoder().encode(document)).flatMap { try? JSONSerialization.jsonObject(with: $0) } ?? [:]
    }

    static let unauthorized = Self(
        status: 401, code: "NOT_AUTHORIZED", title: "Authentication credentials are missing or invalid.",
        detail:
            "Provide a properly configured and signed bearer token, and make sure that it has not expired. Learn more about Generating Tokens for API Requests https://developer.apple.com/go/?id=api-generating-tokens"
    )

    static func tooManyRequests(retryAfter: Int) -> Self {
        Self(
            status: 429, code: "RATE_LIMIT_EXCEEDED", title: "The request rate limit has been reached.",
            detail: "We've received too many requests for this API. Please wait and try again or slow down your request rate.",
            headers: [("Retry-After", "\(retryAfter)")])
    }

    static func serverError(_ status: Int) -> Self {
        Self(
            status: status, code: status == 503 ? "SERVICE_UNAVAILABLE" : "UNEXPECTED_ERROR",
            title: "An unexpected error occurred.",
            detail: "An unexpected error occurred on the server side. If this issue continues, contact us at https://developer.apple.com/contact/.")
    }

    static let unknownPath = Self(
        status: 404, code: "NOT_FOUND", title: "The specified resource does not exist",
        detail: "The path provided does not match a defined resource type."
    )

    static let methodNotAllowed = Self(
        status: 405, code: "METHOD_NOT_ALLOWED", title: "The request method is not valid for the resource path.",
        detail: "The request method is not valid for the resource path."
    )

    static func notFound(_ type: String, _ id: String) -> Self {
        Self(
            status: 404, code: "NOT_FOUND", title: "The specified resource does not exist",
            detail: "There is no resource of type '\(type)' with id '\(id)'")
    }

    static func invalidParameter(_ name: String, _ value: String, allowed: [String]? = nil) -> Self {
        var detail = "'\(value)' is not a valid value for the parameter '\(name)'"
        if let allowed { detail += ". Valid values: \(allowed.joined(separator: ", "))" }
        return Self(status: 400, code: "PARAMETER_ERROR.INVALID", title: "A parameter has an invalid value", detail: detail, parameter: name)
    }

    static func illegalParameter(_ name: String) -> Self {
        Self(
            status: 400, code: "PARAMETER_ERROR.ILLEGAL", title: "A parameter is not allowed for this request",
            detail: "The parameter '\(name)' can not be used with this request", parameter: name)
    }

    static func requiredParameter(_ name: String) -> Self {
        Self(
            status: 400, code: "PARAMETER_ERROR.REQUIRED", title: "A required parameter is missing.",
            detail: "The parameter '\(name)' is required for this request", parameter: name)
    }

    static func unprocessable(_ detail: String) -> Self {
        Self(status: 422, code: "ENTITY_UNPROCESSABLE", title: "The request entity is unprocessable", detail: detail, pointer: "")
    }

    static func required(attribute name: String) -> Self {
        Self(
            status: 409, code: "ENTITY_ERROR.ATTRIBUTE.REQUIRED", title: "The provided entity is missing a required attribute",
            detail: "You must provide a value for the attribute '\(name)' with this request", pointer: "/data/attributes/\(name)")
    }

    static func invalid(_ pointer: String, _ detail: String) -> Self {
        Self(status: 409, code: "ENTITY_ERROR.ATTRIBUTE.INVALID", title: "An attribute value is invalid.", detail: detail, pointer: pointer)
    }

    static func wrongType(_ pointer: String, expected: String) -> Self {
        Self(
            status: 409, code: "ENTITY_ERROR.ATTRIBUTE.TYPE", title: "An attribute value has an invalid type",
            detail: "The value at '\(pointer)' must be \(expected)", pointer: pointer)
    }

    static func unknownAttribute(_ name: String, resource: String) -> Self {
        Self(
            status: 409, code: "ENTITY_ERROR.ATTRIBUTE.UNKNOWN", title: "The provided entity includes an unknown attribute",
            detail: "'\(name)' is not an attribute on the resource '\(resource)'", pointer: "/data/attributes/\(name)")
    }

    static func required(relationship name: String) -> Self {
        Self(
            status: 409, code: "ENTITY_ERROR.RELATIONSHIP.REQUIRED", title: "The provided entity is missing a required relationship",
            detail: "You must provide a value for the relationship '\(name)' with this request", pointer: "/data/relationships/\(name)")
    }

    static func invalidRelationship(_ pointer: String, _ detail: String, status: Int = 409) -> Self {
        Self(
            status: status, code: "ENTITY_ERROR.RELATIONSHIP.INVALID", title: "The provided entity includes a relationship with an invalid value",
            detail: detail, pointer: pointer)
    }

    static func state(_ detail: String, pointer: String? = nil) -> Self {
        Self(
            status: 409, code: "STATE_ERROR", title: "The request cannot be fulfilled because of the state of another resource.",
            detail: detail, pointer: pointer)
    }

    static func duplicate(_ pointer: String, _ detail: String) -> Self {
        Self(
            status: 409, code: "ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE",
            title: "The provided entity includes an attribute with a value that has already been used", detail: detail, pointer: pointer)
    }

    static func forbidden(_ detail: String) -> Self {
        Self(status: 403, code: "FORBIDDEN_ERROR", title: "This request is forbidden for security reasons", detail: detail)
    }
}

extension AppStoreConnectProblem {
    /// Apple's answer to a request document its schema refuses, from the error of decoding it as the contract's type: a
    /// missing member is required, a value of another kind has the wrong type, any other value (outside an enumeration,
    /// not a date) is invalid; in a relationship, the relationship is invalid. The pointer is the JSON path of the value.
    init(decoding error: DecodingError) {
        func pointer(_ path: [any CodingKey]) -> String {
            "/" + path.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: "/")
        }
        switch error {
        case .keyNotFound(let key, let context):
            let path = context.codingPath.map(\.stringValue)
            if path == ["data", "attributes"] {
                self = .required(attribute: key.stringValue)
            } else if path == ["data", "relationships"] {
                self = .required(relationship: key.stringValue)
            } else {
                self = .required(type: key.stringValue, pointer: pointer(context.codingPath + [key]))
            }
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            let expected =
                type == String.self
                ? "a string"
                : type == Bool.self ? "a boolean" : type == Int64.self || type == Int.self ? "an integer" : String(describing: type).hasPrefix("Array") ? "an array" : "an object"
            self = .wrongType(pointer(context.codingPath), expected: expected)
        case .dataCorrupted(let context):
            let at = pointer(context.codingPath)
            self =
                context.codingPath.contains(where: { $0.stringValue == "relationships" })
                ? .invalidRelationship(at, "The value at '\(at)' is not valid here: \(context.debugDescription)")
                : .invalid(at, "The value at '\(at)' is not valid: \(context.debugDescription)")
        @unknown default:
            self = .unprocessable("The request body is not a valid document: \(error)")
        }
    }
}

import Foundation
import ReleaseSupport
import ReleaseTestSupport

/// Apple's App Store Connect contract (`../shared/reference/app-store-connect/openapi-release-subset-4.4.1-extended.json`, the
/// OpenAPI 3.0 subset of the operations a release needs) as a checker for JSON bodies and queries, so tests can prove the
/// stand-in answers, and the client queries, in exactly Apple's shapes. Request bodies need no checker: both sides use the
/// request documents generated from the contract (`Sources/ReleaseKit/AppStoreConnect/Generated`), and the stand-in
/// decodes every body with them.
///
/// A small OpenAPI 3.0 schema validator: `$ref` (with a sibling `nullable`, as Apple writes it), `type`,
/// `properties`, `required`, `enum`, `items`, `nullable`, `format` (`date-time`, `uri`, `uri-reference`, `email`,
/// `int64`), `minimum`/`maximum`, `allOf`, `oneOf` (by `discriminator` when there is one), `anyOf` and
/// `additionalProperties`. Strict by default: a property the schema does not declare is a problem unless
/// `additionalProperties` allows it, so a made-up field cannot slip through.
///
/// ```swift
/// let problems = AppStoreConnectContract.validate(operationId: "buildUploads_createInstance", status: 201, responseBody: body)
/// #expect(problems.isEmpty, "\(problems)")
/// ```
struct AppStoreConnectContract: Sendable {
    /// One thing in a body that the contract does not allow, located by a JSON path.
    struct Problem: Sendable, Equatable, CustomStringConvertible {
        /// `$.data.attributes.platform`.
        var path: String
        var message: String
        /// The offending value, as JSON text (shortened), or empty when a value is missing.
        var value: String

        var description: String { value.isEmpty ? "\(path): \(message)" : "\(path): \(message) (value \(value))" }
    }

    /// Where the contract is: the repository root's parent + `/shared/reference/app-store-connect`.
    static let path = FilePath.normalized(SharedReference.path(.appStoreConnect))

    /// The contract, loaded once; nil when the file is missing or unreadable.
    static let shared: AppStoreConnectContract? = {
        guard let data = FileManager.default.contents(atPath: path),
            let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        else { return nil }
        return AppStoreConnectContract(document: SendableJSON(object))
    }()

    /// The parsed document; JSONSerialization's values are immutable once parsed.
    struct SendableJSON: @unchecked Sendable {
        let value: [String: Any]
        init(_ value: [String: Any]) { self.value = value }
    }

    let document: SendableJSON
    /// Whether undeclared properties are problems.
    var strict = true

    /// Every operation: `operationId` → (method upper-case, path template, operation object).
    var operations: [String: (method: String, path: String, operation: [String: Any])] {
        var table: [String: (method: String, path: String, operation: [String: Any])] = [:]
        for (path, item) in document.value["paths"] as? [String: Any] ?? [:] {
            for (method, operation) in item as? [String: Any] ?? [:] {
                guard let operation = operation as? [String: Any], let id = operation["operationId"] as? String else { continue }
                table[id] = (method.uppercased(), path, operation)
            }
        }
        return table
    }

    // MARK: Entry points

    /// Problems of `responseBody` as the `status` answer of `operationId` (a status the operation does not
    /// document is one).
    static func validate(operationId: String, status: Int, responseBody: Data?) -> [Problem] {
        guard let contract = shared else { return [missing] }
        return contract.validate(operationId: operationId, status: status, responseBody: responseBody)
    }

    /// Problems of the query of `target` (`/v1/builds?filter[app]=1&limit=2`) for `operationId`: parameters the
    /// operation does not declare, and values outside their enums or maxima. `cursor` (Apple's paging) is
    /// allowed on every collection.
    static func validateQuery(operationId: String, target: String) -> [Problem] {
        guard let contract = shared else { return [missing] }
        return contract.validateQuery(operationId: operationId, target: target)
    }

    static var missing: Problem {
        Problem(path: "$", message: "\(SharedReference.reason(.appStoreConnect))", value: "")
    }

    func validate(operationId: String, status: Int, responseBody: Data?) -> [Problem] {
        guard let operation = operations[operationId]?.operation else {
            return [Problem(path: "$", message: "no operation '\(operationId)' in the contract", value: "")]
        }
        guard let response = (operation["responses"] as? [String: Any])?["\(status)"] as? [String: Any] else {
            return [Problem(path: "$", message: "status \(status) is not documented for \(operationId)", value: "")]
        }
        let schema = ((response["content"] as? [String: Any])?["application/json"] as? [String: Any])?["schema"] as? [String: Any]
        return check(body: responseBody, schema: schema)
    }

    func validateQuery(operationId: String, target: String) -> [Problem] {
        guard let operation = operations[operationId]?.operation else {
            return [Problem(path: "$", message: "no operation '\(operationId)' in the contract", value: "")]
        }
        var declared: [String: [String: Any]] = [:]
        for parameter in operation["parameters"] as? [[String: Any]] ?? [] where parameter["in"] as? String == "query" {
            if let name = parameter["name"] as? String { declared[name] = parameter["schema"] as? [String: Any] ?? [:] }
        }
        var problems: [Problem] = []
        for item in URLComponents(string: "http://host" + target)?.queryItems ?? [] {
            let path = "?\(item.name)"
            if item.name == "cursor" && declared["limit"] != nil { continue }
            guard let schema = declared[item.name] else {
                problems.append(Problem(path: path, message: "not a parameter of \(operationId)", value: Self.text(item.value ?? "")))
                continue
            }
            let value = item.value ?? ""
            // Query arrays are comma-separated (`filter[platform]=IOS,MAC_OS`); integers and booleans are text.
            let parsed: Any
            switch schema["type"] as? String {
            case "array": parsed = value.split(separator: ",").map(String.init)
            case "integer": parsed = Int(value).map { NSNumber(value: $0) } ?? value as Any
            case "boolean": parsed = value == "true" ? true : value == "false" ? false : value as Any
            default: parsed = value
            }
            problems += check(parsed, schema, path)
        }
        return problems
    }

    private func check(body: Data?, schema: [String: Any]?) -> [Problem] {
        let bytes = body ?? Data()
        guard let schema else {
            return bytes.isEmpty
                ? [] : [Problem(path: "$", message: "the contract has no body here, but there is one", value: Self.text(String(decoding: bytes.prefix(80), as: UTF8.self)))]
        }
        guard !bytes.isEmpty else { return [Problem(path: "$", message: "a body is required", value: "")] }
        guard let value = try? JSONSerialization.jsonObject(with: bytes, options: [.fragmentsAllowed]) else {
            return [Problem(path: "$", message: "not JSON", value: Self.text(String(decoding: bytes.prefix(80), as: UTF8.self)))]
        }
        return check(value, schema, "$")
    }

    // MARK: Schemas

    /// The schema a `$ref` names.
    func resolve(_ reference: String) -> [String: Any]? {
        guard reference.hasPrefix("#/") else { return nil }
        var node: Any = document.value
        for key in reference.dropFirst(2).split(separator: "/") {
            guard let object = node as? [String: Any], let next = object[String(key)] else { return nil }
            node = next
        }
        return node as? [String: Any]
    }

    /// Problems of `value` against `schema`, located under `path`.
    func check(_ value: Any, _ schema: [String: Any], _ path: String) -> [Problem] {
        if value is NSNull {
            return schema["nullable"] as? Bool == true ? [] : [Problem(path: path, message: "null is not allowed", value: "null")]
        }
        if let reference = schema["$ref"] as? String {
            guard let target = resolve(reference) else { return [Problem(path: path, message: "unresolvable $ref \(reference)", value: "")] }
            return check(value, target, path)
        }
        var problems: [Problem] = []
        if let all = schema["allOf"] as? [[String: Any]] {
            for part in all { problems += check(value, part, path) }
        }
        if let any = schema["anyOf"] as? [[String: Any]], !any.contains(where: { check(value, $0, path).isEmpty }) {
            problems.append(Problem(path: path, message: "matches none of anyOf", value: Self.text(value)))
        }
        if let one = schema["oneOf"] as? [[String: Any]] {
            problems += checkOneOf(value, one, discriminator: schema["discriminator"] as? [String: Any], path)
        }
        if let type = schema["type"] as? String {
            guard Self.hasType(value, type) else {
                return problems + [Problem(path: path, message: "is not of type \(type)", value: Self.text(value))]
            }
        }
        if let allowed = schema["enum"] as? [Any], !allowed.contains(where: { Self.equal($0, value) }) {
            problems.append(Problem(path: path, message: "is not one of \(allowed.map { "\($0)" }.joined(separator: ", "))", value: Self.text(value)))
        }
        if let format = schema["format"] as? String, let text = value as? String, !Self.conforms(text, format: format) {
            problems.append(Problem(path: path, message: "is not a \(format)", value: Self.text(value)))
        }
        if let number = value as? NSNumber, !Self.isBoolean(value) {
            if let minimum = schema["minimum"] as? NSNumber, number.doubleValue < minimum.doubleValue {
                problems.append(Problem(path: path, message: "is below the minimum \(minimum)", value: Self.text(value)))
            }
            if let maximum = schema["maximum"] as? NSNumber, number.doubleValue > maximum.doubleValue {
                problems.append(Problem(path: path, message: "is above the maximum \(maximum)", value: Self.text(value)))
            }
        }
        if let object = value as? [String: Any] {
            problems += checkObject(object, schema, path)
        }
        if let array = value as? [Any], let items = schema["items"] as? [String: Any] {
            for (index, item) in array.enumerated() { problems += check(item, items, "\(path)[\(index)]") }
        }
        return problems
    }

    private func checkObject(_ object: [String: Any], _ schema: [String: Any], _ path: String) -> [Problem] {
        var problems: [Problem] = []
        let properties = schema["properties"] as? [String: Any] ?? [:]
        for name in schema["required"] as? [String] ?? [] where object[name] == nil {
            problems.append(Problem(path: "\(path).\(name)", message: "is required", value: ""))
        }
        for (name, member) in object.sorted(by: { $0.key < $1.key }) {
            if let property = properties[name] as? [String: Any] {
                problems += check(member, property, "\(path).\(name)")
                continue
            }
            switch schema["additionalProperties"] {
            case let additional as [String: Any]:
                problems += check(member, additional, "\(path).\(name)")
            case let allowed as Bool:
                if !allowed { problems.append(Problem(path: "\(path).\(name)", message: "is not allowed here", value: Self.text(member))) }
            default:
                // Composed schemas (`oneOf`, `allOf`) declare their members in their parts.
                let composed = schema["oneOf"] != nil || schema["allOf"] != nil || schema["anyOf"] != nil
                if strict && !composed && (schema["properties"] != nil || schema["type"] as? String == "object") {
                    problems.append(Problem(path: "\(path).\(name)", message: "is not declared by the schema", value: Self.text(member)))
                }
            }
        }
        return problems
    }

    private func checkOneOf(_ value: Any, _ options: [[String: Any]], discriminator: [String: Any]?, _ path: String) -> [Problem] {
        if let discriminator, let property = discriminator["propertyName"] as? String,
            let tag = (value as? [String: Any])?[property] as? String
        {
            let mapping = discriminator["mapping"] as? [String: String] ?? [:]
            guard let reference = mapping[tag] ?? options.compactMap({ $0["$ref"] as? String }).first(where: { $0.hasSuffix("/\(tag)") }),
                let target = resolve(reference)
            else {
                return [Problem(path: "\(path).\(property)", message: "is not one of the discriminator's values", value: Self.text(tag))]
            }
            return check(value, target, path)
        }
        let results = options.map { check(value, $0, path) }
        let matching = results.filter(\.isEmpty).count
        if matching == 1 { return [] }
        if matching == 0 {
            // The closest option's problems say most about what is wrong.
            return results.min { $0.count < $1.count } ?? [Problem(path: path, message: "matches none of oneOf", value: Self.text(value))]
        }
        return [Problem(path: path, message: "matches \(matching) of oneOf, not exactly one", value: Self.text(value))]
    }

    // MARK: Values

    /// Whether a JSONSerialization value is `true`/`false`: on Linux every NSNumber casts to Bool, on Darwin 0
    /// and 1 do; the boolean ones alone have the `c` (char) type encoding.
    static func isBoolean(_ value: Any) -> Bool {
        guard let number = value as? NSNumber else { return false }
        return String(cString: number.objCType) == "c"
    }

    static func hasType(_ value: Any, _ type: String) -> Bool {
        switch type {
        case "object": return value is [String: Any]
        case "array": return value is [Any]
        case "string": return value is String
        case "boolean": return isBoolean(value)
        case "integer":
            guard let number = value as? NSNumber, !isBoolean(value) else { return false }
            return number.doubleValue.rounded() == number.doubleValue
        case "number": return value is NSNumber && !isBoolean(value)
        default: return true
        }
    }

    static func equal(_ left: Any, _ right: Any) -> Bool {
        if let left = left as? String, let right = right as? String { return left == right }
        if let left = left as? NSNumber, let right = right as? NSNumber { return left == right }
        return false
    }

    static func conforms(_ text: String, format: String) -> Bool {
        switch format {
        case "date-time":
            // RFC 3339: 2026-11-24T06:01:18Z, with optional fraction and a Z or ±hh:mm offset.
            return text.range(of: #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$"#, options: .regularExpression) != nil
        case "uri":
            guard let url = URLComponents(string: text), let scheme = url.scheme else { return false }
            return !scheme.isEmpty
        case "uri-reference":
            return URLComponents(string: text) != nil
        case "email":
            return text.contains("@")
        default:
            return true
        }
    }

    /// A value as short JSON text for a problem.
    static func text(_ value: Any) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
        let text = String(decoding: data, as: UTF8.self)
        return text.count > 120 ? String(text.prefix(117)) + "…" : text
    }
}

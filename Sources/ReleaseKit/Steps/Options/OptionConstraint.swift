import Foundation
import ReleaseHTTP
import ReleaseSupport

/// What a text option's value must be beyond its type, declared with the option (`@StepOption(must: .notBeEmpty,
/// help: …)`) and checked by ``StepOptions/validate()`` with the declared ranges, so a step's `init` states only the
/// rules that join several options. `release steps` and `release schema` show it.
///
/// A constraint reads the texts of the value (``OptionTexts``): a string, each item of a list; an option left out
/// (`nil`) is not checked. A value holding a `${…}` reference is checked once the reference is resolved: during
/// validation the step's verdict on it waits for the run, as for every check a step's `init` makes.
package struct OptionConstraint: Sendable {
    /// How `release steps` names the rule: `not empty`, `owner/name`, `http(s) URL`.
    package let summary: String
    /// The JSON Schema keywords for a string that keeps the rule (`minLength`, `pattern`); empty when the schema
    /// cannot say it.
    package let schema: [String: SchemaValue]
    /// The problem with a value (its texts, and whether they are a list's items); nil when there is none.
    let problem: @Sendable (_ texts: [String], _ isList: Bool) -> String?

    /// A JSON Schema keyword's value.
    package enum SchemaValue: Sendable, Equatable, Codable {
        case integer(Int)
        case string(String)
    }

    /// Text with at least one character (other than spaces and line breaks, when `trimmed`), or a list with at least
    /// one item.
    /// - Parameter message: what is wrong, as `option 'x': <message>` says it.
    package static func notBeEmpty(trimmed: Bool = false, _ message: String = "must not be empty") -> OptionConstraint {
        OptionConstraint(summary: "not empty", schema: trimmed ? ["pattern": .string("\\S")] : ["minLength": .integer(1)]) { texts, isList in
            if isList { return texts.isEmpty ? message : nil }
            return texts.contains { isEmpty($0, trimmed: trimmed) } ? message : nil
        }
    }

    /// A list none of whose items is empty (nor only spaces, when `trimmed`): the first that is, is refused as
    /// `<noun> 2 is empty`.
    package static func haveNoEmptyItem(_ noun: String = "item", trimmed: Bool = false) -> OptionConstraint {
        OptionConstraint(summary: "no empty item", schema: [:]) { texts, _ in
            texts.firstIndex { isEmpty($0, trimmed: trimmed) }.map { "\(noun) \($0 + 1) is empty" }
        }
    }

    /// A list none of whose items is empty, refused with `message` (`an argument is empty`).
    package static func haveNoEmptyItem(saying message: String) -> OptionConstraint {
        OptionConstraint(summary: "no empty item", schema: [:]) { texts, _ in
            texts.contains { $0.isEmpty } ? message : nil
        }
    }

    private static func isEmpty(_ text: String, trimmed: Bool) -> Bool {
        (trimmed ? text.trimmingCharacters(in: .whitespacesAndNewlines) : text).isEmpty
    }

    /// Shorthand for ``notBeEmpty(trimmed:_:)`` with the default message.
    package static var notBeEmpty: OptionConstraint { notBeEmpty() }

    /// `owner/name`: two non-empty parts around one slash, as GitHub names a repository.
    package static let beGitHubRepository = OptionConstraint(summary: "owner/name", schema: ["pattern": .string("^[^/]+/[^/]+$")]) { texts, _ in
        for text in texts {
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return "'\(text)' is not of the form 'owner/name'" }
        }
        return nil
    }

    /// An App Store Connect API key ID: letters and digits (`2X9R4HXF34`), spaces around it aside; a `${…}`
    /// reference stands for one.
    package static let beKeyID = OptionConstraint(summary: "key ID", schema: ["pattern": .string("^\\s*[A-Za-z0-9]+\\s*$")]) { texts, _ in
        for text in texts {
            let id = text.trimmingCharacters(in: .whitespaces)
            guard id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) || id.contains("${") else {
                return "'\(Echo.text(id))' is not a key ID (letters and digits, for example 2X9R4HXF34)"
            }
        }
        return nil
    }

    /// An `http` or `https` URL with a host. With `credentials`, a user or password in it is refused with that
    /// message; nil folds the refusal into the URL's (`… is not an http(s) URL without credentials`).
    /// The URL is echoed redacted.
    package static func beHTTPURL(credentials: String? = nil) -> OptionConstraint {
        OptionConstraint(summary: "http(s) URL", schema: ["pattern": .string("^https?://")]) { texts, _ in
            for text in texts {
                let components = HTTPRequest.httpComponents(text)
                let isURL = components != nil
                let hasCredentials = components.map { $0.user != nil || $0.password != nil } ?? false
                guard let credentials else {
                    if !isURL || hasCredentials { return "'\(HTTPRequest.redact(text))' is not an http(s) URL without credentials" }
                    continue
                }
                if !isURL { return "'\(HTTPRequest.redact(text))' is not an http(s) URL" }
                if hasCredentials { return credentials }
            }
            return nil
        }
    }
}

/// The texts of an option value that an ``OptionConstraint`` reads: the string, each item of a list; nil for an
/// option left out.
package protocol OptionTexts {
    var optionTexts: [String]? { get }
    /// Whether the texts are a list's items (a list is empty without items; a string, when it is "").
    static var optionIsList: Bool { get }
}

extension String: OptionTexts {
    package var optionTexts: [String]? { [self] }
    package static var optionIsList: Bool { false }
}

extension Array: OptionTexts where Element == String {
    package var optionTexts: [String]? { self }
    package static var optionIsList: Bool { true }
}

extension Optional: OptionTexts where Wrapped: OptionTexts {
    package var optionTexts: [String]? { self?.optionTexts }
    package static var optionIsList: Bool { Wrapped.optionIsList }
}

extension PathListOption: OptionTexts {
    package var optionTexts: [String]? { items }
    package static var optionIsList: Bool { true }
}

import Foundation

/// A type a ``StepOption`` can hold: it says how `release steps` names it and shows a default.
package protocol OptionValue: Decodable, Sendable {
    /// The type as `release steps` shows it (`number`, `[path]`, `{string: string}`); `format` says what text is.
    static func optionTypeName(_ format: OptionFormat) -> String
    /// The words the option accepts, when there is a fixed set (``OptionChoice``). Default: nil.
    static var allowedValues: [String]? { get }
    /// The value as written in a pipeline file (`6`, `"origin"`), for a default in `release steps`; nil when
    /// there is nothing worth showing (an empty list). Default: nil.
    var pipelineText: String? { get }
}

extension OptionValue {
    package static var allowedValues: [String]? { nil }
    package var pipelineText: String? { nil }
}

extension String: OptionValue {
    package static func optionTypeName(_ format: OptionFormat) -> String { format.name }
    package var pipelineText: String? {
        "\"" + replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}

extension Bool: OptionValue {
    package static func optionTypeName(_ format: OptionFormat) -> String { "bool" }
    package var pipelineText: String? { description }
}

extension Int: OptionValue {
    package static func optionTypeName(_ format: OptionFormat) -> String { "number" }
    package var pipelineText: String? { description }
}

/// Seconds and other amounts that may have a fraction (`"poll_interval": 0.5`).
extension Double: OptionValue {
    package static func optionTypeName(_ format: OptionFormat) -> String { "number" }
    package var pipelineText: String? { self == rounded() ? String(Int(self)) : description }
}

extension Int64: OptionValue {
    package static func optionTypeName(_ format: OptionFormat) -> String { "number" }
    package var pipelineText: String? { description }
}

extension Array: OptionValue where Element: OptionValue {
    package static func optionTypeName(_ format: OptionFormat) -> String { "[\(Element.optionTypeName(format))]" }
    package var pipelineText: String? {
        let items = compactMap(\.pipelineText)
        return items.isEmpty || items.count != count ? nil : "[" + items.joined(separator: ", ") + "]"
    }
}

extension Dictionary: OptionValue where Key == String, Value: OptionValue {
    package static func optionTypeName(_ format: OptionFormat) -> String { "{string: \(Value.optionTypeName(format))}" }
}

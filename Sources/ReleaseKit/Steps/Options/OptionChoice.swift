/// An option that takes one of a fixed set of words: a `String`-backed enum whose raw values are the words.
///
/// `release steps` lists the words; ``OptionsDecoder`` rejects any other with ``invalidValueMessage(_:)``, at the
/// value's line and column, and during validation lets a `${...}` stand for any of them.
package protocol OptionChoice: OptionValue, RawRepresentable, CaseIterable where RawValue == String {
    /// The message for a word that is none of the cases. Default: `'x' is not one of a, b, c`.
    static func invalidValueMessage(_ text: String) -> String
}

extension OptionChoice {
    package static func invalidValueMessage(_ text: String) -> String {
        "'\(text)' is not one of \(allCases.map(\.rawValue).joined(separator: ", "))"
    }

    package static func optionTypeName(_ format: OptionFormat) -> String {
        allCases.map(\.rawValue).joined(separator: " | ")
    }

    package static var allowedValues: [String]? { allCases.map(\.rawValue) }

    package var pipelineText: String? { rawValue.pipelineText }
}

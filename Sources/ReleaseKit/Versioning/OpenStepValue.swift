/// A value in an OpenStep ("old-style ASCII") property list such as `project.pbxproj`, with the line it is on.
///
/// Strings also keep the byte range of their token in the file (quotes included) and whether they were quoted,
/// which is what lets a bump replace exactly that token and nothing else.
package indirect enum OpenStepValue: Sendable, Equatable {
    case string(Text)
    case array([OpenStepValue], line: Int)
    case dictionary(Dictionary)
    /// `<0fbd77>` data, kept as its hex text.
    case data(String, line: Int)

    /// A string token.
    package struct Text: Sendable, Equatable {
        /// The unescaped value.
        package var value: String
        /// 1-based line of the token.
        package var line: Int
        /// Byte offsets of the token in the file, quotes included.
        package var range: Range<Int>
        /// Whether the token was written in double quotes.
        package var quoted: Bool
    }

    /// A `{ key = value; }` dictionary, entries in file order.
    package struct Dictionary: Sendable, Equatable {
        /// One `key = value;` pair.
        package struct Entry: Sendable, Equatable {
            /// The key token.
            package var key: Text
            /// The value.
            package var value: OpenStepValue
        }
        /// The entries in file order.
        package var entries: [Entry]
        /// Line of the opening brace.
        package var line: Int

        /// The value for `key` (the last one, if a key repeats).
        package subscript(key: String) -> OpenStepValue? {
            entries.last(where: { $0.key.value == key })?.value
        }
    }

    /// The line the value starts on.
    package var line: Int {
        switch self {
        case .string(let text): return text.line
        case .array(_, let line), .data(_, let line): return line
        case .dictionary(let dictionary): return dictionary.line
        }
    }

    /// The string token, if this is one.
    package var text: Text? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The string value, if this is a string.
    package var string: String? { text?.value }

    /// The dictionary, if this is one.
    package var dictionary: Dictionary? {
        if case .dictionary(let dictionary) = self { return dictionary }
        return nil
    }

    /// The elements, if this is an array.
    package var array: [OpenStepValue]? {
        if case .array(let values, _) = self { return values }
        return nil
    }
}

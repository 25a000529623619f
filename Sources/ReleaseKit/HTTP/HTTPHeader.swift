import Foundation

/// One response header field.
package struct HTTPHeader: Sendable, Equatable, Hashable {
    package var name: String
    package var value: String
    package init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

extension StringProtocol {
    /// Whether the two are equal with ASCII letters compared case-insensitively: how HTTP header names, `Expect`
    /// values and hex digests compare. Unlike Foundation's `caseInsensitiveCompare`, which on Linux goes through
    /// an ICU collator and maps about 1.5 MB of its data, this is a byte loop.
    package func equalsIgnoringASCIICase(_ other: some StringProtocol) -> Bool {
        let left = utf8, right = other.utf8
        guard left.count == right.count else { return false }
        return zip(left, right).allSatisfy { a, b in
            a == b || (a | 0x20 == b | 0x20 && (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(a | 0x20))
        }
    }
}

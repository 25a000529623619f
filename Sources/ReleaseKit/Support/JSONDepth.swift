import Foundation

/// How deep a JSON text nests, counted before a parser sees it: `JSONSerialization` recurses once per level, and a
/// text of a few kilobytes of `[` must not exhaust a 512 KiB thread stack (DESIGN §8: nesting depth is bounded).
package enum JSONDepth {
    /// The deepest nesting of `[` and `{` outside strings (0 for a scalar). Malformed text is counted as far as it
    /// goes; the parser refuses it afterwards.
    package static func deepest(in text: Data) -> Int {
        var depth = 0
        var deepest = 0
        var inString = false
        var escaped = false
        for byte in text {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                deepest = max(deepest, depth)
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return deepest
    }
}

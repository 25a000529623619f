import Foundation
import ReleaseSupport

/// The start tags of a small XML file (an `.xcscheme`, a workspace's `contents.xcworkspacedata`): each element's
/// name and attributes, in document order, with their nesting depth.
///
/// Xcode writes these files in a plain, fixed form (no DTD, no namespaces, no CDATA in the parts read here), so a
/// scanner of tags and quoted attributes is enough and keeps the binary free of libxml2. Character references in
/// attribute values are decoded (``XMLEntities``). The input is bounded by ``maximumBytes``; a malformed tag ends the scan there.
struct XMLStartTags {
    struct Tag: Equatable {
        var name: String
        var attributes: [String: String]
        /// 0 for the root element.
        var depth: Int
        /// Names of the enclosing elements, outermost first.
        var path: [String]
    }

    /// Files over this size are not Xcode's: they are refused rather than scanned.
    static let maximumBytes = 4 << 20

    /// - Throws: ``VersioningError`` when the file cannot be read or is larger than ``maximumBytes``.
    static func read(_ path: String) throws -> [Tag] {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        if let size = attributes?[.size] as? NSNumber, size.intValue > maximumBytes {
            throw VersioningError.unreadable(path: path, reason: "larger than \(ByteFormat.size(Int64(maximumBytes)))")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw VersioningError.unreadable(path: path, reason: "cannot be read")
        }
        return scan(String(decoding: data, as: UTF8.self))
    }

    /// The start tags of `text`, in order.
    static func scan(_ text: String) -> [Tag] {
        let bytes = Array(text.utf8)
        var tags: [Tag] = []
        var open: [String] = []
        var index = 0
        func skipSpace() { while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 } }
        func name() -> String {
            let start = index
            while index < bytes.count, !([0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: "="), UInt8(ascii: ">"), UInt8(ascii: "/")].contains(bytes[index])) {
                index += 1
            }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else { index += 1; continue }
            index += 1
            guard index < bytes.count else { break }
            switch bytes[index] {
            case UInt8(ascii: "?"), UInt8(ascii: "!"):
                // Declarations, comments: skip to the end of the construct.
                let isComment = index + 2 < bytes.count && bytes[index + 1] == UInt8(ascii: "-") && bytes[index + 2] == UInt8(ascii: "-")
                while index < bytes.count {
                    if bytes[index] == UInt8(ascii: ">"), !isComment || (index >= 2 && bytes[index - 1] == UInt8(ascii: "-") && bytes[index - 2] == UInt8(ascii: "-")) {
                        break
                    }
                    index += 1
                }
                index += 1
            case UInt8(ascii: "/"):
                index += 1
                let closed = name()
                if let last = open.lastIndex(of: closed) { open.removeSubrange(last...) }
                while index < bytes.count, bytes[index] != UInt8(ascii: ">") { index += 1 }
                index += 1
            default:
                let element = name()
                var attributes: [String: String] = [:]
                var selfClosing = false
                while true {
                    skipSpace()
                    guard index < bytes.count else { return tags }
                    if bytes[index] == UInt8(ascii: ">") { index += 1; break }
                    if bytes[index] == UInt8(ascii: "/") { selfClosing = true; index += 1; continue }
                    let key = name()
                    guard !key.isEmpty else { return tags }
                    skipSpace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else { attributes[key] = ""; continue }
                    index += 1
                    skipSpace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else { return tags }
                    let quote = bytes[index]
                    index += 1
                    let start = index
                    while index < bytes.count, bytes[index] != quote { index += 1 }
                    guard index < bytes.count else { return tags }
                    attributes[key] = XMLEntities.decode(String(decoding: bytes[start..<index], as: UTF8.self))
                    index += 1
                }
                tags.append(Tag(name: element, attributes: attributes, depth: open.count, path: open))
                if !selfClosing { open.append(element) }
            }
        }
        return tags
    }
}

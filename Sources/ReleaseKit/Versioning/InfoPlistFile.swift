import Foundation
import ReleaseSupport

/// An Info.plist, XML or binary, with the location of each top-level string value.
///
/// Values come from `PropertyListSerialization`; for XML files a small scanner finds the line and byte range of
/// each top-level `<string>` so a bump can replace only its text. Binary files have no lines: their values are
/// reported by key and a bump rewrites the file as binary.
package struct InfoPlistFile: Sendable {
    /// Absolute path.
    package let path: String
    /// Whether the file is a binary property list (`bplist00`).
    package let isBinary: Bool
    /// Top-level string values.
    package let strings: [String: String]
    /// Where each top-level string is written (every key in ``strings`` for binary files; XML keys the scanner
    /// could locate).
    package let sites: [String: ValueSite]

    /// How deep a plist's dictionaries and arrays may nest before it is refused: Foundation's parser recurses, and a
    /// hostile file would otherwise exhaust the stack (``PropertyListDepth``).
    package static let maximumDepth = PropertyListDepth.maximum

    /// Reads the file at `path`; with `preprocessorDefinitions` (the target sets `INFOPLIST_PREPROCESS = YES`) the
    /// file is first run through ``PlistPreprocessor`` with them.
    /// - Throws: ``VersioningError/unreadable(path:reason:)`` when it is missing or not a property list,
    ///   ``VersioningError/syntax(file:line:message:)`` when it nests too deep or its directives do not balance.
    package init(contentsOf path: String, preprocessorDefinitions: [String]? = nil) throws {
        guard let original = FileManager.default.contents(atPath: path) else {
            throw VersioningError.unreadable(path: path, reason: "no such file or not readable")
        }
        var data = original
        if !original.starts(with: Array("bplist".utf8)) {
            var bytes = Array(original)
            if let definitions = preprocessorDefinitions, PlistPreprocessor.hasDirectives(bytes) {
                bytes = try PlistPreprocessor.process(bytes, definitions: definitions, path: path)
                data = Data(bytes)
            }
        }
        if let line = PropertyListDepth.lineExceedingMaximum(Array(data)) {
            throw VersioningError.syntax(file: path, line: line, message: "dictionaries and arrays nested deeper than \(Self.maximumDepth) levels")
        }
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw VersioningError.unreadable(path: path, reason: "not a property list")
        }
        guard let dictionary = object as? [String: Any] else {
            throw VersioningError.unreadable(path: path, reason: "the top-level value is not a dictionary")
        }
        var strings: [String: String] = [:]
        for (key, value) in dictionary {
            if let text = value as? String { strings[key] = text }
        }
        self.path = path
        self.strings = strings
        self.isBinary = data.starts(with: Array("bplist".utf8))
        if isBinary {
            var sites: [String: ValueSite] = [:]
            for (key, value) in strings {
                sites[key] = ValueSite(path: path, line: nil, key: key, format: .binaryPlist, range: nil, quoted: false, rawValue: value)
            }
            self.sites = sites
        } else {
            self.sites = Self.locateStrings(in: Array(data), path: path).filter { strings[$0.key] == $0.value.rawValue }
        }
    }

    /// Creates a value from its parts: a plist that exists only as values defined elsewhere (XcodeGen's
    /// `info: properties:`), `sites` pointing at those definitions.
    package init(path: String, strings: [String: String], sites: [String: ValueSite]) {
        self.path = path
        self.isBinary = false
        self.strings = strings
        self.sites = sites
    }

    /// The value of `key` with its site, if it is a top-level string.
    package func entry(_ key: String) -> (value: String, site: ValueSite?)? {
        strings[key].map { ($0, sites[key]) }
    }

    /// Finds `<key>K</key>` followed by `<string>V</string>` in the root `<dict>`.
    static func locateStrings(in bytes: [UInt8], path: String) -> [String: ValueSite] {
        var sites: [String: ValueSite] = [:]
        var index = 0
        var line = 1
        var depth = 0
        var pendingKey: String?

        func readText(until end: [UInt8]) -> (text: String, range: Range<Int>)? {
            let start = index
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "<"), bytes[index...].starts(with: end) {
                    let range = start..<index
                    index += end.count
                    return (XMLEntities.decode(String(decoding: bytes[range], as: UTF8.self)), range)
                }
                if bytes[index] == UInt8(ascii: "\n") { line += 1 }
                index += 1
            }
            return nil
        }

        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") { line += 1 }
            guard byte == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            let rest = bytes[index...]
            if rest.starts(with: Array("<!--".utf8)) {
                index += 4
                while index < bytes.count, !bytes[index...].starts(with: Array("-->".utf8)) {
                    if bytes[index] == UInt8(ascii: "\n") { line += 1 }
                    index += 1
                }
                index += 3
                continue
            }
            var tagEnd = index
            while tagEnd < bytes.count, bytes[tagEnd] != UInt8(ascii: ">") {
                if bytes[tagEnd] == UInt8(ascii: "\n") { line += 1 }
                tagEnd += 1
            }
            guard tagEnd < bytes.count else { break }
            let tag = String(decoding: bytes[(index + 1)..<tagEnd], as: UTF8.self).trimmingCharacters(in: .whitespaces)
            index = tagEnd + 1
            if tag.hasPrefix("?") || tag.hasPrefix("!") { continue }
            let selfClosing = tag.hasSuffix("/")
            let name = String(tag.prefix(while: { $0 != " " && $0 != "/" && $0 != "\t" }))
            if tag.hasPrefix("/") {
                let closing = String(tag.dropFirst())
                if closing == "dict" || closing == "array" { depth -= 1 }
                continue
            }
            if name == "dict" || name == "array" {
                if !selfClosing { depth += 1 }
                pendingKey = nil
                continue
            }
            if selfClosing {
                if depth == 1 { pendingKey = nil }
                continue
            }
            if depth == 1, name == "key" {
                pendingKey = readText(until: Array("</key>".utf8))?.text
                continue
            }
            if depth == 1, name == "string" {
                let startLine = line
                if let (text, range) = readText(until: Array("</string>".utf8)), let key = pendingKey {
                    sites[key] = ValueSite(
                        path: path, line: startLine, key: key, format: .xmlPlist, range: range, quoted: false, rawValue: text
                    )
                }
                pendingKey = nil
                continue
            }
            if depth == 1 { pendingKey = nil }
        }
        return sites
    }
}

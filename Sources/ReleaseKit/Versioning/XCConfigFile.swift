import Foundation

/// An `.xcconfig` file with its `#include` chain flattened into assignments in the order Xcode reads them.
///
/// Supports `KEY = value`, `KEY=value`, `KEY[sdk=iphoneos*] = value`, `//` comments, an optional trailing `;`,
/// `#include "other.xcconfig"` (relative to the including file; a missing file is an error naming the line) and
/// `#include? "optional.xcconfig"` (a missing file is skipped).
public struct XCConfigFile: Sendable {
    /// Absolute path of the file that was loaded.
    public let path: String
    /// Every assignment, included files inlined at their `#include`, in reading order (a later assignment
    /// overrides an earlier one).
    public let assignments: [SettingDefinition]

    /// Loads `path` and everything it includes.
    /// - Throws: ``VersioningError`` for unreadable files, missing required includes, cycles and syntax errors.
    public init(contentsOf path: String) throws {
        self.path = path
        var assignments: [SettingDefinition] = []
        try Self.load(path, stack: [], into: &assignments)
        self.assignments = assignments
    }

    private static func load(_ path: String, stack: [String], into assignments: inout [SettingDefinition]) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw VersioningError.unreadable(path: path, reason: "no such file or not readable")
        }
        let bytes = Array(data)
        let directory = FilePath.parent(of: path)
        var lineStart = 0
        var lineNumber = 0
        while lineStart <= bytes.count {
            lineNumber += 1
            var lineEnd = lineStart
            while lineEnd < bytes.count, bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
            try parseLine(
                bytes: bytes, start: lineStart, end: lineEnd, number: lineNumber, path: path,
                directory: directory, stack: stack, into: &assignments
            )
            if lineEnd >= bytes.count { break }
            lineStart = lineEnd + 1
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
    }

    private static func isIdentifier(_ byte: UInt8, first: Bool) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"): return true
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return !first
        default: return false
        }
    }

    // swiftlint:disable:next function_parameter_count
    private static func parseLine(
        bytes: [UInt8], start: Int, end: Int, number: Int, path: String, directory: String,
        stack: [String], into assignments: inout [SettingDefinition]
    ) throws {
        var index = start
        while index < end, isSpace(bytes[index]) { index += 1 }
        // Everything after `//` is a comment (Xcode does not look at quotes here either).
        var contentEnd = index
        while contentEnd < end {
            if bytes[contentEnd] == UInt8(ascii: "/"), contentEnd + 1 < end, bytes[contentEnd + 1] == UInt8(ascii: "/") { break }
            contentEnd += 1
        }
        while contentEnd > index, isSpace(bytes[contentEnd - 1]) { contentEnd -= 1 }
        guard index < contentEnd else { return }
        let text = String(decoding: bytes[index..<contentEnd], as: UTF8.self)

        if text.hasPrefix("#") {
            try include(text, line: number, path: path, directory: directory, stack: stack, into: &assignments)
            return
        }

        let keyStart = index
        guard isIdentifier(bytes[index], first: true) else {
            throw VersioningError.syntax(file: path, line: number, message: "expected 'KEY = value', found '\(text)'")
        }
        while index < contentEnd, isIdentifier(bytes[index], first: false) { index += 1 }
        // Conditions: `[sdk=iphoneos*][arch=arm64]`.
        while index < contentEnd, bytes[index] == UInt8(ascii: "[") {
            while index < contentEnd, bytes[index] != UInt8(ascii: "]") { index += 1 }
            guard index < contentEnd else {
                throw VersioningError.syntax(file: path, line: number, message: "unterminated condition in '\(text)'")
            }
            index += 1
        }
        let name = String(decoding: bytes[keyStart..<index], as: UTF8.self)
        while index < contentEnd, isSpace(bytes[index]) { index += 1 }
        guard index < contentEnd, bytes[index] == UInt8(ascii: "=") else {
            throw VersioningError.syntax(file: path, line: number, message: "expected '=' after '\(name)', found '\(text)'")
        }
        index += 1
        while index < contentEnd, isSpace(bytes[index]) { index += 1 }
        var valueEnd = contentEnd
        if valueEnd > index, bytes[valueEnd - 1] == UInt8(ascii: ";") {
            valueEnd -= 1
            while valueEnd > index, isSpace(bytes[valueEnd - 1]) { valueEnd -= 1 }
        }
        var value = String(decoding: bytes[index..<valueEnd], as: UTF8.self)
        var quoted = false
        if valueEnd - index >= 2, bytes[index] == UInt8(ascii: "\""), bytes[valueEnd - 1] == UInt8(ascii: "\"") {
            quoted = true
            value = String(decoding: bytes[(index + 1)..<(valueEnd - 1)], as: UTF8.self)
        }
        let (key, condition) = SettingDefinition.split(name)
        let site = ValueSite(
            path: path, line: number, key: key, format: .xcconfig, range: index..<valueEnd, quoted: quoted, rawValue: value
        )
        assignments.append(SettingDefinition(key: key, condition: condition, value: value, site: site))
    }

    // swiftlint:disable:next function_parameter_count
    private static func include(
        _ text: String, line: Int, path: String, directory: String, stack: [String],
        into assignments: inout [SettingDefinition]
    ) throws {
        let optional: Bool
        var rest: Substring
        if text.hasPrefix("#include?") {
            optional = true
            rest = text.dropFirst("#include?".count)
        } else if text.hasPrefix("#include") {
            optional = false
            rest = text.dropFirst("#include".count)
        } else {
            throw VersioningError.syntax(file: path, line: line, message: "unknown directive '\(text)'")
        }
        rest = rest.drop(while: { $0 == " " || $0 == "\t" })
        guard rest.count >= 2, let open = rest.first, open == "\"" || open == "<",
              let closeIndex = rest.dropFirst().firstIndex(of: open == "\"" ? "\"" : ">")
        else {
            throw VersioningError.syntax(file: path, line: line, message: "expected a quoted path in '\(text)'")
        }
        let target = String(rest[rest.index(after: rest.startIndex)..<closeIndex])
        // `<DEVELOPER_DIR>/…` style includes point into Xcode itself; nothing there defines a version.
        if open == "<" { return }
        let resolved = target.hasPrefix("/")
            ? target
            : URL(fileURLWithPath: directory).appendingPathComponent(target).standardizedFileURL.path
        if stack.contains(resolved) || resolved == path {
            throw VersioningError.includeCycle(file: path, line: line, path: target)
        }
        guard FileManager.default.fileExists(atPath: resolved) else {
            if optional { return }
            throw VersioningError.missingInclude(file: path, line: line, path: target)
        }
        try load(resolved, stack: stack + [path], into: &assignments)
    }
}

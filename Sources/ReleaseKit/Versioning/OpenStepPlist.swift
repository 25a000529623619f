import Foundation

/// A read-only parser for OpenStep property lists (`project.pbxproj`) that records the line and byte range of
/// every value.
///
/// Foundation can read these files but neither keeps positions nor writes them back in Xcode's format, so the
/// engine parses them itself and edits the original bytes.
package struct OpenStepPlist: Sendable {
    /// The parsed root value.
    package let root: OpenStepValue
    /// The file's bytes, unchanged.
    package let bytes: [UInt8]
    /// The path the file was read from, for messages.
    package let path: String

    /// Reads and parses the file at `path`.
    /// - Throws: ``VersioningError/unreadable(path:reason:)`` or ``VersioningError/syntax(file:line:message:)``.
    package init(contentsOf path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw VersioningError.unreadable(path: path, reason: "no such file or not readable")
        }
        try self.init(bytes: Array(data), path: path)
    }

    /// Parses `bytes`; `path` only names the file in errors.
    package init(bytes: [UInt8], path: String) throws {
        var parser = Parser(bytes: bytes, path: path)
        self.root = try parser.parseDocument()
        self.bytes = bytes
        self.path = path
    }

    /// How deep dictionaries and arrays may nest. Xcode writes 5 levels; the limit keeps a damaged or hostile
    /// file from exhausting the stack of this recursive parser: at about 2.7 KiB per level in a debug build, 64
    /// levels fit Darwin's 512 KiB secondary-thread stacks with more than half to spare.
    package static let maximumDepth = 64

    private struct Parser {
        let bytes: [UInt8]
        let path: String
        var index = 0
        var line = 1
        var depth = 0

        init(bytes: [UInt8], path: String) {
            self.bytes = bytes
            self.path = path
            // A UTF-8 byte order mark is not part of the syntax.
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        }

        mutating func parseDocument() throws -> OpenStepValue {
            try skipTrivia()
            guard index < bytes.count else { throw error("the file is empty") }
            let value = try parseValue()
            try skipTrivia()
            if index < bytes.count {
                throw error("unexpected '\(character(at: index))' after the end of the top-level value")
            }
            return value
        }

        func error(_ message: String) -> VersioningError {
            .syntax(file: path, line: line, message: message)
        }

        func character(at position: Int) -> String {
            guard position < bytes.count else { return "end of file" }
            return String(decoding: [bytes[position]], as: UTF8.self)
        }

        mutating func skipTrivia() throws {
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\n") {
                    line += 1
                    index += 1
                } else if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") {
                    index += 1
                } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") {
                    while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
                } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "*") {
                    let startLine = line
                    index += 2
                    var closed = false
                    while index + 1 < bytes.count {
                        if bytes[index] == UInt8(ascii: "*"), bytes[index + 1] == UInt8(ascii: "/") {
                            index += 2
                            closed = true
                            break
                        }
                        if bytes[index] == UInt8(ascii: "\n") { line += 1 }
                        index += 1
                    }
                    if !closed {
                        throw VersioningError.syntax(file: path, line: startLine, message: "unterminated comment")
                    }
                } else {
                    return
                }
            }
        }

        mutating func parseValue() throws -> OpenStepValue {
            guard index < bytes.count else { throw error("unexpected end of file, expected a value") }
            switch bytes[index] {
            case UInt8(ascii: "{"): return try parseDictionary()
            case UInt8(ascii: "("): return try parseArray()
            case UInt8(ascii: "<"): return try parseData()
            case UInt8(ascii: "\""), UInt8(ascii: "'"): return .string(try parseQuoted())
            default:
                guard Self.isUnquoted(bytes[index]) else {
                    throw error("unexpected '\(character(at: index))', expected a value")
                }
                return .string(parseUnquoted())
            }
        }

        static func isUnquoted(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                return true
            case UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "."),
                UInt8(ascii: "-"), UInt8(ascii: "+"):
                return true
            default:
                return byte >= 0x80
            }
        }

        mutating func parseUnquoted() -> OpenStepValue.Text {
            let start = index
            while index < bytes.count, Self.isUnquoted(bytes[index]) {
                // `//` and `/*` start comments even right after a token.
                if bytes[index] == UInt8(ascii: "/"), index + 1 < bytes.count,
                    bytes[index + 1] == UInt8(ascii: "/") || bytes[index + 1] == UInt8(ascii: "*")
                {
                    break
                }
                index += 1
            }
            let value = String(decoding: bytes[start..<index], as: UTF8.self)
            return OpenStepValue.Text(value: value, line: line, range: start..<index, quoted: false)
        }

        mutating func parseQuoted() throws -> OpenStepValue.Text {
            let quote = bytes[index]
            let start = index
            let startLine = line
            index += 1
            var value: [UInt8] = []
            while true {
                guard index < bytes.count else {
                    throw VersioningError.syntax(file: path, line: startLine, message: "unterminated string")
                }
                let byte = bytes[index]
                if byte == quote {
                    index += 1
                    break
                }
                if byte == UInt8(ascii: "\n") { line += 1 }
                if byte == UInt8(ascii: "\\"), index + 1 < bytes.count {
                    index += 1
                    let escaped = bytes[index]
                    switch escaped {
                    case UInt8(ascii: "n"): value.append(UInt8(ascii: "\n"))
                    case UInt8(ascii: "t"): value.append(UInt8(ascii: "\t"))
                    case UInt8(ascii: "r"): value.append(UInt8(ascii: "\r"))
                    case UInt8(ascii: "U"), UInt8(ascii: "u"):
                        var hex: [UInt8] = []
                        while hex.count < 4, index + 1 < bytes.count, Self.isHex(bytes[index + 1]) {
                            index += 1
                            hex.append(bytes[index])
                        }
                        if let code = UInt32(String(decoding: hex, as: UTF8.self), radix: 16),
                            let scalar = Unicode.Scalar(code)
                        {
                            value.append(contentsOf: Array(String(Character(scalar)).utf8))
                        }
                    default:
                        if escaped == UInt8(ascii: "\n") { line += 1 }
                        value.append(escaped)
                    }
                    index += 1
                    continue
                }
                value.append(byte)
                index += 1
            }
            return OpenStepValue.Text(
                value: String(decoding: value, as: UTF8.self), line: startLine, range: start..<index, quoted: true
            )
        }

        static func isHex(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
        }

        mutating func parseKey() throws -> OpenStepValue.Text {
            guard index < bytes.count else { throw error("unexpected end of file, expected a key") }
            if bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") { return try parseQuoted() }
            guard Self.isUnquoted(bytes[index]) else {
                throw error("unexpected '\(character(at: index))', expected a key")
            }
            return parseUnquoted()
        }

        mutating func enter() throws {
            depth += 1
            if depth > OpenStepPlist.maximumDepth {
                throw error("dictionaries and arrays nested deeper than \(OpenStepPlist.maximumDepth) levels")
            }
        }

        mutating func parseDictionary() throws -> OpenStepValue {
            let startLine = line
            try enter()
            defer { depth -= 1 }
            index += 1
            var entries: [OpenStepValue.Dictionary.Entry] = []
            while true {
                try skipTrivia()
                guard index < bytes.count else {
                    throw VersioningError.syntax(file: path, line: startLine, message: "unterminated dictionary")
                }
                if bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return .dictionary(OpenStepValue.Dictionary(entries: entries, line: startLine))
                }
                let key = try parseKey()
                try skipTrivia()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else {
                    throw error("expected '=' after key '\(key.value)', found '\(character(at: index))'")
                }
                index += 1
                try skipTrivia()
                let value = try parseValue()
                try skipTrivia()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ";") else {
                    throw error("expected ';' after the value of '\(key.value)', found '\(character(at: index))'")
                }
                index += 1
                entries.append(.init(key: key, value: value))
            }
        }

        mutating func parseArray() throws -> OpenStepValue {
            let startLine = line
            try enter()
            defer { depth -= 1 }
            index += 1
            var values: [OpenStepValue] = []
            while true {
                try skipTrivia()
                guard index < bytes.count else {
                    throw VersioningError.syntax(file: path, line: startLine, message: "unterminated array")
                }
                if bytes[index] == UInt8(ascii: ")") {
                    index += 1
                    return .array(values, line: startLine)
                }
                values.append(try parseValue())
                try skipTrivia()
                guard index < bytes.count else { continue }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                } else if bytes[index] != UInt8(ascii: ")") {
                    throw error("expected ',' or ')' in array, found '\(character(at: index))'")
                }
            }
        }

        mutating func parseData() throws -> OpenStepValue {
            let startLine = line
            index += 1
            var hex: [UInt8] = []
            while index < bytes.count, bytes[index] != UInt8(ascii: ">") {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\n") { line += 1 }
                if Self.isHex(byte) {
                    hex.append(byte)
                } else if byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\t") && byte != UInt8(ascii: "\r") && byte != UInt8(ascii: "\n") {
                    throw error("unexpected '\(character(at: index))' in data")
                }
                index += 1
            }
            guard index < bytes.count else {
                throw VersioningError.syntax(file: path, line: startLine, message: "unterminated data")
            }
            index += 1
            return .data(String(decoding: hex, as: UTF8.self), line: startLine)
        }
    }
}

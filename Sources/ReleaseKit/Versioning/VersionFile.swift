import Foundation

/// A file that holds one version as text: a `VERSION` file (`3.0.0`, optionally `3.0.0+4146` where the part
/// after `+` is the build number), or any file with a single version in it (`--file version.rb`).
///
/// The version is the only token shaped like `X.Y`, `X.Y.Z` (optionally with a suffix such as `b5`) in the file;
/// a file holding nothing but `X` also counts. Everything around it is kept byte for byte by a bump.
package struct VersionFile: Sendable {
    /// Absolute path.
    package let path: String
    /// The version as written in the file.
    package let version: String
    /// Where the version is written.
    package let versionSite: ValueSite
    /// The build number after `+`, if the file has one.
    package let build: String?
    /// Where the build number is written, if the file has one.
    package let buildSite: ValueSite?

    /// Reads `path`.
    /// - Throws: ``VersioningError/versionNotFound(file:found:)`` unless exactly one version is found.
    package init(contentsOf path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw VersioningError.unreadable(path: path, reason: "no such file or not readable")
        }
        let bytes = Array(data)
        var tokens: [(range: Range<Int>, build: Range<Int>?)] = []
        var index = 0
        func isDigit(_ position: Int) -> Bool {
            position < bytes.count && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position])
        }
        func isWordByte(_ position: Int) -> Bool {
            guard position >= 0, position < bytes.count else { return false }
            let byte = bytes[position]
            return isDigit(position) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || byte == UInt8(ascii: "_")
                || byte == UInt8(ascii: ".")
        }
        while index < bytes.count {
            guard isDigit(index), !isWordByte(index - 1) else {
                index += 1
                continue
            }
            let start = index
            while isDigit(index) || (index < bytes.count && bytes[index] == UInt8(ascii: ".") && isDigit(index + 1)) {
                index += 1
            }
            var end = index
            // A suffix such as `b5` or `-rc.1`.
            if end < bytes.count, bytes[end] == UInt8(ascii: "-") || (isWordByte(end) && bytes[end] != UInt8(ascii: ".")) {
                var suffixEnd = end + (bytes[end] == UInt8(ascii: "-") ? 1 : 0)
                while isWordByte(suffixEnd) || (suffixEnd < bytes.count && bytes[suffixEnd] == UInt8(ascii: "-")) { suffixEnd += 1 }
                while suffixEnd > end, bytes[suffixEnd - 1] == UInt8(ascii: ".") || bytes[suffixEnd - 1] == UInt8(ascii: "-") { suffixEnd -= 1 }
                if SemanticVersion(String(decoding: bytes[start..<suffixEnd], as: UTF8.self)) != nil { end = suffixEnd }
            }
            index = end
            var build: Range<Int>?
            if index < bytes.count, bytes[index] == UInt8(ascii: "+"), isDigit(index + 1) {
                let buildStart = index + 1
                index = buildStart
                while isDigit(index) || (index < bytes.count && bytes[index] == UInt8(ascii: ".") && isDigit(index + 1)) { index += 1 }
                build = buildStart..<index
            }
            tokens.append((start..<end, build))
        }
        // A bare `X` counts only when it is the whole file.
        let content = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        tokens = tokens.filter { token in
            let text = String(decoding: bytes[token.range], as: UTF8.self)
            return text.contains(".") || content == text || content.hasPrefix(text + "+")
        }
        guard tokens.count == 1, let token = tokens.first else {
            throw VersioningError.versionNotFound(file: path, found: tokens.count)
        }
        func line(of offset: Int) -> Int {
            bytes[..<offset].reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
        }
        self.path = path
        self.version = String(decoding: bytes[token.range], as: UTF8.self)
        self.versionSite = ValueSite(
            path: path, line: line(of: token.range.lowerBound), key: "version", format: .text, range: token.range,
            quoted: false, rawValue: version
        )
        if let buildRange = token.build {
            let build = String(decoding: bytes[buildRange], as: UTF8.self)
            self.build = build
            self.buildSite = ValueSite(
                path: path, line: line(of: buildRange.lowerBound), key: "build", format: .text, range: buildRange,
                quoted: false, rawValue: build
            )
        } else {
            self.build = nil
            self.buildSite = nil
        }
    }
}

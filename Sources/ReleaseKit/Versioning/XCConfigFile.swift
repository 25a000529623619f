import Foundation
import ReleaseSupport

/// An `.xcconfig` file with its `#include` chain flattened into assignments in the order Xcode reads them.
///
/// Supports `KEY = value`, `KEY=value`, `KEY[sdk=iphoneos*] = value`, `//` comments, an optional trailing `;`,
/// `#include "other.xcconfig"` (relative to the including file) and `#include? "optional.xcconfig"`. A missing
/// included file is not an error: Xcode warns and reads on, and so does this type, recording where the file
/// would have been read (``missing``) so a value it could have defined is reported as uncertain.
package struct XCConfigFile: Sendable {
    /// How deep `#include` may nest: deeper chains are a syntax error rather than a stack overflow. Each file
    /// takes about 5.6 KiB of stack in a debug build: 16 fit Darwin's 512 KiB secondary-thread stacks with more than
    /// half to spare. Real chains (CocoaPods', a shared base, a local override) are 3 or 4 files.
    package static let maximumIncludeDepth = 16

    /// Absolute path of the file that was loaded.
    package let path: String
    /// Every assignment, included files inlined at their `#include`, in reading order (a later assignment
    /// overrides an earlier one).
    package let assignments: [SettingDefinition]
    /// Included files that do not exist, each with the number of ``assignments`` read before it.
    package let missing: [BuildSettings.Layer.Hole]
    /// `file:line: …` notes about the chain, such as an include found only under another letter case.
    package let notes: [String]

    /// The file as a build-settings layer.
    package var layer: BuildSettings.Layer {
        BuildSettings.Layer(definitions: assignments, holes: missing, notes: notes)
    }

    /// Loads `path` and everything it includes.
    /// - Throws: ``VersioningError`` for unreadable files, include cycles and syntax errors.
    package init(contentsOf path: String) throws {
        self.path = path
        var reader = Reader(root: Self.repository(of: path))
        try reader.load(path, stack: [])
        self.assignments = reader.assignments
        self.missing = reader.missing
        self.notes = reader.notes
    }

    /// What loading collects.
    private struct Reader {
        var assignments: [SettingDefinition] = []
        var missing: [BuildSettings.Layer.Hole] = []
        var notes: [String] = []
        /// The folder whose files errors may quote (``XCConfigFile/repository(of:)``), symbolic links resolved.
        let root: String
        /// Whether the file being read is outside ``root``.
        var foreign = false

        init(root: String) {
            self.root = root
        }

        /// A syntax error's message: `quoting` (which quotes the line) for a file in the repository; for a file
        /// outside it, one that quotes nothing. An `#include "/…"` or `"../../…"` can reach any file on the
        /// machine, a private key among them, and an error would echo its first line.
        func message(_ quoting: String) -> String {
            foreign ? "not an xcconfig line (the file is outside '\(root)', so its contents are not shown)" : quoting
        }

        mutating func load(_ path: String, stack: [String]) throws {
            try XCConfigFile.load(path, stack: stack, into: &self)
        }
    }

    /// The repository holding `path`: the nearest folder up with a `.git` in it, else the file's folder; with
    /// symbolic links resolved.
    static func repository(of path: String) -> String {
        let folder = resolved(FilePath.parent(of: path))
        var candidate = folder
        while true {
            if FileManager.default.fileExists(atPath: (candidate as NSString).appendingPathComponent(".git")) { return candidate }
            let parent = FilePath.parent(of: candidate)
            if parent == candidate { return folder }
            candidate = parent
        }
    }

    private static func resolved(_ path: String) -> String {
        Platform.canonicalPath(path) ?? FilePath.absolute(path)
    }

    private static func load(_ path: String, stack: [String], into reader: inout Reader) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw VersioningError.unreadable(path: path, reason: "no such file or not readable")
        }
        let outer = reader.foreign
        defer { reader.foreign = outer }
        let real = resolved(path)
        reader.foreign = !(real == reader.root || real.hasPrefix(reader.root == "/" ? "/" : reader.root + "/"))
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
                directory: directory, stack: stack, into: &reader
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

    private static func parseLine(
        bytes: [UInt8], start: Int, end: Int, number: Int, path: String, directory: String,
        stack: [String], into reader: inout Reader
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
            try include(text, line: number, path: path, directory: directory, stack: stack, into: &reader)
            return
        }

        let keyStart = index
        guard isIdentifier(bytes[index], first: true) else {
            throw VersioningError.syntax(file: path, line: number, message: reader.message("expected 'KEY = value', found '\(text)'"))
        }
        while index < contentEnd, isIdentifier(bytes[index], first: false) { index += 1 }
        // Conditions: `[sdk=iphoneos*][arch=arm64]`.
        while index < contentEnd, bytes[index] == UInt8(ascii: "[") {
            while index < contentEnd, bytes[index] != UInt8(ascii: "]") { index += 1 }
            guard index < contentEnd else {
                throw VersioningError.syntax(file: path, line: number, message: reader.message("unterminated condition in '\(text)'"))
            }
            index += 1
        }
        let name = String(decoding: bytes[keyStart..<index], as: UTF8.self)
        while index < contentEnd, isSpace(bytes[index]) { index += 1 }
        guard index < contentEnd, bytes[index] == UInt8(ascii: "=") else {
            throw VersioningError.syntax(file: path, line: number, message: reader.message("expected '=' after '\(name)', found '\(text)'"))
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
        reader.assignments.append(SettingDefinition(key: key, condition: condition, value: value, site: site))
    }

    private static func include(
        _ text: String, line: Int, path: String, directory: String, stack: [String],
        into reader: inout Reader
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
            throw VersioningError.syntax(file: path, line: line, message: reader.message("unknown directive '\(text)'"))
        }
        rest = rest.drop(while: { $0 == " " || $0 == "\t" })
        guard rest.count >= 2, let open = rest.first, open == "\"" || open == "<",
            let closeIndex = rest.dropFirst().firstIndex(of: open == "\"" ? "\"" : ">")
        else {
            throw VersioningError.syntax(file: path, line: line, message: reader.message("expected a quoted path in '\(text)'"))
        }
        let target = String(rest[rest.index(after: rest.startIndex)..<closeIndex])
        // `<DEVELOPER_DIR>/…` style includes point into Xcode itself; nothing there defines a version.
        if open == "<" { return }
        let resolved = target.hasPrefix("/") ? target : FilePath.absolute(target, in: directory)
        let chain = stack + [path]
        if let start = chain.firstIndex(of: resolved) {
            let cycle = Array(chain[start...]) + [resolved]
            let base = FilePath.parent(of: cycle[0])
            throw VersioningError.includeCycle(file: path, line: line, chain: cycle.map { ProjectVersions.relative($0, to: base) })
        }
        var found = resolved
        // Xcode on a Mac usually reads from a case-insensitive disk (APFS' default), where an include written
        // `Shared.XCConfig` finds `shared.xcconfig`; read it the same way when exactly one file matches, and say
        // so on either disk (the names are compared as the folders list them, not through the disk's lookup).
        if let match = caseInsensitiveMatch(of: resolved) {
            let folder = directory.hasSuffix("/") ? directory : directory + "/"
            let shown = match.hasPrefix(folder) ? String(match.dropFirst(folder.count)) : match
            reader.notes.append(
                "\(path):\(line): '#include \"\(target)\"' read as '\(shown)': the letter case differs, which a "
                    + "case-insensitive disk (a Mac's default) accepts and a case-sensitive one does not")
            found = match
        } else if !FileManager.default.fileExists(atPath: resolved) {
            let missing = MissingFile(path: resolved, reference: optional ? .optionalInclude : .include, referencedAt: "\(path):\(line)")
            reader.missing.append(BuildSettings.Layer.Hole(file: missing, after: reader.assignments.count))
            return
        }
        guard chain.count < maximumIncludeDepth else {
            throw VersioningError.syntax(file: path, line: line, message: "'#include' nested deeper than \(maximumIncludeDepth) files")
        }
        try load(found, stack: chain, into: &reader)
    }

    /// The one existing file whose path equals `path` but for letter case, folder by folder; `nil` when there is
    /// none, or more than one (a case-sensitive disk may hold `a.xcconfig` and `A.xcconfig`: then nothing is guessed),
    /// or when `path` is spelled as the folders hold it. Each name is compared with its folder's listing, which
    /// gives names as written on disk: a case-insensitive disk's lookup (APFS) finds `shared` for `Shared`, and would
    /// hide the difference that breaks the same include on a Linux checkout.
    static func caseInsensitiveMatch(of path: String) -> String? {
        var current = "/"
        for component in path.split(separator: "/").map(String.init) {
            let exact = (current as NSString).appendingPathComponent(component)
            // A folder that cannot be listed (search permission only) is taken as spelled.
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: current) else {
                guard FileManager.default.fileExists(atPath: exact) else { return nil }
                current = exact
                continue
            }
            if names.contains(component) || component == "." || component == ".." {
                current = exact
                continue
            }
            let folded = component.lowercased()
            let matches = names.filter { $0.lowercased() == folded }
            guard matches.count == 1 else { return nil }
            current = (current as NSString).appendingPathComponent(matches[0])
        }
        return current == path ? nil : current
    }
}

import Foundation
import Synchronization

/// What `--resume` reads: the steps that succeeded in the last real run, with a fingerprint of their resolved
/// options, their outputs and artifacts, and the run's clock (so `${now:…}` tags stay the same on resume).
///
/// Kept in `.git/release-journal/` (or `.release/journal/`) under the working directory as JSON lines (a header,
/// then one line appended per succeeded step), and removed when a run succeeds (then there is nothing to resume). Steps whose outputs hold a secret are
/// not recorded: the journal never stores one.
public final class RunJournal: Sendable {
    public struct Entry: Codable, Sendable, Equatable {
        public var fingerprint: String
        public var outputs: [String: OutputValue]
        public var artifacts: [Artifact]
    }

    struct Contents: Codable {
        var pipeline: String
        var profile: String?
        var now: Date
        var steps: [String: Entry]
    }

    public let path: String
    private let contents: Mutex<Contents>

    /// Where the journal of `pipelineFile` lives: inside `.git/` when `directory` is a repository's top (so it
    /// never shows as an untracked file), else in `.release/` under `directory`.
    public static func path(for pipelineFile: String, in directory: String) -> String {
        let name = pipelineFile.replacingOccurrences(of: "/", with: "_")
        var isDirectory: ObjCBool = false
        let git = (directory as NSString).appendingPathComponent(".git")
        let base = FileManager.default.fileExists(atPath: git, isDirectory: &isDirectory) && isDirectory.boolValue
            ? (git as NSString).appendingPathComponent("release-journal") : (directory as NSString).appendingPathComponent(".release/journal")
        return (base as NSString).appendingPathComponent(name)
    }

    /// The first line of the journal file.
    struct Header: Codable {
        var pipeline: String
        var profile: String?
        var now: Date
    }

    /// One line per succeeded step after the header.
    struct Line: Codable {
        var step: String
        var entry: Entry
    }

    /// The journal left by the last run, if it was of the same pipeline and profile.
    public static func load(path: String, pipeline: String, profile: String?) -> RunJournal? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let lines = data.split(separator: UInt8(ascii: "\n"))
        guard let first = lines.first, let header = try? JSONDecoder.journal.decode(Header.self, from: Data(first)),
              header.pipeline == pipeline, header.profile == profile else { return nil }
        var steps: [String: Entry] = [:]
        // A line cut short by a crash is ignored: that step simply runs again.
        for line in lines.dropFirst() {
            if let record = try? JSONDecoder.journal.decode(Line.self, from: Data(line)) { steps[record.step] = record.entry }
        }
        return RunJournal(path: path, contents: Contents(pipeline: header.pipeline, profile: header.profile, now: header.now, steps: steps))
    }

    /// A fresh journal for a new run.
    public init(path: String, pipeline: String, profile: String?, now: Date) {
        self.path = path
        self.contents = Mutex(Contents(pipeline: pipeline, profile: profile, now: now, steps: [:]))
    }

    private init(path: String, contents: Contents) {
        self.path = path
        self.contents = Mutex(contents)
    }

    /// The clock of the journaled run.
    public var now: Date { contents.withLock { $0.now } }

    public func entry(_ step: String) -> Entry? {
        contents.withLock { $0.steps[step] }
    }

    /// Records a succeeded step: one appended line, so a run of many steps writes each once.
    func record(_ step: String, _ entry: Entry) {
        guard let data = try? JSONEncoder.journalLine.encode(Line(step: step, entry: entry)) else { return }
        contents.withLock { state in
            state.steps[step] = entry
            guard let handle = FileHandle(forWritingAtPath: path) else { return }
            defer { try? handle.close() }
            _ = try? handle.seekToEnd()
            try? handle.write(contentsOf: data + Data([UInt8(ascii: "\n")]))
        }
    }

    /// Writes the journal as it is (at the start of a run): the header and the steps already recorded.
    func save() {
        let snapshot = contents.withLock { $0 }
        try? FileManager.default.createDirectory(atPath: FilePath.parent(of: path), withIntermediateDirectories: true)
        guard var data = try? JSONEncoder.journalLine.encode(Header(pipeline: snapshot.pipeline, profile: snapshot.profile, now: snapshot.now)) else { return }
        data.append(UInt8(ascii: "\n"))
        for (step, entry) in snapshot.steps.sorted(by: { $0.key < $1.key }) {
            if let line = try? JSONEncoder.journalLine.encode(Line(step: step, entry: entry)) { data.append(line + Data([UInt8(ascii: "\n")])) }
        }
        try? AtomicFile.write(data, to: path)
    }

    /// Removes the journal: the run finished and nothing is left to resume.
    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// The fingerprint of a step: its kind and its options exactly as resolved for this run.
    static func fingerprint(kind: String, resolved: JSONNode) -> String {
        FileDigest.sha256(of: Data((kind + "\n" + resolved.jsonText).utf8))
    }
}

extension JSONEncoder {
    /// One journal line: compact, so it holds no newline.
    static var journalLine: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .secondsSince1970
        return encoder
    }
}

extension JSONDecoder {
    static var journal: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }
}

extension OutputValue: Codable {
    private enum CodingKeys: String, CodingKey { case type, value }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(String.self, forKey: .type) {
        case "string": self = .string(try container.decode(String.self, forKey: .value))
        case "path": self = .path(try container.decode(String.self, forKey: .value))
        case "number": self = .number(try container.decode(Double.self, forKey: .value))
        case "bool": self = .bool(try container.decode(Bool.self, forKey: .value))
        case "list": self = .list(try container.decode([OutputValue].self, forKey: .value))
        case let other: throw DecodingError.dataCorruptedError(forKey: .type, in: container, debugDescription: "unknown output type '\(other)'")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(typeName, forKey: .type)
        switch self {
        case .string(let text), .path(let text): try container.encode(text, forKey: .value)
        case .number(let number): try container.encode(number, forKey: .value)
        case .bool(let flag): try container.encode(flag, forKey: .value)
        case .list(let items): try container.encode(items, forKey: .value)
        }
    }
}

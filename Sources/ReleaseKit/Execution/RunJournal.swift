import Foundation
import ReleasePipeline
import ReleasePlanning
import ReleaseSteps
import ReleaseSupport
import Synchronization

/// What `--resume` reads: the steps that succeeded in the last real run, with a fingerprint of their resolved
/// options, their outputs and artifacts, and the run's clock (so `${now:…}` tags stay the same on resume); and the
/// steps that ended *waiting* (a `wait` budget ran out), which make the run an open release.
///
/// Kept in `.git/release-journal/` (or `.release/journal/`) under the working directory as JSON lines (a header,
/// then one line appended per succeeded or waiting step), and removed when a whole run succeeds with nothing waiting
/// (then there is nothing to resume). Steps whose outputs hold a secret are
/// not recorded: the journal never stores one.
///
/// The journal also carries a run from one machine to the next (an exported CI workflow, `release export`): paths
/// inside the working directory are stored relative to it (a macOS runner's `/Users/runner/work/…` is not a Linux
/// runner's `/home/runner/work/…`) and made absolute again against the directory of the run that reads them. A run
/// with `--only` writes its own file beside the pipeline's, `NAME@DIGEST` (a digest of the selection), and keeps it
/// when it succeeds; `--resume` reads the pipeline's file and every such part, so the journals of jobs that ran in
/// parallel on other machines add up instead of overwriting each other.
///
/// Every line is signed: the line's JSON, a space, and an HMAC-SHA256 of it (a step's line bound to its file's
/// header) under a key kept outside the checkout (``RunJournalKey``). A journal with a line that does not verify
/// (edited, forged, written under another key) is refused as a whole with ``RunJournalError/untrusted(path:reason:)``,
/// never trusted: a forged line once made `--resume` skip a rejecting gate. The file itself is read only when it is
/// this user's regular file, not a symlink.
package final class RunJournal: Sendable {
    package struct Entry: Codable, Sendable, Equatable {
        package var fingerprint: String
        package var outputs: [String: OutputValue]
        package var artifacts: [Artifact]
    }

    struct Contents: Codable {
        var pipeline: String
        var profile: String?
        var now: Date
        var steps: [String: Entry]
        /// The commit the run started on (nil outside a repository, or in a journal from before it was recorded).
        var commit: String? = nil
        /// Steps that ended waiting (their `wait` budget ran out), with what for: the release is open, and the next run
        /// of the pipeline runs them again.
        var waiting: [String: String] = [:]
    }

    package let path: String
    /// The run's working directory: recorded paths inside it are stored relative to it.
    package let workspace: String
    /// What signs the lines.
    package let key: RunJournalKey
    private let contents: Mutex<Contents>
    /// The header line this process wrote (what its step lines are bound to).
    private let headerLine = Mutex<Data?>(nil)
    /// The most one journal file may hold.
    static let fileLimit = 64 << 20

    /// Where the journal of `pipelineFile` lives (``JournalLocation``); a run with `--only` (`only` not empty) has
    /// its own part, named after what it selects.
    package static func path(for pipelineFile: String, in directory: String, only: [String] = []) -> String {
        var name = pipelineFile.replacingOccurrences(of: "/", with: "_")
        if !only.isEmpty {
            name += "@" + String(FileDigest.sha256(of: Data(Set(only).sorted().joined(separator: "\n").utf8)).prefix(12))
        }
        return (JournalLocation.folder(in: directory) as NSString).appendingPathComponent(name)
    }

    /// The pipeline's journal and its parts: `path` without any `@DIGEST`, then every file named after it.
    static func family(of path: String) -> [String] {
        let folder = FilePath.parent(of: path)
        var base = (path as NSString).lastPathComponent
        if let at = base.lastIndex(of: "@") { base = String(base[..<at]) }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0 == base || $0.hasPrefix(base + "@") }.sorted().map { (folder as NSString).appendingPathComponent($0) }
    }

    /// The first line of the journal file.
    struct Header: Codable {
        var pipeline: String
        var profile: String?
        var now: Date
        var commit: String? = nil
    }

    /// One line per succeeded step after the header, or per step that ended waiting (`waiting` says what for; no
    /// entry). The step's latest line counts.
    struct Line: Codable {
        var step: String
        var entry: Entry?
        var waiting: String? = nil
    }

    /// The journal left by the last runs of the same pipeline and profile: its file at `path` and the parts beside
    /// it (runs with `--only`, perhaps on other machines), merged; nil when there is none. The clock is the earliest
    /// of theirs: the run that started first.
    /// - Throws: ``RunJournalError/untrusted(path:reason:)`` for a file that is not this user's regular file, or
    ///   holds a line whose signature does not verify under `key`.
    package static func load(path: String, pipeline: String, profile: String?, workspace: String, key: RunJournalKey) throws -> RunJournal? {
        var merged: Contents?
        for file in family(of: path) {
            let data: Data
            do {
                guard let read = try RegularFile.read(file, limit: fileLimit, checks: .signedState) else { continue }
                data = read
            } catch {
                throw RunJournalError.untrusted(path: file, reason: "\(error)")
            }
            var lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            // A last line without its newline was cut short by a crash: that step simply runs again.
            // (Split on "\n", a whole file ends with an empty piece: either way the last piece goes.)
            if !lines.isEmpty { lines.removeLast() }
            guard let first = lines.first else { continue }
            guard let headerJSON = verified(Data(first), header: Data(), key: key) else {
                throw RunJournalError.untrusted(path: file, reason: "its header is not signed with \(key.source)")
            }
            guard let header = try? JSONDecoder.stateFile.decode(Header.self, from: headerJSON),
                header.pipeline == pipeline, header.profile == profile
            else { continue }
            var contents = merged ?? Contents(pipeline: pipeline, profile: profile, now: header.now, steps: [:], commit: header.commit)
            contents.now = min(contents.now, header.now)
            for (offset, line) in lines.dropFirst().enumerated() {
                guard let json = verified(Data(line), header: headerJSON, key: key),
                    let record = try? JSONDecoder.stateFile.decode(Line.self, from: json)
                else {
                    throw RunJournalError.untrusted(path: file, reason: "line \(offset + 2) is not signed with \(key.source)")
                }
                if let waiting = record.waiting {
                    contents.waiting[record.step] = waiting
                    contents.steps[record.step] = nil
                } else if let entry = record.entry {
                    contents.steps[record.step] = entry
                    contents.waiting[record.step] = nil
                }
            }
            merged = contents
        }
        guard let merged else { return nil }
        return RunJournal(path: path, workspace: workspace, key: key, contents: merged)
    }

    /// The JSON of a signed line when its signature verifies; nil otherwise.
    private static func verified(_ line: Data, header: Data, key: RunJournalKey) -> Data? {
        guard let space = line.lastIndex(of: UInt8(ascii: " ")) else { return nil }
        let json = Data(line[line.startIndex..<space])
        let signature = String(decoding: line[line.index(after: space)...], as: UTF8.self)
        return key.verifies(signature, of: json, header: header) ? json : nil
    }

    /// `json` signed: the line written to the file, without its newline.
    private func signed(_ json: Data, header: Data) -> Data {
        json + Data(" ".utf8) + Data(key.signature(of: json, header: header).utf8)
    }

    /// A fresh journal for a new run in `workspace`, started on `commit`.
    package init(path: String, pipeline: String, profile: String?, now: Date, workspace: String, key: RunJournalKey, commit: String? = nil) {
        self.path = path
        self.workspace = workspace
        self.key = key
        self.contents = Mutex(Contents(pipeline: pipeline, profile: profile, now: now, steps: [:], commit: commit))
    }

    private init(path: String, workspace: String, key: RunJournalKey, contents: Contents) {
        self.path = path
        self.workspace = workspace
        self.key = key
        self.contents = Mutex(contents)
    }

    /// The clock of the journaled run.
    package var now: Date { contents.withLock { $0.now } }

    /// The steps the journal records as succeeded.
    package var steps: Set<String> { contents.withLock { Set($0.steps.keys) } }

    /// The steps the journal records as waiting (their `wait` budget ran out, and nothing ran them since), with what
    /// for: an open release.
    package var waiting: [String: String] { contents.withLock { $0.waiting } }

    /// The commits the journaled run stands on: the one it started on, and those its steps made or found (a `sha`
    /// output, as `git.commit` gives). Empty when the run recorded none (outside a repository).
    package var commits: Set<String> {
        contents.withLock { state in
            var found = Set(state.commit.map { [$0] } ?? [])
            for entry in state.steps.values { if case .string(let sha)? = entry.outputs["sha"], !sha.isEmpty { found.insert(sha) } }
            return found
        }
    }

    /// Why the journal cannot be resumed on `head`: it belongs to other commits. A journal belongs to the commit its run
    /// started on and the commits that run made; outputs recorded for another commit (its archive, its build number)
    /// are not this commit's.
    package func mismatch(head: String?) -> String? {
        let commits = commits
        guard let head, !commits.isEmpty, !commits.contains(head) else { return nil }
        let started = contents.withLock { $0.commit }.map { String($0.prefix(12)) } ?? commits.sorted().first.map { String($0.prefix(12)) } ?? "-"
        return "the unfinished run was of commit \(started), and HEAD is now \(head.prefix(12)): its steps are not this commit's"
    }

    /// What the journal records for `step`, with its paths made absolute against this run's working directory.
    package func entry(_ step: String) -> Entry? {
        contents.withLock { $0.steps[step] }.map { WorkspacePaths(workspace).absolute($0) }
    }

    /// Records a succeeded step: one appended line, so a run of many steps writes each once. Paths inside the working
    /// directory are stored relative to it.
    func record(_ step: String, _ entry: Entry) {
        let entry = WorkspacePaths(workspace).relative(entry)
        guard let data = try? JSONEncoder.stateFile.encode(Line(step: step, entry: entry)) else { return }
        contents.withLock { state in
            state.steps[step] = entry
            state.waiting[step] = nil
            append(data)
        }
    }

    /// Records a step that ended waiting, and what for (masked by the caller): one appended line. Its dependents are
    /// not recorded: they wait because it does, and run when it is done.
    func recordWaiting(_ step: String, _ what: String) {
        guard let data = try? JSONEncoder.stateFile.encode(Line(step: step, entry: nil, waiting: what)) else { return }
        contents.withLock { state in
            state.steps[step] = nil
            state.waiting[step] = what
            append(data)
        }
    }

    /// Appends one signed line to the file (called with the contents locked, so lines never interleave).
    private func append(_ data: Data) {
        guard let header = headerLine.withLock({ $0 }),
            let descriptor = try? RegularFile.open(path, flags: O_WRONLY | O_APPEND, checks: .signedState)
        else { return }
        defer { close(descriptor) }
        let line = signed(data, header: header) + Data([UInt8(ascii: "\n")])
        _ = line.withUnsafeBytes { Platform.write(descriptor, $0) }
    }

    /// Writes the journal as it is (at the start of a run): the header and the steps already recorded. A fresh run
    /// (`replacingOthers`) first removes the pipeline's other journal files: without `--resume` a run starts anew.
    func save(replacingOthers: Bool = false) {
        if replacingOthers { for file in Self.family(of: path) { try? FileManager.default.removeItem(atPath: file) } }
        let snapshot = contents.withLock { $0 }
        try? FileManager.default.createDirectory(atPath: FilePath.parent(of: path), withIntermediateDirectories: true)
        guard
            let header = try? JSONEncoder.stateFile.encode(
                Header(pipeline: snapshot.pipeline, profile: snapshot.profile, now: snapshot.now, commit: snapshot.commit))
        else { return }
        headerLine.withLock { $0 = header }
        var data = signed(header, header: Data()) + Data([UInt8(ascii: "\n")])
        for (step, entry) in snapshot.steps.sorted(by: { $0.key < $1.key }) {
            if let line = try? JSONEncoder.stateFile.encode(Line(step: step, entry: entry)) { data.append(signed(line, header: header) + Data([UInt8(ascii: "\n")])) }
        }
        for (step, what) in snapshot.waiting.sorted(by: { $0.key < $1.key }) {
            if let line = try? JSONEncoder.stateFile.encode(Line(step: step, entry: nil, waiting: what)) {
                data.append(signed(line, header: header) + Data([UInt8(ascii: "\n")]))
            }
        }
        try? AtomicFile.write(data, to: path)
    }

    /// Removes the journal and its parts: the whole pipeline finished and nothing is left to resume.
    func remove() {
        for file in Self.family(of: path) { try? FileManager.default.removeItem(atPath: file) }
    }

    /// The fingerprint of a step: its kind and its options exactly as resolved for this run, with the working
    /// directory's path taken out, so the same step resolved in another checkout (another machine) has the same one.
    /// `resolved` must hold secrets by name (``Interpolator/secretsAsNames``), never their values: the journal is
    /// uploaded by exported workflows, and an unsalted hash of a short secret gives it away. A changed secret
    /// therefore does not make a step run again on `--resume`; any other changed option does.
    static func fingerprint(kind: String, resolved: JSONNode, workspace: String) -> String {
        var text = resolved.jsonText
        if workspace.count > 1 {
            for spelling in [workspace, workspace.replacingOccurrences(of: "/", with: "\\/")] {
                let slash = spelling.hasSuffix("/") ? "" : (spelling.contains("\\/") ? "\\/" : "/")
                text = text.replacingOccurrences(of: spelling + slash, with: "${workspace}/")
                text = text.replacingOccurrences(of: "\"" + spelling + "\"", with: "\"${workspace}\"")
            }
        }
        return FileDigest.sha256(of: Data((kind + "\n" + text).utf8))
    }
}

/// Why a run journal is not used.
package enum RunJournalError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Edited, forged, written under another key, or not this user's regular file.
    case untrusted(path: String, reason: String)

    package var description: String {
        switch self {
        case .untrusted(let path, let reason):
            return "the run journal '\(path)' is refused: \(reason) (edited, or written by a run with another key); "
                + "--resume never trusts it. Run without --resume to start over, or remove it"
        }
    }
}

extension OutputValue: Codable {
    private enum CodingKeys: String, CodingKey { case type, value }

    package init(from decoder: any Decoder) throws {
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

    package func encode(to encoder: any Encoder) throws {
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

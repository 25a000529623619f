import Foundation
import ReleaseSupport

/// The journal of a ``FileTransaction`` under way: a folder holding each file's original bytes (`N.original`) and
/// `journal.json`, committed before the first file is replaced and removed after the last. Its presence at the start
/// of a run means the process that wrote it died halfway.
enum TransactionJournal {
    struct Record: Codable {
        var pid: Int32
        var started: Date
        var files: [File]
    }

    struct File: Codable {
        /// Absolute path of the file replaced.
        var path: String
        /// How output names it (relative to the project).
        var display: String
        /// The original bytes' file name in the journal folder.
        var backup: String
        /// The temporary file written beside `path` before the rename.
        var temporary: String
        var originalSHA256: String
        var updatedSHA256: String
    }

    static func journalFile(in folder: String) -> String {
        (folder as NSString).appendingPathComponent("journal.json")
    }

    /// Saves the original bytes, then commits the journal: after this, a crash is rolled back by the next run.
    static func begin(_ edits: [FileEdit], temporaries: [String], in folder: String) throws {
        let journal = journalFile(in: folder)
        guard !FileManager.default.fileExists(atPath: journal) else {
            throw VersioningError.unfinishedTransaction(journal: journal)
        }
        do {
            // Anything here without a journal is from a transaction that never committed one, or had removed it.
            try? FileManager.default.removeItem(atPath: folder)
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            var files: [File] = []
            for (index, edit) in edits.enumerated() {
                let backup = "\(index).original"
                try AtomicFile.write(edit.original, to: (folder as NSString).appendingPathComponent(backup))
                files.append(
                    File(
                        path: edit.path, display: edit.displayPath, backup: backup, temporary: temporaries[index],
                        originalSHA256: FileDigest.sha256(of: edit.original), updatedSHA256: FileDigest.sha256(of: edit.updated)))
            }
            let record = Record(pid: getpid(), started: Date(), files: files)
            try AtomicFile.write(try JSONEncoder.stateFile.encode(record), to: journal)
        } catch {
            try? FileManager.default.removeItem(atPath: folder)
            throw VersioningError.writeFailed(path: journal, reason: "\(error)", restored: [])
        }
    }

    /// The transaction is over (done, or undone by itself): the journal goes first, then the saved bytes.
    static func end(_ folder: String) {
        unlink(journalFile(in: folder))
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// The most a journal file may hold: a bump edits a handful of files.
    static let journalLimit = 1 << 20

    /// Undoes what the journal in `folder` records; see ``FileTransaction/recover(journal:checkout:)``.
    ///
    /// The journal is data, never instructions: it is read only when it is this user's regular file (no symlink),
    /// and only when every path in it is one a bump of `checkout` could have written (``problem(with:pid:folder:checkout:)``);
    /// otherwise nothing is touched and the journal is named.
    static func rollBack(_ folder: String, checkout: String) -> [String] {
        guard FileManager.default.fileExists(atPath: folder) else { return [] }
        let journal = journalFile(in: folder)
        if let problem = folderProblem(folder) {
            return ["the journal folder of an interrupted bump '\(folder)' \(problem): left as it is, nothing restored; remove it if no bump was interrupted"]
        }
        let data: Data
        do {
            guard let read = try RegularFile.read(journal, limit: journalLimit, checks: .state) else {
                // No journal: nothing had been replaced yet (or everything had, and the journal was already removed).
                try? FileManager.default.removeItem(atPath: folder)
                return []
            }
            data = read
        } catch {
            return ["cannot use the journal of an interrupted bump: \(error); left as it is, nothing restored"]
        }
        guard let record = try? JSONDecoder.stateFile.decode(Record.self, from: data) else {
            return ["cannot read the journal of an interrupted bump '\(journal)': left as it is; check the files it names, then remove it"]
        }
        for file in record.files {
            if let problem = problem(with: file, pid: record.pid, folder: folder, checkout: checkout) {
                return [
                    "refused the journal of an interrupted bump '\(journal)': \(problem); nothing restored or removed. A bump writes only inside its checkout: if you did not expect this file, remove '\(folder)'"
                ]
            }
        }
        var restored: [String] = [], changed: [String] = [], failed: [String] = []
        var removed = 0
        for file in record.files {
            let current = (try? RegularFile.read(file.path, limit: Int.max, checks: .input)).flatMap { $0 }.map { FileDigest.sha256(of: $0) }
            if current == file.updatedSHA256 {
                let backup = (folder as NSString).appendingPathComponent(file.backup)
                if let original = (try? RegularFile.read(backup, limit: Int.max, checks: .state)).flatMap({ $0 }),
                    FileDigest.sha256(of: original) == file.originalSHA256,
                    (try? AtomicFile.write(original, to: file.path)) != nil
                {
                    restored.append(file.display)
                } else {
                    failed.append(file.display)
                }
            } else if current != file.originalSHA256 {
                changed.append(file.display)
            }
            // The temporary it named, and any other the same process left beside the file.
            if unlink(file.temporary) == 0 { removed += 1 }
            removed += AtomicFile.removeTemporaries(
                of: record.pid, in: FilePath.parent(of: file.path),
                names: [(file.path as NSString).lastPathComponent])
        }
        func list(_ paths: [String]) -> String { paths.map { "'\($0)'" }.joined(separator: ", ") }
        let who = "pid \(record.pid), started \(Timestamp.iso8601(record.started))"
        var lines: [String] = []
        if restored.isEmpty {
            lines.append("rolled back an interrupted bump (\(who)): it had replaced no file yet")
        } else {
            lines.append("rolled back an interrupted bump (\(who)): restored \(list(restored)) to their contents before it")
        }
        if removed > 0 { lines.append("removed \(removed) temporary file\(removed == 1 ? "" : "s") the interrupted bump left") }
        if !changed.isEmpty { lines.append("\(list(changed)) changed since the interrupted bump: left as \(changed.count == 1 ? "it is" : "they are")") }
        if failed.isEmpty {
            end(folder)
        } else {
            lines.append("cannot restore \(list(failed)) from '\(folder)': the journal stays for the next run")
        }
        return lines
    }

    /// Why `file` is not an entry a bump of `checkout` wrote, or nil when it is: its path lies inside the checkout
    /// (after resolving the symlinks of its folder) and is not itself a symlink, its temporary is `.NAME.tmp-PID-N`
    /// beside it (PID the journal's), and its backup is `N.original` in the journal folder.
    static func problem(with file: File, pid: Int32, folder: String, checkout: String) -> String? {
        let root = Platform.canonicalPath(checkout) ?? FilePath.normalized(checkout)
        guard file.path.hasPrefix("/"), FilePath.normalized(file.path) == file.path else {
            return "'\(Echo.text(file.path))' is not an absolute, normalised path"
        }
        let name = (file.path as NSString).lastPathComponent
        guard let parent = Platform.canonicalPath(FilePath.parent(of: file.path)),
            let inside = FilePath.relative(parent + "/" + name, to: root), inside != "."
        else {
            return "'\(Echo.text(file.path))' is outside the checkout '\(root)'"
        }
        if let first = inside.split(separator: "/").first, first == ".git" || first == ".release" {
            return "'\(Echo.text(file.path))' is in the checkout's own state folder, which no bump edits"
        }
        var info = stat()
        if lstat(file.path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
            return "'\(Echo.text(file.path))' is not a regular file"
        }
        let prefix = ".\(name).tmp-\(pid)-"
        let temporaryName = (file.temporary as NSString).lastPathComponent
        guard FilePath.parent(of: file.temporary) == FilePath.parent(of: file.path), temporaryName.hasPrefix(prefix),
            case let suffix = temporaryName.dropFirst(prefix.count), !suffix.isEmpty, suffix.allSatisfy(\.isASCII), suffix.allSatisfy(\.isNumber)
        else {
            return "its temporary file '\(Echo.text(file.temporary))' is not '\(prefix)N' beside '\(Echo.text(file.path))'"
        }
        guard file.backup.hasSuffix(".original"), case let number = file.backup.dropLast(".original".count), !number.isEmpty,
            number.allSatisfy(\.isASCII), number.allSatisfy(\.isNumber)
        else {
            return "its backup '\(Echo.text(file.backup))' is not 'N.original' in '\(folder)'"
        }
        return nil
    }

    /// Why the journal folder cannot be trusted (a symlink, not a folder, another user's), or nil.
    private static func folderProblem(_ folder: String) -> String? {
        var info = stat()
        guard lstat(folder, &info) == 0 else { return nil }
        if info.st_mode & S_IFMT == S_IFLNK { return "is a symbolic link" }
        if info.st_mode & S_IFMT != S_IFDIR { return "is not a folder" }
        if info.st_uid != geteuid() { return "belongs to another user (uid \(info.st_uid))" }
        return nil
    }
}

import Foundation

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

    /// Undoes what the journal in `folder` records; see ``FileTransaction/recover(journal:)``.
    static func rollBack(_ folder: String) -> [String] {
        guard FileManager.default.fileExists(atPath: folder) else { return [] }
        let journal = journalFile(in: folder)
        guard let data = FileManager.default.contents(atPath: journal) else {
            // No journal: nothing had been replaced yet (or everything had, and the journal was already removed).
            try? FileManager.default.removeItem(atPath: folder)
            return []
        }
        guard let record = try? JSONDecoder.stateFile.decode(Record.self, from: data) else {
            return ["cannot read the journal of an interrupted bump '\(journal)': left as it is; check the files it names, then remove it"]
        }
        var restored: [String] = [], changed: [String] = [], failed: [String] = []
        var removed = 0
        for file in record.files {
            let current = FileManager.default.contents(atPath: file.path).map { FileDigest.sha256(of: $0) }
            if current == file.updatedSHA256 {
                let backup = (folder as NSString).appendingPathComponent(file.backup)
                if let original = FileManager.default.contents(atPath: backup), FileDigest.sha256(of: original) == file.originalSHA256,
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
}

import Foundation
import ReleaseSupport

/// Writes a set of files all or nothing, even when the process is killed halfway (`kill -9`, a crash, a power cut).
///
/// Each file is checked to still hold the bytes the plan was made from. With a journal folder, every file's original
/// bytes are saved there and a journal listing the files, their digests before and after and the temporary files
/// about to be written is committed (atomically) before anything is replaced. Then every new content is written to a
/// temporary file beside its target, and only then are the temporaries renamed over the targets (each rename is
/// atomic); the journal is removed last. If writing a temporary fails, nothing was renamed and the temporaries are
/// removed. If a rename fails, the files already renamed get their original bytes back (atomically too), so no file
/// is left changed. If the process dies in between, the journal stays, and ``recover(journal:checkout:)`` (which the next
/// `release run` or `release bump` calls once it holds the checkout's lock) puts every file back as it was and
/// removes the temporaries: the re-run then bumps once, from where the project was.
package enum FileTransaction {
    /// The step a fault hook is called before.
    package enum Phase: String, Sendable {
        case writeTemporary
        case rename
    }

    /// Called before each phase for each path, with the temporary file's path (before `writeTemporary`, the path
    /// it will be created at); throwing simulates a failure there, and tests also use it to make the real step
    /// fail (a directory where the temporary file goes). Throwing ``SimulatedCrash`` stops `apply` right there
    /// without undoing anything, as a killed process would.
    package typealias FaultHook = @Sendable (_ phase: Phase, _ path: String, _ temporary: String) throws -> Void

    /// Thrown by a fault hook: `apply` leaves everything as it is at that moment, like a process killed there.
    package struct SimulatedCrash: Error {
        package init() {}
    }

    /// The journal folder of the checkout holding `directory`: `release-bump` in its git dir (or `.release/`).
    package static func journalFolder(for directory: String) throws -> String {
        (try GitDirectory.stateFolder(for: directory) as NSString).appendingPathComponent("release-bump")
    }

    /// Applies `edits` all or nothing.
    /// - Parameter journal: the folder for the journal that lets a later run undo a transaction this process
    ///   could not finish (``journalFolder(for:)``); nil for none.
    /// - Throws: ``VersioningError/staleFile(path:line:expected:)`` when a file changed since it was read,
    ///   ``VersioningError/unfinishedTransaction(journal:)`` when the journal folder holds one not yet rolled back,
    ///   or ``VersioningError/writeFailed(path:reason:restored:)`` after undoing what was written.
    package static func apply(_ edits: [FileEdit], journal: String? = nil, fault: FaultHook? = nil) throws {
        // First: the files of an unfinished transaction are likely to look changed, which would hide why.
        if let journal, FileManager.default.fileExists(atPath: TransactionJournal.journalFile(in: journal)) {
            throw VersioningError.unfinishedTransaction(journal: TransactionJournal.journalFile(in: journal))
        }
        for edit in edits {
            guard let current = FileManager.default.contents(atPath: edit.path), current == edit.original else {
                throw VersioningError.staleFile(path: edit.path, line: nil, expected: "the contents read when planning")
            }
        }
        let temporaries = edits.map { AtomicFile.temporaryPath(for: $0.path) }
        if let journal {
            try TransactionJournal.begin(edits, temporaries: temporaries, in: journal)
        }
        var written: [String] = []
        func removeTemporaries(from index: Int) {
            for temporary in written[index...] { unlink(temporary) }
        }
        for (index, edit) in edits.enumerated() {
            do {
                let mode = (try? FileManager.default.attributesOfItem(atPath: edit.path)[.posixPermissions] as? Int) ?? 0o644
                try fault?(.writeTemporary, edit.path, temporaries[index])
                try AtomicFile.writeTemporary(edit.updated, at: temporaries[index], for: edit.path, mode: mode)
                written.append(temporaries[index])
            } catch let crash as SimulatedCrash {
                throw crash
            } catch {
                removeTemporaries(from: 0)
                if let journal { TransactionJournal.end(journal) }
                throw VersioningError.writeFailed(path: edit.path, reason: reason(error), restored: [])
            }
        }
        var renamed: [FileEdit] = []
        for (index, edit) in edits.enumerated() {
            do {
                try fault?(.rename, edit.path, temporaries[index])
                try AtomicFile.commit(temporaries[index], to: edit.path)
            } catch let crash as SimulatedCrash {
                throw crash
            } catch {
                removeTemporaries(from: index)
                var restored: [String] = []
                for done in renamed.reversed() {
                    if (try? AtomicFile.write(done.original, to: done.path)) != nil { restored.append(done.path) }
                }
                // A file that could not be put back stays in the journal, for the next run to try again.
                if let journal, restored.count == renamed.count { TransactionJournal.end(journal) }
                throw VersioningError.writeFailed(path: edit.path, reason: reason(error), restored: restored.reversed())
            }
            renamed.append(edit)
        }
        if let journal { TransactionJournal.end(journal) }
    }

    /// Rolls back the transaction a process that died left in `journal`: every file it had already replaced gets
    /// its original bytes back, the temporary files are removed, and so is the journal. A file changed since (by
    /// hand) is left as it is and named. Call only while holding the checkout's lock (``CheckoutLock``), so the
    /// transaction is not one still running.
    ///
    /// The journal is not trusted: a path outside `checkout`, a temporary file not named as this process names them
    /// beside its file, a backup outside the journal folder, a journal that is a symlink or another user's file, and
    /// nothing is done (the journal is named instead).
    /// - Parameter checkout: the checkout's root (``GitDirectory/checkoutRoot(of:)``): every file a bump replaces lies
    ///   inside it.
    /// - Returns: one line per thing done, for the user; empty when there was nothing to recover.
    package static func recover(journal: String, checkout: String) -> [String] {
        TransactionJournal.rollBack(journal, checkout: checkout)
    }

    private static func reason(_ error: Error) -> String {
        if let error = error as? AtomicFileError, case .cannotWrite(_, let reason) = error { return reason }
        return "\(error)"
    }
}

import Foundation

/// Writes a set of files all or nothing.
///
/// Each file is checked to still hold the bytes the plan was made from, then every new content is written to a
/// temporary file beside its target, and only then are the temporaries renamed over the targets (each rename is
/// atomic). If writing a temporary fails, nothing was renamed and the temporaries are removed. If a rename
/// fails, the files already renamed get their original bytes back (atomically too), so no file is left changed.
public enum FileTransaction {
    /// The step a fault hook is called before.
    public enum Phase: String, Sendable {
        case writeTemporary
        case rename
    }

    /// Called before each phase for each path, with the temporary file's path (before `writeTemporary`, the path
    /// it will be created at); throwing simulates a failure there, and tests also use it to make the real step
    /// fail (a directory where the temporary file goes).
    public typealias FaultHook = @Sendable (_ phase: Phase, _ path: String, _ temporary: String) throws -> Void

    /// Applies `edits` all or nothing.
    /// - Throws: ``VersioningError/staleFile(path:line:expected:)`` when a file changed since it was read, or
    ///   ``VersioningError/writeFailed(path:reason:restored:)`` after undoing what was written.
    public static func apply(_ edits: [FileEdit], fault: FaultHook? = nil) throws {
        for edit in edits {
            guard let current = FileManager.default.contents(atPath: edit.path), current == edit.original else {
                throw VersioningError.staleFile(path: edit.path, line: nil, expected: "the contents read when planning")
            }
        }
        var temporaries: [String] = []
        func removeTemporaries(from index: Int) {
            for temporary in temporaries[index...] { unlink(temporary) }
        }
        for edit in edits {
            do {
                let mode = (try? FileManager.default.attributesOfItem(atPath: edit.path)[.posixPermissions] as? Int) ?? 0o644
                let temporary = AtomicFile.temporaryPath(for: edit.path)
                try fault?(.writeTemporary, edit.path, temporary)
                try AtomicFile.writeTemporary(edit.updated, at: temporary, for: edit.path, mode: mode)
                temporaries.append(temporary)
            } catch {
                removeTemporaries(from: 0)
                throw VersioningError.writeFailed(path: edit.path, reason: reason(error), restored: [])
            }
        }
        var renamed: [FileEdit] = []
        for (index, edit) in edits.enumerated() {
            do {
                try fault?(.rename, edit.path, temporaries[index])
                try AtomicFile.commit(temporaries[index], to: edit.path)
            } catch {
                removeTemporaries(from: index)
                var restored: [String] = []
                for done in renamed.reversed() {
                    if (try? AtomicFile.write(done.original, to: done.path)) != nil { restored.append(done.path) }
                }
                throw VersioningError.writeFailed(path: edit.path, reason: reason(error), restored: restored.reversed())
            }
            renamed.append(edit)
        }
    }

    private static func reason(_ error: Error) -> String {
        if let error = error as? AtomicFileError, case .cannotWrite(_, let reason) = error { return reason }
        return "\(error)"
    }
}

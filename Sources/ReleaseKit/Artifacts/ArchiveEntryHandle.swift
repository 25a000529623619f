import Foundation
internal import CArchive

/// Owns one `archive_entry`, freed in `deinit`.
final class ArchiveEntryHandle {
    let pointer: OpaquePointer

    init() throws(ArchiveError) {
        guard let entry = archive_entry_new() else {
            throw ArchiveError.io(path: "archive entry", reason: "out of memory")
        }
        pointer = entry
    }

    deinit { archive_entry_free(pointer) }

    /// Fills the entry for one file of a tree being zipped.
    func describe(_ file: ZipSourceEntry, deterministic: Bool) {
        archive_entry_clear(pointer)
        // Swift strings are UTF-8, and the writer's handle takes its "current locale" to be UTF-8 (see
        // LibArchive.withUTF8CharacterType), so names and link targets are stored byte for byte and non-ASCII
        // names are flagged UTF-8 (general purpose bit 11).
        archive_entry_set_pathname(pointer, file.entryName)
        archive_entry_set_mode(pointer, mode_t(file.mode))
        switch file.kind {
        case .file:
            archive_entry_set_size(pointer, file.size)
        case .symlink(let target):
            archive_entry_set_symlink(pointer, target)
            archive_entry_set_size(pointer, 0)
        case .directory:
            archive_entry_set_size(pointer, 0)
        }
        if deterministic {
            // No timestamps at all: the DOS field then holds libarchive's minimum, 1980-01-01 00:00, in every
            // time zone (a fixed Unix time would shift with the writer's zone), and the "UT" field holds none.
            archive_entry_set_uid(pointer, 0)
            archive_entry_set_gid(pointer, 0)
        } else {
            archive_entry_set_mtime(pointer, file.modificationTime, 0)
            archive_entry_set_uid(pointer, la_int64_t(file.uid))
            archive_entry_set_gid(pointer, la_int64_t(file.gid))
        }
    }
}

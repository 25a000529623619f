import Foundation
import ReleaseSupport

/// Lists what `zip -ry` would store for some sources: every file, folder and link, never following links.
///
/// Entries are named relative to each source's parent (`App.xcarchive/Info.plist`) and sorted byte-wise, a
/// folder before its contents, so the order is the same on every machine and in every locale.
enum ZipSourceTree {
    /// The entries for `sources`, in zip order.
    /// - Parameters:
    ///   - sources: Absolute paths of files or folders.
    ///   - exclude: `fnmatch(3)` patterns matched against each entry name (without a trailing `/`) and its last
    ///     component; an excluded folder is skipped whole.
    ///   - skipping: Absolute paths never listed (the zip being written, when it lies inside the tree).
    /// - Throws: ``ArchiveError`` for a missing source, an unreadable folder or an unsupported file type.
    static func scan(sources: [String], exclude: [String] = [], skipping: Set<String> = []) throws(ArchiveError) -> [ZipSourceEntry] {
        var entries: [ZipSourceEntry] = []
        var names: Set<String> = []
        for source in sources {
            let name = (source as NSString).lastPathComponent
            guard !name.isEmpty, name != "/" else { throw ArchiveError.unsupportedFileType(path: source, type: "root folder") }
            guard names.insert(name).inserted else { throw ArchiveError.duplicateEntry(name) }
            try visit(path: source, entryName: name, exclude: exclude, skipping: skipping, isRoot: true, into: &entries)
        }
        return entries
    }

    private static func visit(
        path: String, entryName: String, exclude: [String], skipping: Set<String>, isRoot: Bool,
        into entries: inout [ZipSourceEntry]
    ) throws(ArchiveError) {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if isRoot && errno == ENOENT { throw ArchiveError.missingSource(path: path) }
            throw ArchiveError.io(path: path, reason: String(cString: strerror(errno)))
        }
        let type = info.st_mode & S_IFMT
        let kind: ZipSourceEntry.Kind
        var size: Int64 = 0
        switch type {
        case S_IFREG:
            kind = .file
            size = Int64(info.st_size)
        case S_IFDIR:
            kind = .directory
        case S_IFLNK:
            kind = .symlink(target: try readLink(path))
        default:
            throw ArchiveError.unsupportedFileType(path: path, type: typeName(type))
        }
        let name = kind == .directory ? entryName + "/" : entryName
        entries.append(
            ZipSourceEntry(
                path: path, entryName: name, kind: kind, mode: UInt32(info.st_mode), size: size,
                modificationTime: Platform.modificationTime(info), uid: UInt32(info.st_uid), gid: UInt32(info.st_gid)))
        guard kind == .directory else { return }

        let children: [String]
        do {
            children = try FileManager.default.contentsOfDirectory(atPath: path)
        } catch {
            throw ArchiveError.io(path: path, reason: "cannot list folder")
        }
        for child in children.sorted(by: { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }) {
            let childPath = path + "/" + child
            let childName = entryName + "/" + child
            if skipping.contains(childPath) || isExcluded(childName, patterns: exclude) { continue }
            try visit(path: childPath, entryName: childName, exclude: exclude, skipping: skipping, isRoot: false, into: &entries)
        }
    }

    /// Whether `entryName` (or its last component) matches one of `patterns`.
    static func isExcluded(_ entryName: String, patterns: [String]) -> Bool {
        guard !patterns.isEmpty else { return false }
        let trimmed = entryName.hasSuffix("/") ? String(entryName.dropLast()) : entryName
        let last = (trimmed as NSString).lastPathComponent
        return patterns.contains { fnmatch($0, trimmed, 0) == 0 || fnmatch($0, last, 0) == 0 }
    }

    /// The target of the link at `path`, exactly as stored (relative or absolute, dangling or not).
    static func readLink(_ path: String) throws(ArchiveError) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { throw ArchiveError.io(path: path, reason: String(cString: strerror(errno))) }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func typeName(_ type: mode_t) -> String {
        switch type {
        case S_IFIFO: return "fifo"
        case S_IFSOCK: return "socket"
        case S_IFCHR: return "character device"
        case S_IFBLK: return "block device"
        default: return "unknown"
        }
    }
}

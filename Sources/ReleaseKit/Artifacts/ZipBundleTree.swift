import Foundation

/// The inside of a zip (an `.ipa`, a zipped `.xcarchive`) seen as a ``BundleTree``.
///
/// The entry list and every `Info.plist` are read in one pass when it is created; Mach-O headers in a
/// second pass by ``machOFiles(_:)``. Nothing is extracted to disk.
struct ZipBundleTree: BundleTree {
    let archivePath: String
    private var kinds: [String: ZipEntry.Kind] = [:]
    private var links: [String: String] = [:]
    private var childNames: [String: Set<String>] = [:]
    private var plists: [String: Data] = [:]

    /// Reads the entry list of `archivePath`, and every `Info.plist` (each at most ``IPAContents/infoPlistLimit``).
    /// - Throws: ``ArchiveError``, ``ArchiveError/entryTooLarge(archive:entry:declaredSize:limit:)`` for an
    ///   Info.plist over the limit.
    init(archivePath: String) throws {
        self.archivePath = archivePath
        let reader = try ZipReader(path: archivePath)
        while let entry = try reader.next() {
            let path = entry.path.split(separator: "/").joined(separator: "/")
            guard !path.isEmpty else { continue }
            kinds[path] = entry.kind
            if let target = entry.symlinkTarget { links[path] = target }
            // Folders are not always stored; every prefix of a name is one.
            var components = path.split(separator: "/").map(String.init)
            while !components.isEmpty {
                let name = components.removeLast()
                let parent = components.joined(separator: "/")
                childNames[parent, default: []].insert(name)
                if !parent.isEmpty && kinds[parent] == nil { kinds[parent] = .directory }
            }
            if entry.kind == .file, (path as NSString).lastPathComponent == "Info.plist" {
                plists[path] = try reader.readAll(limit: IPAContents.infoPlistLimit)
            }
        }
    }

    func kind(of path: String) -> ZipEntry.Kind? { path.isEmpty ? .directory : kinds[path] }

    func children(of path: String) -> [String] { (childNames[path] ?? []).sorted() }

    func linkTarget(of path: String) -> String? { links[path] }

    func contents(of path: String) -> Data? { plists[path] }

    func machOFiles(_ paths: [String]) throws -> [String: Result<MachOFile, MachOError>] {
        let wanted = Set(paths)
        var files: [String: Result<MachOFile, MachOError>] = [:]
        let reader = try ZipReader(path: archivePath)
        while let entry = try reader.next() {
            let path = entry.path.split(separator: "/").joined(separator: "/")
            guard wanted.contains(path), entry.kind == .file else { continue }
            do {
                files[path] = .success(try MachOReader.read(ZipEntryStreamSource(reader: reader, entry: entry), path: path))
            } catch {
                files[path] = .failure(error)
            }
        }
        return files
    }
}

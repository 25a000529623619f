import Foundation
import ReleaseSupport

/// Finds binaries and dSYMs at a path and matches their UUIDs: what `release dsym`, `dsym.package` and
/// `gate.dsym` are built on.
///
/// - A Mach-O file: its slices, with verdicts when its `<name>.dSYM` is beside it (``pair(_:)`` judges it
///   against dSYMs given elsewhere).
/// - An `.app`, `.appex` or `.framework`: its executables (main, `Frameworks/*.framework`, `PlugIns/*.appex`,
///   `Watch/*.app`, …) and the `.dSYM` bundles beside it (Xcode's build-folder layout), with verdicts.
/// - A `.dSYM`: every file in `Contents/Resources/DWARF/` (Xcode 16 debug builds have two: the executable's
///   and its `.debug.dylib`'s). Bundles may be named after the binary or, as downloaded symbol bundles are, by
///   UUID with a `Contents/Resources/<UUID>.plist`; matching goes by the UUIDs inside either way. A file there
///   that is not Mach-O, empty or damaged is skipped with a warning (``DsymInspection/warnings``).
/// - An `.xcarchive` or any folder: the bundles inside (`Products/Applications/*.app`, `dSYMs/*.dSYM`) and the
///   bare files named like a dSYM found there (a command-line tool beside its dSYM, or in an archive's
///   `Products/usr/local/bin`), with verdicts.
/// - An `.ipa` or other zip: the same, read from the zip without extracting it.
package enum DsymInspector {
    /// Inspects `path`, blocking the calling thread.
    /// - Throws: ``MachOError`` when the path or one of its binaries cannot be read, ``ArchiveError`` for a
    ///   broken zip.
    package static func inspect(_ path: String) throws -> DsymInspection {
        let absolute = ZipWriter.absolute(path)
        var info = stat()
        guard stat(absolute, &info) == 0 else {
            throw MachOError.unreadable(path: absolute, reason: String(cString: strerror(errno)).lowercased())
        }
        let parent = FilePath.parent(of: absolute)
        let name = (absolute as NSString).lastPathComponent
        let pathExtension = (name as NSString).pathExtension

        let kind: InspectedKind
        let root: String
        var scanner: BundleScanner
        if info.st_mode & S_IFMT == S_IFDIR {
            switch pathExtension {
            case "app", "appex", "framework":
                kind = pathExtension == "app" ? .app : pathExtension == "appex" ? .appExtension : .framework
                root = parent
                scanner = BundleScanner(tree: DiskBundleTree(root: parent))
                scanner.add(bundle: name)
                let tree = DiskBundleTree(root: parent)
                for sibling in tree.children(of: "") where (sibling as NSString).pathExtension == "dSYM" {
                    scanner.addDsym(sibling)
                }
            case "dSYM":
                kind = .dsym
                root = parent
                scanner = BundleScanner(tree: DiskBundleTree(root: parent))
                scanner.addDsym(name)
            default:
                kind = pathExtension == "xcarchive" ? .xcarchive : .folder
                root = absolute
                scanner = BundleScanner(tree: DiskBundleTree(root: absolute))
                scanner.walk("")
            }
        } else if isZip(absolute) {
            kind = pathExtension == "ipa" ? .ipa : .zip
            root = absolute
            scanner = BundleScanner(tree: try ZipBundleTree(archivePath: absolute))
            scanner.walk("")
        } else {
            kind = .binary
            root = parent
            let tree = DiskBundleTree(root: parent)
            scanner = BundleScanner(tree: tree)
            scanner.addFile(name)
            if tree.kind(of: name + ".dSYM") == .directory { scanner.addDsym(name + ".dSYM") }
        }
        let (binaries, dsyms, warnings) = try scanner.read()
        // A lone binary is judged when its `<name>.dSYM` is beside it; a lone dSYM is judged by ``pair(_:)``.
        let judged = kind == .dsym ? false : kind == .binary ? !dsyms.isEmpty : true
        let report = judged ? DsymMatcher.match(binaries: binaries, dsyms: dsyms) : nil
        return DsymInspection(path: absolute, kind: kind, root: root, binaries: binaries, dsyms: dsyms, report: report, warnings: warnings)
    }

    /// Judges the bare binaries among `inspections` against every dSYM given beside them (`release dsym crash
    /// build/crash.dSYM`): each binary's report matches its slices by UUID against the dSYMs it found itself and
    /// those of the `.dSYM` inspections, and lists the dSYM slices that match none of the binaries given. A
    /// dSYM from another folder is named by its full path. Without both a bare binary and a dSYM given, the
    /// inspections are returned as they are.
    package static func pair(_ inspections: [DsymInspection]) -> [DsymInspection] {
        let given = inspections.filter { $0.kind == .dsym }
        let bare = inspections.filter { $0.kind == .binary }
        guard !given.isEmpty, !bare.isEmpty else { return inspections }
        /// `path` of an inspection rooted at `from`, as seen from `root`: unchanged in the same folder, else full.
        func moved(_ path: String, from: String, to root: String) -> String {
            from == root ? path : (from as NSString).appendingPathComponent(path)
        }
        let everyBinary = bare.flatMap { inspection in
            inspection.binaries.map { binary in
                var binary = binary
                binary.path = moved(binary.path, from: inspection.root, to: "/")
                return binary
            }
        }
        return inspections.map { inspection in
            guard inspection.kind == .binary else { return inspection }
            var dsyms = inspection.dsyms
            for other in given {
                for dsym in other.dsyms {
                    var dsym = dsym
                    dsym.path = moved(dsym.path, from: other.root, to: inspection.root)
                    dsym.bundle = moved(dsym.bundle, from: other.root, to: inspection.root)
                    if !dsyms.contains(where: { $0.path == dsym.path }) { dsyms.append(dsym) }
                }
            }
            var report = DsymMatcher.match(binaries: inspection.binaries, dsyms: dsyms)
            let matchedByNone = DsymMatcher.match(binaries: everyBinary, dsyms: dsyms).unmatchedDsymSlices
            report.unmatchedDsymSlices.removeAll { !matchedByNone.contains($0) }
            var paired = inspection
            paired.report = report
            return paired
        }
    }

    /// Inspects `path` on a thread of its own, off the cooperative pool.
    package static func inspect(_ path: String) async throws -> DsymInspection {
        try await BlockingWork.run { _ in try inspect(path) }
    }

    /// Whether the file starts with a zip local header (`PK\3\4`) or an empty zip's end record (`PK\5\6`).
    static func isZip(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let head = [UInt8]((try? handle.read(upToCount: 4)) ?? Data())
        return head == [0x50, 0x4B, 0x03, 0x04] || head == [0x50, 0x4B, 0x05, 0x06]
    }
}

import Foundation
import ReleaseSupport

/// Finds the executables of apps, frameworks and extensions, and the DWARF files of dSYM bundles, in a
/// ``BundleTree``, then reads all their Mach-O headers in one batch.
struct BundleScanner {
    /// How deep a plain folder is searched for bundles (`build/Release-iphoneos/Demo.app` is 2 deep).
    static let maxDepth = 8

    private struct BinaryReference {
        var path: String
        var resolved: String
        var bundle: String
        var role: BinaryRole
        /// Found by name in a walk rather than given or named by a bundle: when it is no readable Mach-O file it
        /// is skipped with a warning, not an error.
        var found = false
    }

    private struct DsymReference {
        var path: String
        var resolved: String
        var bundle: String
    }

    let tree: any BundleTree
    private var binaries: [BinaryReference] = []
    private var dsyms: [DsymReference] = []

    init(tree: any BundleTree) {
        self.tree = tree
    }

    /// Searches the folder at `path` for bundles, not descending into the bundles it finds nor through links.
    ///
    /// A bare file named like a dSYM found in the walk (`crash` and `crash.dSYM` side by side, or an archive's
    /// `Products/usr/local/bin/crash` and `dSYMs/crash.dSYM`: a command-line tool) is a binary too, so it is
    /// matched like a bundle's executable.
    mutating func walk(_ path: String) {
        var files: [String] = []
        visit(path, depth: 0, files: &files)
        let dsymNames = Set(dsyms.map { (($0.bundle as NSString).lastPathComponent as NSString).deletingPathExtension })
        for file in files where dsymNames.contains((file as NSString).lastPathComponent) {
            addFile(file, found: true)
        }
    }

    private mutating func visit(_ path: String, depth: Int, files: inout [String]) {
        for name in tree.children(of: path) {
            let child = tree.join(path, name)
            switch tree.kind(of: child) {
            case .directory:
                if !add(bundle: child) && depth < Self.maxDepth {
                    visit(child, depth: depth + 1, files: &files)
                }
            case .file:
                files.append(child)
            default:
                continue
            }
        }
    }

    /// Adds the bundle at `path` by its extension; false when it is no bundle this scanner knows.
    @discardableResult
    mutating func add(bundle path: String) -> Bool {
        switch (path as NSString).pathExtension {
        case "app": addApp(path, role: .app)
        case "appex": addApp(path, role: .appExtension)
        case "framework": addFramework(path)
        case "dSYM": addDsym(path)
        default: return false
        }
        return true
    }

    /// An app or extension: its executable, then embedded frameworks, extensions, Watch apps and App Clips.
    mutating func addApp(_ bundle: String, role: BinaryRole) {
        addExecutable(of: bundle, role: role)
        let base = tree.resolvedKind(of: tree.join(bundle, "Contents")) == .directory ? tree.join(bundle, "Contents") : bundle
        for (folder, suffix, role) in [
            ("Frameworks", "framework", BinaryRole.framework), ("PlugIns", "appex", .appExtension),
            ("Extensions", "appex", .appExtension), ("Watch", "app", .watchApp), ("AppClips", "app", .appClip),
        ] {
            let directory = tree.join(base, folder)
            guard tree.resolvedKind(of: directory) == .directory, let resolvedDirectory = tree.resolve(directory) else { continue }
            for name in tree.children(of: resolvedDirectory) where (name as NSString).pathExtension == suffix {
                let child = tree.join(directory, name)
                if role == .framework { addFramework(child) } else { addApp(child, role: role) }
            }
        }
    }

    /// A framework, flat (iOS) or versioned (`Versions/A`, with `Versions/Current` and top-level links).
    mutating func addFramework(_ bundle: String) {
        addExecutable(of: bundle, role: .framework)
    }

    /// Every file in a dSYM's `Contents/Resources/DWARF/`.
    mutating func addDsym(_ bundle: String) {
        let folder = tree.join(bundle, "Contents/Resources/DWARF")
        guard let resolvedFolder = tree.resolve(folder) else { return }
        for name in tree.children(of: resolvedFolder) {
            let path = tree.join(folder, name)
            guard let resolved = tree.resolve(path), tree.kind(of: resolved) == .file else { continue }
            if dsyms.contains(where: { $0.resolved == resolved }) { continue }
            dsyms.append(DsymReference(path: path, resolved: resolved, bundle: bundle))
        }
    }

    /// A lone Mach-O file; `found` when a walk found it by name (see ``walk(_:)``).
    mutating func addFile(_ path: String, found: Bool = false) {
        if binaries.contains(where: { $0.resolved == path }) { return }
        binaries.append(BinaryReference(path: path, resolved: path, bundle: path, role: .file, found: found))
    }

    /// Reads every binary's and DWARF file's slices.
    ///
    /// A dSYM's `DWARF/` folder as it comes from a build or a download may hold a file that is not Mach-O, an
    /// empty one or a damaged one: that file is skipped with a warning naming it, and the rest are still read
    /// and matched. An executable that cannot be read is an error: it is what the dSYMs are checked against.
    /// - Throws: ``MachOError`` for an unreadable executable, ``ArchiveError`` for a broken zip.
    func read() throws -> (binaries: [BundleBinary], dsyms: [DsymBinary], warnings: [String]) {
        let files = try tree.machOFiles(binaries.map(\.resolved) + dsyms.map(\.resolved))
        var foundBinaries: [BundleBinary] = []
        var warnings: [String] = []
        for reference in binaries {
            guard let result = files[reference.resolved] else { continue }
            if reference.found, case .failure(let error) = result {
                warnings.append("\(Self.describe(error, path: reference.path)); skipped, though a dSYM has its name")
                continue
            }
            let file = try result.get()
            foundBinaries.append(
                BundleBinary(
                    path: reference.path, bundle: reference.bundle,
                    name: (reference.path as NSString).lastPathComponent, role: reference.role, slices: file.slices))
        }
        var foundDsyms: [DsymBinary] = []
        for reference in dsyms {
            switch files[reference.resolved] {
            case .success(let file):
                foundDsyms.append(
                    DsymBinary(
                        path: reference.path, bundle: reference.bundle,
                        name: (reference.path as NSString).lastPathComponent, slices: file.slices))
            case .failure(let error):
                warnings.append("\(Self.describe(error, path: reference.path)); skipped, the rest of '\(reference.bundle)' is still checked")
            case nil:
                continue
            }
        }
        return (foundBinaries, foundDsyms.sorted { $0.path < $1.path }, warnings.sorted())
    }

    /// The error, naming the file by its path in the tree (an empty file is said to be empty).
    private static func describe(_ error: MachOError, path: String) -> String {
        switch error {
        case .truncated(_, _, let offset, _) where offset == 0:
            return "'\(path)' is empty or too short to be a mach-o file"
        case .unreadable(_, let reason):
            return "cannot read '\(path)': \(reason)"
        case .notMachO(_, let magic):
            return "'\(path)' is not a mach-o file (magic '0x\(Hex.digits(magic))')"
        case .truncated(_, let what, let offset, let needed):
            return "'\(path)' is truncated: \(what) needs \(needed) bytes at offset \(offset)"
        case .malformed(_, let detail):
            return "'\(path)' is malformed: \(detail)"
        }
    }

    private mutating func addExecutable(of bundle: String, role: BinaryRole) {
        guard let (path, resolved) = executable(of: bundle) else { return }
        if binaries.contains(where: { $0.resolved == resolved }) { return }
        binaries.append(BinaryReference(path: path, resolved: resolved, bundle: bundle, role: role))
        // Xcode 16 debug builds move the code into `<executable>.debug.dylib` beside a small stub; its dSYM
        // holds a DWARF file for each.
        let debugDylib = path + ".debug.dylib"
        if let resolvedDylib = tree.resolve(debugDylib), tree.kind(of: resolvedDylib) == .file,
            !binaries.contains(where: { $0.resolved == resolvedDylib })
        {
            binaries.append(BinaryReference(path: debugDylib, resolved: resolvedDylib, bundle: bundle, role: .debugDylib))
        }
    }

    /// The bundle's executable from its Info.plist's `CFBundleExecutable` (else the bundle's name), in the
    /// iOS, macOS (`Contents/MacOS`) or versioned-framework layout: `(path, path with links resolved)`.
    private func executable(of bundle: String) -> (String, String)? {
        var name = ((bundle as NSString).lastPathComponent as NSString).deletingPathExtension
        for plist in ["Info.plist", "Contents/Info.plist", "Resources/Info.plist", "Versions/Current/Resources/Info.plist"] {
            let path = tree.join(bundle, plist)
            guard let resolved = tree.resolve(path), tree.kind(of: resolved) == .file, let data = tree.contents(of: resolved),
                let object = PropertyListDepth.propertyList(from: data) as? [String: Any]
            else { continue }
            if let executable = object["CFBundleExecutable"] as? String, !executable.isEmpty, !executable.contains("/") {
                name = executable
            }
            break
        }
        for candidate in [name, "Contents/MacOS/" + name, "Versions/Current/" + name] {
            let path = tree.join(bundle, candidate)
            if let resolved = tree.resolve(path), tree.kind(of: resolved) == .file { return (path, resolved) }
        }
        return nil
    }
}

import Foundation

/// A file tree bundles are discovered in: a folder on disk or the inside of a zip (`.ipa`).
///
/// Paths are relative to the tree's root, `/`-separated, without a leading or trailing slash; `""` is the root.
protocol BundleTree {
    /// What is at `path`, without following a link there; nil when nothing is.
    func kind(of path: String) -> ZipEntry.Kind?
    /// Names of the entries of the folder at `path`, sorted.
    func children(of path: String) -> [String]
    /// Where the link at `path` points.
    func linkTarget(of path: String) -> String?
    /// The contents of a small file (an `Info.plist`), or nil.
    func contents(of path: String) -> Data?
    /// Reads the Mach-O files at `paths` (resolved, regular files): each one's file, or why it could not be read.
    /// - Throws: only when the tree itself cannot be read (a broken zip).
    func machOFiles(_ paths: [String]) throws -> [String: Result<MachOFile, MachOError>]
}

extension BundleTree {
    /// `path` with every link along it followed, staying inside the tree; nil when it leaves the tree, loops
    /// or leads nowhere.
    func resolve(_ path: String) -> String? {
        var pending = path.split(separator: "/").map(String.init)
        var resolved: [String] = []
        var hops = 0
        while !pending.isEmpty {
            let component = pending.removeFirst()
            if component == "." || component.isEmpty { continue }
            if component == ".." {
                guard !resolved.isEmpty else { return nil }
                resolved.removeLast()
                continue
            }
            let candidate = (resolved + [component]).joined(separator: "/")
            guard let kind = kind(of: candidate) else { return nil }
            if kind == .symlink {
                hops += 1
                guard hops <= 32, let target = linkTarget(of: candidate), !target.hasPrefix("/") else { return nil }
                pending = target.split(separator: "/").map(String.init) + pending
                continue
            }
            resolved.append(component)
        }
        return resolved.joined(separator: "/")
    }

    /// What `path` is after following links.
    func resolvedKind(of path: String) -> ZipEntry.Kind? {
        resolve(path).flatMap { kind(of: $0) }
    }

    /// `parent/name`, or `name` at the root.
    func join(_ parent: String, _ name: String) -> String {
        parent.isEmpty ? name : parent + "/" + name
    }
}

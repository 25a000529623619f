import Foundation
import ReleaseSupport

/// Small file-system helpers the artifact steps share.
package enum FileSystemSupport {
    /// Creates the folder `path` will be written in, with its parents.
    /// - Throws: ``StepError/failed(_:)`` naming the folder.
    static func createParent(of path: String) throws {
        let parent = FilePath.parent(of: path)
        guard !parent.isEmpty else { return }
        do {
            try LocalFiles().createDirectory(parent)
        } catch {
            throw StepError.failed("cannot create folder '\(parent)': \(error.localizedDescription)")
        }
    }

    /// Whether `path` is a folder (following links).
    package static func isDirectory(_ path: String) -> Bool {
        LocalFiles().isDirectory(path)
    }

    /// `.dSYM` bundles in `folder`, searched `depth` levels deep, not descending into bundles or links.
    static func findDsyms(in folder: String, depth: Int = 8) -> [String] {
        guard depth >= 0, let names = LocalFiles().names(in: folder) else { return [] }
        var found: [String] = []
        for name in names {
            let path = folder + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { continue }
            if (name as NSString).pathExtension == "dSYM" {
                found.append(path)
            } else if !["app", "appex", "framework"].contains((name as NSString).pathExtension) {
                found += findDsyms(in: path, depth: depth - 1)
            }
        }
        return found
    }
}

import Foundation
import ReleaseSupport

/// The `.gitignore` a starter pipeline needs: its build folder ignored, so a run's products never make the tree dirty
/// nor get committed.
package enum GitIgnore {
    /// Adds `/folder/` to `directory/.gitignore` unless a line of it already ignores `folder` (`build`, `build/`,
    /// `/build`, `/build/`, `**/build`), or `directory` is not in a git checkout.
    /// - Returns: what was done, for the user, or nil when nothing was.
    /// - Throws: when `.gitignore` cannot be written (it is written atomically: nothing is half-written).
    package static func ensureIgnored(_ folder: String, in directory: String) throws -> String? {
        guard GitDirectory.of(directory) != nil else { return nil }
        let name = folder.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        let path = (directory as NSString).appendingPathComponent(".gitignore")
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        let covering = Set([name, name + "/", "/" + name, "/" + name + "/", "**/" + name, "**/" + name + "/"])
        if text.split(whereSeparator: \.isNewline).contains(where: { covering.contains($0.trimmingCharacters(in: .whitespaces)) }) {
            return nil
        }
        let separator = text.isEmpty || text.hasSuffix("\n") ? "" : "\n"
        try AtomicFile.write(text + separator + "# release: the pipeline's build folder\n/\(name)/\n", to: path)
        return "added /\(name)/ to .gitignore (the pipeline builds there; commit it with the pipeline)"
    }
}

import Foundation

extension Diagnostic {
    /// Pipeline problems for standard error: one per line (GitHub annotations when `annotations`), then how many
    /// there are in which files.
    package static func report(_ diagnostics: [Diagnostic], annotations: Bool) -> String {
        var out = ""
        for diagnostic in diagnostics {
            out += (annotations ? diagnostic.githubAnnotation : diagnostic.description) + "\n"
        }
        let files = Set(diagnostics.map(\.file))
        let count = diagnostics.count
        out += "\(files.sorted().joined(separator: ", ")): \(count) problem\(count == 1 ? "" : "s")\n"
        return out
    }
}

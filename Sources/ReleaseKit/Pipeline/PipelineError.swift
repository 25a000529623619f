/// Why a pipeline could not be loaded or planned. Exit code 65.
package enum PipelineError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Every problem found in the file, in file order.
    case invalid([Diagnostic])
    /// The file could not be read.
    case unreadable(path: String, reason: String)

    package var diagnostics: [Diagnostic] {
        switch self {
        case .invalid(let diagnostics): return diagnostics
        case .unreadable(let path, let reason):
            return [Diagnostic(file: path, location: nil, path: nil, message: reason)]
        }
    }

    package var description: String {
        diagnostics.map(\.description).joined(separator: "\n")
    }
}

import ReleaseSteps
import ReleaseSupport

/// Converts the paths a journal entry holds between absolute (how steps see them) and relative to the run's working
/// directory (how the journal stores them, so it means the same in another checkout on another machine). Paths
/// outside the working directory stay absolute: they do not travel.
struct WorkspacePaths {
    let workspace: String

    init(_ workspace: String) {
        var trimmed = workspace
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        self.workspace = trimmed
    }

    /// `path` relative to the working directory when it lies inside it (`.` for the directory itself).
    func relative(_ path: String) -> String {
        if path == workspace { return "." }
        if workspace != "/", path.hasPrefix(workspace + "/") { return String(path.dropFirst(workspace.count + 1)) }
        return path
    }

    /// `path` made absolute against the working directory when it is relative.
    func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        if path == "." { return workspace }
        return workspace == "/" ? "/" + path : workspace + "/" + path
    }

    func relative(_ entry: RunJournal.Entry) -> RunJournal.Entry { map(entry, relative) }

    func absolute(_ entry: RunJournal.Entry) -> RunJournal.Entry { map(entry, absolute) }

    private func map(_ entry: RunJournal.Entry, _ transform: (String) -> String) -> RunJournal.Entry {
        var entry = entry
        entry.outputs = entry.outputs.mapValues { map($0, transform) }
        entry.artifacts = entry.artifacts.map { Artifact(path: transform($0.path), size: $0.size, sha256: $0.sha256) }
        return entry
    }

    private func map(_ value: OutputValue, _ transform: (String) -> String) -> OutputValue {
        switch value {
        case .path(let path): return .path(transform(path))
        case .list(let items): return .list(items.map { map($0, transform) })
        case .string, .number, .bool: return value
        }
    }
}

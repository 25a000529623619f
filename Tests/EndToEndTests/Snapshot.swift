import Foundation
import ReleaseSupport
import Testing

/// Long command outputs compared with files in `Tests/EndToEndTests/Snapshots/NAME.txt`.
///
/// Values that change from run to run (a temporary folder, a build's UUID) are replaced by placeholders before the
/// comparison, so the file holds exactly what a user sees apart from them. A mismatch fails the test with a unified
/// diff (`-` the snapshot, `+` this run). `RECORD_SNAPSHOTS=1 swift test ...` writes the files instead, after an
/// intended change of wording; review them with `git diff`.
enum Snapshot {
    static let folder = ReleaseBinary.root.appendingPathComponent("Tests/EndToEndTests/Snapshots").path

    /// Whether snapshots are re-recorded instead of compared (`RECORD_SNAPSHOTS=1`).
    static var recording: Bool { ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" }

    /// Checks `actual`, with each key of `placeholders` replaced by its value (longest keys first), against the
    /// snapshot `name`.
    static func expect(
        _ actual: String, matches name: String, placeholders: [String: String] = [:],
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        var text = actual
        for (value, placeholder) in placeholders.sorted(by: { $0.key.count > $1.key.count }) where !value.isEmpty {
            text = text.replacingOccurrences(of: value, with: placeholder)
        }
        let path = folder + "/" + name + ".txt"
        if recording {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return
        }
        guard let expected = try? String(contentsOfFile: path, encoding: .utf8) else {
            Issue.record("no snapshot 'Snapshots/\(name).txt'; record it with RECORD_SNAPSHOTS=1", sourceLocation: sourceLocation)
            return
        }
        if text != expected {
            let diff = TextDiff.unified(old: expected, new: text, path: "Snapshots/\(name).txt")
            Issue.record(
                "output differs from Snapshots/\(name).txt (RECORD_SNAPSHOTS=1 re-records):\n\(diff)",
                sourceLocation: sourceLocation)
        }
    }
}

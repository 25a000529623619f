import Foundation

/// Paths into the repository, found from this file's location.
enum FixturePaths {
    /// The package root.
    static let root: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func fixture(_ relative: String) -> URL {
        root.appendingPathComponent("Fixtures").appendingPathComponent(relative)
    }

    /// Whether snapshots should be re-recorded instead of compared (`RECORD_SNAPSHOTS=1`).
    static var recording: Bool { ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" }
}

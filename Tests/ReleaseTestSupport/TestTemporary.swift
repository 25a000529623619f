import Foundation

/// Where this test process keeps its temporary files: one folder under the system's temporary folder, removed when
/// the process exits, so a test run leaves nothing behind in `$TMPDIR`.
///
/// Every folder or file a test creates goes under ``root`` (`TestTemporary.root + "/release-x-\(UUID())"`), and so
/// does what the processes it starts create (`TMPDIR` points there in their environment). Tests run in parallel in
/// one process, so a test's own folders stay until the end of the run: a failing test's files can be inspected then.
/// Shared by both test targets (`ReleaseKitTests`, `EndToEndTests`).
package enum TestTemporary {
    /// `$TMPDIR/release-tests-PID-RANDOM`, created on first use; an `atexit` handler removes it.
    package static let root: String = {
        let path = NSTemporaryDirectory() + "release-tests-\(getpid())-\(UUID().uuidString.prefix(8))"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: TestTemporary.root) }
        return path
    }()

    /// A new, empty folder under ``root`` named `prefix-UUID`.
    package static func directory(_ prefix: String) -> String {
        let path = root + "/\(prefix)-\(UUID().uuidString)"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}

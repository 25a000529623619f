import Foundation
import ReleaseSupport

/// The fake Xcode tools a rehearsal on a machine without Xcode can put first on `PATH`: `xcodebuild` (archive,
/// export, `-version`), `security`, `xcrun altool --validate-app`, `pod install`, `xcodegen generate`,
/// `sentry-cli`, `upload-symbols`. They answer like the real ones (their own files say how), record each call
/// (`RELEASE_FAKE_LOG`), keep their state in `RELEASE_FAKE_STATE`, and archive the demo app under the name, bundle
/// id, version and build the project gives (read with `release version --json`). They need Python 3 and openssl.
///
/// `release rehearse-tools DIR` writes them; the same files are the tests' `Fixtures/FakeTools`.
package enum RehearsalTools {
    struct File: Sendable {
        var name: String
        var executable: Bool
        var base64: String
    }

    /// The names of the tools (the executables among the files).
    package static var toolNames: [String] { files.filter(\.executable).map(\.name) }

    /// Writes every file into `folder` (created when missing), each atomically, executables with mode 0755.
    /// - Returns: the paths written.
    /// - Throws: when a file cannot be written.
    package static func write(to folder: String) throws -> [String] {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var written: [String] = []
        for file in files {
            guard let data = Data(base64Encoded: file.base64) else { throw CocoaError(.fileReadCorruptFile) }
            let path = (folder as NSString).appendingPathComponent(file.name)
            try AtomicFile.write(data, to: path)
            try FileManager.default.setAttributes([.posixPermissions: file.executable ? 0o755 : 0o644], ofItemAtPath: path)
            written.append(path)
        }
        return written
    }
}

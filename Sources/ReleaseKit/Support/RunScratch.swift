import Foundation

/// A run's scratch folder, `release-run-PID-N` in the system's temporary folder (mode 0700): what a step keeps only
/// while the run lasts goes there (a signing key and its temporary keychain, profiles, API key files, output files).
/// The run removes it when it ends; a run killed with `kill -9` cannot, so the next run in the checkout removes the
/// folders of the run that held the lock before it once it is sure that run is dead (``removeLeftovers(of:)``).
package enum RunScratch {
    /// The folder the scratch folders are made in.
    static var parent: String { NSTemporaryDirectory() }

    /// Creates a new scratch folder for this process.
    package static func create() -> String {
        let path = (parent as NSString).appendingPathComponent("release-run-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return path
    }

    /// Removes the scratch folders process `pid` made, when it is not running: only folders named as ``create()``
    /// names them, this user's, and not symlinks.
    /// - Returns: the folders removed.
    @discardableResult
    package static func removeLeftovers(of pid: Int32, in folder: String? = nil) -> [String] {
        guard pid > 0, pid != getpid(), !Platform.processIsRunning(pid) else { return [] }
        let parent = folder ?? Self.parent
        let prefix = "release-run-\(pid)-"
        var removed: [String] = []
        for name in (try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? [] {
            guard name.hasPrefix(prefix), case let suffix = name.dropFirst(prefix.count), !suffix.isEmpty,
                suffix.allSatisfy({ $0.isASCII && $0.isNumber })
            else { continue }
            let path = (parent as NSString).appendingPathComponent(name)
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == geteuid() else { continue }
            if (try? FileManager.default.removeItem(atPath: path)) != nil { removed.append(path) }
        }
        return removed
    }
}

import Foundation
import ReleaseSupport
import Synchronization

/// Runs `EXE describe` for external step plugins, with answers cached per executable (path, modification time
/// and size), so `validate` does not start every plugin every time.
package struct PluginDescriber: Sendable {
    /// The JSON file describe answers are cached in; nil for no cache.
    package var cacheFile: String?
    /// The environment plugins run with (and whose PATH names `release-step-KIND` executables).
    package var environment: [String: String]
    /// Seconds a `describe` may take.
    package var timeout: Double

    package init(cacheFile: String?, environment: [String: String], timeout: Double = 20) {
        self.cacheFile = cacheFile
        self.environment = environment
        self.timeout = timeout
    }

    /// The cache file in the user's cache folder (`~/Library/Caches/release` on macOS, `$XDG_CACHE_HOME/release`
    /// or `~/.cache/release` elsewhere).
    package static var userCacheFile: String? {
        LocalFiles().userCacheFolder.map { $0 + "/release/plugins.json" }
    }

    /// Executables named `release-step-KIND` on PATH, first one per kind, as `(kind, path)` sorted by kind.
    package func pathPlugins() -> [(kind: String, path: String)] {
        let prefix = "release-step-"
        var found: [String: String] = [:]
        for folder in (environment["PATH"] ?? "").split(separator: ":") where !folder.isEmpty {
            guard let names = LocalFiles().names(in: String(folder)) else { continue }
            for name in names where name.hasPrefix(prefix) && name.count > prefix.count {
                let kind = String(name.dropFirst(prefix.count))
                let path = "\(folder)/\(name)"
                if found[kind] == nil, ProcessRunner.resolveExecutable(path, directory: "/", environment: environment) != nil {
                    found[kind] = path
                }
            }
        }
        return found.sorted { $0.key < $1.key }.map { (kind: $0.key, path: $0.value) }
    }

    /// What the plugin at `executable` (an absolute path) says about itself.
    /// - Parameter name: how messages name the plugin (the kind the pipeline gives it, or its file name).
    /// - Throws: ``PluginError/badDescription(_:_:)``.
    package func describe(_ executable: String, name: String) async throws -> PluginDescription {
        let plugin = "'\(name)' (\(executable))"
        guard LocalFiles().exists(executable),
            ProcessRunner.resolveExecutable(executable, directory: "/", environment: environment) != nil
        else {
            throw PluginError.badDescription(plugin, "cannot run: no executable file at that path")
        }
        let stamp = Self.stamp(executable)
        if let cached = cachedAnswer(executable, stamp: stamp), let description = try? PluginDescription(json: cached, plugin: plugin) {
            return description
        }
        let text = try await runDescribe(executable, plugin: plugin)
        let description = try PluginDescription(json: text, plugin: plugin)
        store(text, for: executable, stamp: stamp)
        return description
    }

    private func runDescribe(_ executable: String, plugin: String) async throws -> String {
        let request = ProcessRequest(
            arguments: [executable, "describe"], directory: Platform.currentDirectory(),
            environment: environment)
        let errors = PluginErrorLines()
        let limit = timeout
        let result = try await withThrowingTaskGroup(of: ProcessResult?.self) { group in
            group.addTask { try await ProcessRunner.run(request) { line, stream in if stream == .stderr { errors.add(line) } } }
            group.addTask {
                try await Task.sleep(for: .seconds(limit))
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            return first
        }
        guard let result else {
            throw PluginError.badDescription(plugin, "did not answer within \(DurationFormat.string(seconds: limit))")
        }
        guard result.succeeded else {
            let detail = errors.text.isEmpty ? "" : ": \(errors.text)"
            throw PluginError.badDescription(plugin, "exited with status \(result.status)\(detail)")
        }
        return result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    // MARK: Cache

    private static func stamp(_ executable: String) -> String {
        let modified = LocalFiles().modificationDate(executable)?.timeIntervalSince1970 ?? 0
        let size = LocalFiles().size(executable) ?? 0
        return "\(modified):\(size)"
    }

    private struct Entry: Codable {
        var stamp: String
        var describe: String
    }

    private func readCache() -> [String: Entry] {
        guard let cacheFile, let data = LocalFiles().contents(cacheFile) else { return [:] }
        return (try? JSONDecoder().decode([String: Entry].self, from: data)) ?? [:]
    }

    private func cachedAnswer(_ executable: String, stamp: String) -> String? {
        guard let entry = readCache()[executable], entry.stamp == stamp else { return nil }
        return entry.describe
    }

    /// Best effort: a cache that cannot be written only makes the next `validate` slower.
    private func store(_ text: String, for executable: String, stamp: String) {
        guard let cacheFile else { return }
        var entries = readCache()
        entries[executable] = Entry(stamp: stamp, describe: text)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(entries) else { return }
        try? LocalFiles().createDirectory((cacheFile as NSString).deletingLastPathComponent)
        try? AtomicFile.write(data, to: cacheFile)
    }
}

/// The last standard-error lines of a `describe`, for its error message.
private final class PluginErrorLines: Sendable {
    private let lines = Mutex<[String]>([])
    func add(_ line: String) { lines.withLock { $0 = Array(($0 + [line]).suffix(5)) } }
    var text: String { lines.withLock { $0.joined(separator: " ") } }
}

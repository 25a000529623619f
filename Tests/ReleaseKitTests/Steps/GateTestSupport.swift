import Foundation

@testable import ReleaseExecution
@testable import ReleasePlanning
@testable import ReleaseSteps
@testable import ReleaseSupport

/// Builds pipeline text for the gate tests from step objects, so paths with any characters are quoted right.
enum GatePipelines {
    /// `{"version": 1, "steps": [...]}` with the given step objects.
    static func text(_ steps: [[String: Any]]) -> String {
        let data = try! JSONSerialization.data(withJSONObject: ["version": 1, "steps": steps], options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    /// One gate step `id` of `kind` with `with`, run through the real engine in `directory` (a fresh folder when nil).
    static func runGate(
        _ kind: String, _ with: [String: Any], id: String = "gate", directory: String? = nil,
        now: Date? = nil, environment: [String: String] = [:]
    ) async throws -> RunResult {
        let text = text([["id": id, "uses": kind, "gate": true, "with": with]])
        let (result, _) = try await TestPipelines.run(
            text,
            configure: { options in
                if let directory { options.workingDirectory = directory }
                if let now { options.now = now }
            }, environment: environment)
        return result
    }

    /// Runs a command and returns its standard output (an independent oracle such as `sha256sum`).
    static func output(_ arguments: [String], in directory: String) async throws -> String {
        let result = try await ProcessRunner.run(
            ProcessRequest(arguments: arguments, directory: directory, environment: ProcessInfo.processInfo.environment)
        ) { _, _ in }
        guard result.succeeded else { throw StepError.failed("\(arguments) exited with \(result.status)") }
        return result.standardOutput
    }

    /// MD5 of `file` in hex by the system's own tool (an independent oracle): GNU coreutils' on Linux, BSD's `md5 -r`
    /// on a Mac (which has no coreutils).
    static func md5(of file: String, in directory: String) async throws -> String {
        let line = try await output(["sh", "-c", #"if command -v md5sum >/dev/null; then md5sum "$1"; else md5 -r "$1"; fi"#, "sh", file], in: directory)
        return String(line.prefix(32))
    }

    /// Writes `text` to `directory/name`, creating folders; returns the path.
    @discardableResult
    static func write(_ text: String, _ name: String, in directory: String) throws -> String {
        let path = directory + "/" + name
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}

import Foundation
import Subprocess
import Synchronization

/// A command to run: argv exactly as executed, with its directory and complete environment.
package struct ProcessRequest: Sendable, Equatable {
    package var arguments: [String]
    package var directory: String
    package var environment: [String: String]
    /// Bytes written to the command's standard input, which is then closed; nil for /dev/null.
    package var input: [UInt8]?

    package init(arguments: [String], directory: String, environment: [String: String], input: [UInt8]? = nil) {
        self.arguments = arguments
        self.directory = directory
        self.environment = environment
        self.input = input
    }
}

/// How a command ended.
package struct ProcessResult: Sendable, Equatable {
    /// The exit status, or `128 + signal` when a signal ended it (as shells report it).
    package var status: Int32
    /// The signal that ended it, if one did.
    package var signal: Int32?
    /// Standard output, at most its last 1 MiB, in whole lines: when the limit cuts a line, the rest of that line
    /// is left out too, since a secret cut there could no longer be recognised and masked.
    package var standardOutput: String

    package var succeeded: Bool { status == 0 && signal == nil }
}

/// Which stream a line came from.
package enum OutputStreamKind: String, Sendable, Codable {
    case stdout, stderr
}

/// Runs child processes in their own process group, streaming their output line by line.
///
/// Built on swift-subprocess, which spawns the child in a process group of its own (so a timeout or Ctrl-C can
/// stop the whole tree a command starts: `xcodebuild` and its compilers, a script's children), resets the
/// signal dispositions and mask the parent changed, reads the pipes without blocking a thread and reaps the
/// child. Stopping the group on cancellation is ``ProcessGroupStopper``'s job.
package enum ProcessRunner {
    /// Standard output kept in ``ProcessResult/standardOutput``.
    static let captureLimit = 1 << 20

    /// Why an executable that was found could not be run, as far as swift-subprocess tells.
    static let refusedReason = "the system cannot execute it (is it a directory, or is its #! interpreter missing?)"

    /// Runs `request` to completion. On task cancellation the process group gets SIGTERM, then SIGKILL after
    /// `killGrace` seconds if any of it is left (even when the command itself has already exited), and the
    /// call throws `CancellationError` once the group is gone or has been sent SIGKILL.
    ///
    /// `onLine` gets each line of standard output and standard error as it arrives, without its line break
    /// (and without a `\r` before it), one call at a time. A line longer than ``LineSplitter/maximumLineLength``
    /// comes in pieces, cut where none of `masker`'s secrets spans the cut (see ``LineSplitter``).
    package static func run(
        _ request: ProcessRequest,
        killGrace: Double = 3,
        masker: SecretMasker? = nil,
        onLine: @escaping @Sendable (String, OutputStreamKind) -> Void
    ) async throws -> ProcessResult {
        guard let first = request.arguments.first, !first.isEmpty else {
            throw ProcessError.emptyCommand
        }
        guard let executable = resolveExecutable(first, directory: request.directory, environment: request.environment) else {
            throw ProcessError.commandNotFound(first)
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: request.directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ProcessError.noSuchDirectory(request.directory)
        }
        try Task.checkCancellation()

        let stopper = ProcessGroupStopper(grace: killGrace)
        return try await withTaskCancellationHandler {
            // A task of its own, for two reasons. The caller's cancellation must not reach swift-subprocess,
            // whose teardown gives up once the leader has exited and which would stop reading the output; the
            // stopper signals the whole group instead, and the lines the command prints while it shuts down
            // are still delivered. And it runs on ProcessExecutor's threads, so a busy cooperative pool cannot
            // delay the output or the stop.
            try await Task(executorPreference: ProcessExecutor.shared) {
                let outcome: Result<ProcessResult, any Error>
                do {
                    outcome = .success(
                        try await spawn(
                            executable: executable, request: request, stopper: stopper, killGrace: killGrace, masker: masker, onLine: onLine
                        ))
                } catch {
                    outcome = .failure(error)
                }
                if await stopper.finish() { throw CancellationError() }
                return try outcome.get()
            }.value
        } onCancel: {
            stopper.stop()
        }
    }

    /// The file `name` would execute: a path as is (relative to `directory`), else the first match on PATH.
    package static func resolveExecutable(_ name: String, directory: String, environment: [String: String]) -> String? {
        if name.contains("/") {
            let path = name.hasPrefix("/") ? name : URL(fileURLWithPath: directory).appendingPathComponent(name).path
            return access(path, X_OK) == 0 ? path : nil
        }
        let searchPath = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in searchPath.split(separator: ":") where !folder.isEmpty {
            let candidate = "\(folder)/\(name)"
            var info = stat()
            if stat(candidate, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, access(candidate, X_OK) == 0 {
                return candidate
            }
        }
        return nil
    }

    /// Spawns the child, delivers its lines and returns once it has exited and been reaped.
    private static func spawn(
        executable: String,
        request: ProcessRequest,
        stopper: ProcessGroupStopper,
        killGrace: Double,
        masker: SecretMasker?,
        onLine: @escaping @Sendable (String, OutputStreamKind) -> Void
    ) async throws -> ProcessResult {
        var options = PlatformOptions()
        options.processGroupID = 0  // a group of its own, led by the child
        // Used only if reading the output fails, when swift-subprocess stops the child itself.
        options.teardownSequence = [.gracefulShutDown(toProcessGroup: true, allowedDurationToNextStep: .seconds(max(0, killGrace)))]
        var environment: [Environment.Key: String] = [:]
        for (key, value) in request.environment {
            if let key = Environment.Key(rawValue: key) { environment[key] = value }
        }
        // Marks the child as this run's, for the run after a `kill -9` of this one (``ProcessGroups/childMarker``).
        if let marker = ProcessGroups.childMarker, let key = Environment.Key(rawValue: ProcessGroups.markerName) {
            environment[key] = marker
        }
        let configuration = Configuration(
            executable: .path(PlatformProcesses.filePath(executable)),
            // argv[0] stays the name as given, as a shell would pass it.
            arguments: Arguments(executablePathOverride: request.arguments[0], remainingValues: Array(request.arguments.dropFirst())),
            environment: .custom(environment),
            workingDirectory: PlatformProcesses.filePath(request.directory),
            platformOptions: options
        )
        let delivery = LineDelivery(onLine)
        let command = request.arguments[0]
        // Counted as spawning until its group is listed, so an interrupt in between still reaches the child.
        let account = SpawnAccount()
        defer { account.finish() }
        do {
            // The same reading for both kinds of standard input, which give `Execution` different types.
            let body: @Sendable (ProcessIdentifier, SubprocessOutputSequence, SubprocessOutputSequence) async throws -> [UInt8] = { identifier, output, errorOutput in
                account.spawned(identifier.value)
                stopper.started(group: identifier.value)
                async let errors = readLines(errorOutput, as: .stderr, keeping: 0, masker: masker, to: delivery)
                let captured = try await readLines(output, as: .stdout, keeping: captureLimit, masker: masker, to: delivery)
                _ = try await errors
                return captured
            }
            // Standard input is the request's bytes, else /dev/null (`input: .none`).
            let result =
                if let input = request.input {
                    try await Subprocess.run(
                        configuration, input: .fileDescriptor(try PlatformProcesses.inputFile(input), closeAfterSpawningProcess: true),
                        output: .sequence, error: .sequence
                    ) { execution in
                        try await body(execution.processIdentifier, execution.standardOutput, execution.standardError)
                    }
                } else {
                    try await Subprocess.run(configuration, input: .none, output: .sequence, error: .sequence) { execution in
                        try await body(execution.processIdentifier, execution.standardOutput, execution.standardError)
                    }
                }
            let output = String(decoding: result.closureResult, as: UTF8.self)
            switch result.terminationStatus {
            case .exited(let code):
                return ProcessResult(status: code, signal: nil, standardOutput: output)
            case .signaled(let signal):
                return ProcessResult(status: 128 + signal, signal: signal, standardOutput: output)
            }
        } catch let error as SubprocessError {
            switch error.code {
            case .executableNotFound:
                // The search above found it, so execve(2) refused it: ENOENT, EACCES or ENOTDIR, which
                // swift-subprocess reports alike.
                throw ProcessError.spawnFailed(command: command, reason: Self.refusedReason)
            case .failedToChangeWorkingDirectory:
                throw ProcessError.noSuchDirectory(request.directory)
            case .spawnFailed:
                throw ProcessError.spawnFailed(command: command, reason: error.underlyingError.map { "\($0)" } ?? "\(error)")
            default:
                throw ProcessError.outputFailed(command: command, reason: "\(error)")
            }
        }
    }

    /// Reads one of the child's output streams to its end, delivering whole lines as they arrive (see
    /// ``LineSplitter``).
    ///
    /// - Returns: the last `limit` bytes read, from the start of a line: a line the limit cuts is left out whole
    ///   (the part kept could be the end of a secret, which masking recognises only whole).
    private static func readLines(
        _ stream: SubprocessOutputSequence,
        as kind: OutputStreamKind,
        keeping limit: Int,
        masker: SecretMasker?,
        to delivery: LineDelivery
    ) async throws -> [UInt8] {
        var captured: [UInt8] = []
        var cut = false
        var splitter = LineSplitter(masker: masker)
        for try await buffer in stream {
            buffer.withUnsafeBytes { bytes in
                if limit > 0 {
                    captured.append(contentsOf: bytes)
                    if captured.count > limit * 2 {
                        captured.removeFirst(captured.count - limit)
                        cut = true
                    }
                }
                splitter.append(bytes) { delivery.deliver($0, kind) }
            }
        }
        splitter.finish { delivery.deliver($0, kind) }
        if captured.count > limit {
            captured.removeFirst(captured.count - limit)
            cut = true
        }
        if cut { captured.removeFirst(captured.firstIndex(of: 0x0A).map { $0 + 1 } ?? captured.count) }
        return captured
    }
}

/// Hands lines to the caller's callback one at a time, though standard output and standard error are read
/// concurrently.
private final class LineDelivery: Sendable {
    private let onLine: @Sendable (String, OutputStreamKind) -> Void
    private let lock = Mutex(())

    init(_ onLine: @escaping @Sendable (String, OutputStreamKind) -> Void) {
        self.onLine = onLine
    }

    func deliver(_ bytes: ArraySlice<UInt8>, _ kind: OutputStreamKind) {
        var line = String(decoding: bytes, as: UTF8.self)
        if line.hasSuffix("\r") { line.removeLast() }
        lock.withLock { _ in onLine(line, kind) }
    }
}

/// Why a command could not be run.
package enum ProcessError: Error, Sendable, Equatable, CustomStringConvertible {
    case emptyCommand
    case commandNotFound(String)
    case spawnFailed(command: String, reason: String)
    case noSuchDirectory(String)
    case outputFailed(command: String, reason: String)

    package var description: String {
        switch self {
        case .emptyCommand: return "empty command"
        case .commandNotFound(let name): return "command not found: '\(name)'"
        case .spawnFailed(let command, let reason): return "cannot start '\(command)': \(reason)"
        case .noSuchDirectory(let path): return "no such directory '\(path)'"
        case .outputFailed(let command, let reason): return "cannot read the output of '\(command)': \(reason)"
        }
    }
}

/// One spawn as ``ProcessGroups`` counts it: spawning from creation until the child's group is listed, or until the
/// spawn fails.
private final class SpawnAccount: Sendable {
    private let open = Mutex(true)

    init() { ProcessGroups.willSpawn() }

    /// The child runs and leads `group`.
    func spawned(_ group: Int32) {
        if open.withLock({
            let was = $0; $0 = false; return was
        }) {
            ProcessGroups.spawned(group)
        }
    }

    /// The spawn is over: if no child was reported, it failed.
    func finish() {
        if open.withLock({
            let was = $0; $0 = false; return was
        }) {
            ProcessGroups.spawnFailed()
        }
    }
}

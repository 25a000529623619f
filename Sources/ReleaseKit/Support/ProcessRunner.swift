import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A command to run: argv exactly as executed, with its directory and complete environment.
public struct ProcessRequest: Sendable, Equatable {
    public var arguments: [String]
    public var directory: String
    public var environment: [String: String]

    public init(arguments: [String], directory: String, environment: [String: String]) {
        self.arguments = arguments
        self.directory = directory
        self.environment = environment
    }
}

/// How a command ended.
public struct ProcessResult: Sendable, Equatable {
    /// The exit status, or `128 + signal` when a signal ended it (as shells report it).
    public var status: Int32
    /// The signal that ended it, if one did.
    public var signal: Int32?
    /// Standard output, at most the last 1 MiB.
    public var standardOutput: String

    public var succeeded: Bool { status == 0 && signal == nil }
}

/// Which stream a line came from.
public enum OutputStreamKind: String, Sendable, Codable {
    case stdout, stderr
}

/// Runs child processes in their own process group, streaming their output line by line.
///
/// Foundation's `Process` cannot put the child in a process group of its own, and a timeout or Ctrl-C must
/// stop the whole tree a command starts (`xcodebuild` and its compilers, a script's children), so this uses
/// `posix_spawn` with `POSIX_SPAWN_SETPGROUP` and signals the group. Blocking reads run on a thread of their
/// own, off the cooperative pool.
public enum ProcessRunner {
    /// Runs `request` to completion. On task cancellation the process group gets SIGTERM, then SIGKILL after
    /// `killGrace` seconds, and the call throws `CancellationError` once the process is gone.
    public static func run(
        _ request: ProcessRequest,
        killGrace: Double = 3,
        onLine: @escaping @Sendable (String, OutputStreamKind) -> Void
    ) async throws -> ProcessResult {
        guard let first = request.arguments.first, !first.isEmpty else {
            throw ProcessError.emptyCommand
        }
        guard let executable = resolveExecutable(first, directory: request.directory, environment: request.environment) else {
            throw ProcessError.commandNotFound(first)
        }
        let child = try ChildProcess.spawn(executable: executable, request: request)
        let result: ProcessResult = try await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let thread = Thread {
                    continuation.resume(returning: child.drainAndWait(onLine: onLine))
                }
                thread.stackSize = 1 << 20
                thread.start()
            }
        } onCancel: {
            child.terminate(grace: killGrace)
        }
        if Task.isCancelled { throw CancellationError() }
        return result
    }

    /// The file `name` would execute: a path as is (relative to `directory`), else the first match on PATH.
    public static func resolveExecutable(_ name: String, directory: String, environment: [String: String]) -> String? {
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
}

/// Why a command could not be started.
public enum ProcessError: Error, Sendable, Equatable, CustomStringConvertible {
    case emptyCommand
    case commandNotFound(String)
    case spawnFailed(command: String, reason: String)
    case noSuchDirectory(String)

    public var description: String {
        switch self {
        case .emptyCommand: return "empty command"
        case .commandNotFound(let name): return "command not found: '\(name)'"
        case .spawnFailed(let command, let reason): return "cannot start '\(command)': \(reason)"
        case .noSuchDirectory(let path): return "no such directory '\(path)'"
        }
    }
}

/// A spawned child and the read ends of its output pipes.
///
/// `@unchecked Sendable`: `pid` and the descriptors are immutable after `spawn`; the only shared mutable
/// state, whether the child has been reaped, is behind `state`'s lock so `terminate` never signals a
/// recycled process id.
final class ChildProcess: @unchecked Sendable {
    let pid: pid_t
    private let stdoutFD: Int32
    private let stderrFD: Int32
    private let state = Mutex<(reaped: Bool, terminating: Bool)>((false, false))

    private init(pid: pid_t, stdoutFD: Int32, stderrFD: Int32) {
        self.pid = pid
        self.stdoutFD = stdoutFD
        self.stderrFD = stderrFD
    }

    static func spawn(executable: String, request: ProcessRequest) throws -> ChildProcess {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: request.directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ProcessError.noSuchDirectory(request.directory)
        }
        var outPipe: [Int32] = [0, 0]
        var errPipe: [Int32] = [0, 0]
        guard makePipe(&outPipe), makePipe(&errPipe) else {
            throw ProcessError.spawnFailed(command: request.arguments[0], reason: String(cString: strerror(errno)))
        }

        #if canImport(Glibc)
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #else
        var actions: posix_spawn_file_actions_t? = nil
        var attributes: posix_spawnattr_t? = nil
        #endif
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        guard addChdir(&actions, request.directory) == 0 else {
            close(outPipe[0]); close(outPipe[1]); close(errPipe[0]); close(errPipe[1])
            throw ProcessError.spawnFailed(command: request.arguments[0], reason: "posix_spawn cannot change directory here")
        }
        posix_spawnattr_setpgroup(&attributes, 0)
        // Reset the signals the parent handles, so the child gets the default SIGINT/SIGTERM behaviour.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGINT)
        sigaddset(&defaults, SIGTERM)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = request.arguments.map { strdup($0) } + [nil]
        let envp = request.environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        close(outPipe[1])
        close(errPipe[1])
        guard status == 0 else {
            close(outPipe[0])
            close(errPipe[0])
            throw ProcessError.spawnFailed(command: request.arguments[0], reason: String(cString: strerror(status)))
        }
        return ChildProcess(pid: pid, stdoutFD: outPipe[0], stderrFD: errPipe[0])
    }

    #if canImport(Glibc)
    private typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    #else
    private typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t?>, UnsafePointer<CChar>) -> Int32
    #endif

    /// `posix_spawn_file_actions_addchdir_np` (glibc 2.29+, macOS 10.15+). Glibc's Swift module hides it behind
    /// `_GNU_SOURCE`, so it is looked up by name once; its C calling convention is kept by the function type.
    private static let addChdirFunction: AddChdir? = {
        #if os(Linux)
        let defaultHandle: UnsafeMutableRawPointer? = nil  // RTLD_DEFAULT
        #else
        let defaultHandle = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
        #endif
        guard let symbol = dlsym(defaultHandle, "posix_spawn_file_actions_addchdir_np") else { return nil }
        return unsafeBitCast(symbol, to: AddChdir.self)
    }()

    #if canImport(Glibc)
    private static func addChdir(_ actions: inout posix_spawn_file_actions_t, _ path: String) -> Int32 {
        guard let function = addChdirFunction else { return ENOSYS }
        return function(&actions, path)
    }
    #else
    private static func addChdir(_ actions: inout posix_spawn_file_actions_t?, _ path: String) -> Int32 {
        guard let function = addChdirFunction else { return ENOSYS }
        return function(&actions, path)
    }
    #endif

    private static func makePipe(_ fds: inout [Int32]) -> Bool {
        guard pipe(&fds) == 0 else { return false }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return true
    }

    /// Reads both pipes until EOF, delivering whole lines, then reaps the child. Blocking: call on a thread.
    func drainAndWait(onLine: @Sendable (String, OutputStreamKind) -> Void) -> ProcessResult {
        var buffers: [Int32: [UInt8]] = [stdoutFD: [], stderrFD: []]
        var open: Set<Int32> = [stdoutFD, stderrFD]
        var captured: [UInt8] = []
        let captureLimit = 1 << 20
        var chunk = [UInt8](repeating: 0, count: 65536)

        func emit(_ bytes: ArraySlice<UInt8>, _ fd: Int32) {
            var line = String(decoding: bytes, as: UTF8.self)
            if line.hasSuffix("\r") { line.removeLast() }
            onLine(line, fd == stdoutFD ? .stdout : .stderr)
        }

        while !open.isEmpty {
            var pollfds = open.sorted().map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&pollfds, nfds_t(pollfds.count), -1)
            if ready < 0 {
                if errno == EINTR { continue }
                break
            }
            for entry in pollfds where entry.revents != 0 {
                let count = read(entry.fd, &chunk, chunk.count)
                if count <= 0 {
                    if count < 0 && errno == EINTR { continue }
                    open.remove(entry.fd)
                    if let rest = buffers[entry.fd], !rest.isEmpty { emit(rest[...], entry.fd) }
                    buffers[entry.fd] = []
                    continue
                }
                let bytes = chunk[0..<count]
                if entry.fd == stdoutFD {
                    captured.append(contentsOf: bytes)
                    if captured.count > captureLimit * 2 { captured.removeFirst(captured.count - captureLimit) }
                }
                var buffer = buffers[entry.fd] ?? []
                buffer.append(contentsOf: bytes)
                var start = 0
                while let newline = buffer[start...].firstIndex(of: 0x0A) {
                    emit(buffer[start..<newline], entry.fd)
                    start = newline + 1
                }
                buffers[entry.fd] = Array(buffer[start...])
            }
        }
        close(stdoutFD)
        close(stderrFD)

        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        state.withLock { $0.reaped = true }
        if captured.count > captureLimit { captured.removeFirst(captured.count - captureLimit) }
        let output = String(decoding: captured, as: UTF8.self)
        // WIFEXITED / WEXITSTATUS / WTERMSIG are macros Swift cannot import.
        let signal = status & 0x7f
        if signal == 0 {
            return ProcessResult(status: (status >> 8) & 0xff, signal: nil, standardOutput: output)
        }
        return ProcessResult(status: 128 + signal, signal: signal, standardOutput: output)
    }

    /// Sends SIGTERM to the child's process group, then SIGKILL after `grace` seconds if it is still there.
    func terminate(grace: Double) {
        let proceed = state.withLock { current -> Bool in
            if current.reaped || current.terminating { return false }
            current.terminating = true
            return true
        }
        guard proceed else { return }
        kill(-pid, SIGTERM)
        DispatchQueue.global().asyncAfter(deadline: .now() + grace) { [self] in
            let alive = state.withLock { !$0.reaped }
            if alive { kill(-pid, SIGKILL) }
        }
    }
}

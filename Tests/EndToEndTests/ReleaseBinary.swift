import Foundation
import ReleaseSupport
import ReleaseTestSupport

/// Runs the built `release` executable, as a user or CI would.
enum ReleaseBinary {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The executable next to the test bundle (swift test builds it with the tests), else `.build/debug/release`.
    static let path: String = {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for folder in [beside, beside.deletingLastPathComponent(), root.appendingPathComponent(".build/debug")] {
            let candidate = folder.appendingPathComponent("release").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return root.appendingPathComponent(".build/debug/release").path
    }()

    /// A test tool `scripts/setup.sh` installs: from the project's `.tools/venv` first, else from `PATH`.
    static func tool(_ name: String) -> String? {
        let local = root.appendingPathComponent(".tools/venv/bin/" + name).path
        if FileManager.default.isExecutableFile(atPath: local) { return local }
        return ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":").map { "\($0)/\(name)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `release ARGUMENTS` in `directory` with the environment (minus terminal and CI variables) plus `environment`.
    /// `executable` runs instead of `release` when given (a wrapper that starts it). With `interruptOnceExists`, the
    /// process gets SIGINT as soon as that file exists (a step writes it when it is running). Standard input is empty,
    /// or the file `input`.
    static func run(
        _ arguments: [String], in directory: String, environment: [String: String] = [:],
        interruptOnceExists marker: String? = nil, executable: String? = nil, input: String? = nil
    ) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable ?? path)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        var base = ProcessInfo.processInfo.environment
        for name in ["GITHUB_ACTIONS", "CI", "GITHUB_REF_NAME", "GITHUB_HEAD_REF", "RELEASE_BRANCH"] { base[name] = nil }
        base["TMPDIR"] = TestTemporary.root  // what it leaves in its temporary folder goes when the tests end
        if environment["GIT_CONFIG_NOSYSTEM"] == "1" {
            // A runner-like run: no identity reaches git from this machine's environment either.
            for name in ["GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "EMAIL"] { base[name] = nil }
        }
        process.environment = base.merging(environment) { _, new in new }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = try input.map { try FileHandle(forReadingFrom: URL(fileURLWithPath: $0)) } ?? FileHandle.nullDevice
        try process.run()
        // Read both pipes concurrently so a chatty command cannot fill one and stall.
        let group = DispatchGroup()
        nonisolated(unsafe) var stdout = Data(), stderr = Data()
        group.enter()
        DispatchQueue.global().async {
            stdout = out.fileHandleForReading.readDataToEndOfFile(); group.leave()
        }
        group.enter()
        DispatchQueue.global().async {
            stderr = err.fileHandleForReading.readDataToEndOfFile(); group.leave()
        }
        if let marker {
            try waitFor(marker)
            process.interrupt()
        }
        process.waitUntilExit()
        group.wait()
        return Outcome(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// The first line a process writes to `pipe` (a server's URL), without its newline; what came when it ends
    /// without one.
    /// Starts `release` without waiting for it: no stdin, stdout discarded, stderr into `directory/stderrFile`, the CI
    /// variables that would change its output removed, and `path` (a folder of fake tools) first on `PATH`.
    static func start(
        _ arguments: [String], in directory: String, stderrFile: String = "stderr.txt", path: String? = nil,
        environment extra: [String: String] = [:]
    ) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.path)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        var environment = ProcessInfo.processInfo.environment
        for name in ["GITHUB_ACTIONS", "CI", "GITHUB_REF_NAME", "GITHUB_HEAD_REF", "RELEASE_BRANCH"] { environment[name] = nil }
        environment["TMPDIR"] = TestTemporary.root
        if let path { environment["PATH"] = path + ":" + (environment["PATH"] ?? "/usr/bin:/bin") }
        process.environment = environment.merging(extra) { _, new in new }
        FileManager.default.createFile(atPath: directory + "/" + stderrFile, contents: nil)
        process.standardError = FileHandle(forWritingAtPath: directory + "/" + stderrFile)
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Waits until `path` exists (a step writes it when it has started), for at most `seconds`.
    static func waitFor(_ path: String, seconds: Double = 60) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while !FileManager.default.fileExists(atPath: path) {
            guard Date() < deadline else { throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: path]) }
            Thread.sleep(forTimeInterval: 0.01)
        }
    }

    static func firstLine(of pipe: Pipe) -> String {
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        return String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A file of `size` zero bytes that takes no disk (sparse), for uploads of any size.
    static func sparseFile(_ path: String, size: Int64) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: UInt64(size))
        try handle.close()
    }

    /// A new empty folder, spelled canonically. `release` makes its working directory canonical (`realpath`), so
    /// the paths it prints are spelled that way; on a Mac `$TMPDIR` is `/var/folders/...`, a symlink away from the
    /// `/private/var/folders/...` it prints (.ci/run reproduces that on Linux with a symlinked `TMPDIR`).
    static func temporaryDirectory() -> String {
        let path = TestTemporary.root + "/release-e2e-\(UUID().uuidString)"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return canonical(path)
    }

    /// `path` with every symlink resolved, as `release` spells its working directory.
    static func canonical(_ path: String) -> String {
        Platform.canonicalPath(path) ?? path
    }

    /// A new git repository on `branch` with one commit.
    static func gitRepository(branch: String) throws -> String {
        let directory = temporaryDirectory()
        try git(["init", "-q", "-b", branch], in: directory)
        try git(["-c", "user.email=ci@example.com", "-c", "user.name=CI", "commit", "-q", "--allow-empty", "-m", "initial"], in: directory)
        return directory
    }

    /// A scratch copy of the demo (scripts/prepare-demo.sh): the demo app, its build script and Pipelines/, in a
    /// git repository on branch release/3.0.1.
    static func prepareDemo() throws -> String {
        let directory = temporaryDirectory()
        let prepare = Process()
        prepare.executableURL = root.appendingPathComponent("scripts/prepare-demo.sh")
        prepare.arguments = [directory]
        try prepare.run()
        prepare.waitUntilExit()
        guard prepare.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
        return directory
    }

    /// Runs `git ARGUMENTS` in `directory`.
    static func git(_ arguments: [String], in directory: String) throws {
        let git = Process()
        git.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        git.arguments = ["git"] + arguments
        git.currentDirectoryURL = URL(fileURLWithPath: directory)
        try git.run()
        git.waitUntilExit()
    }

    /// Copies a file from Fixtures/ into `directory`.
    static func copyFixture(_ relative: String, to directory: String, as name: String? = nil) throws {
        let source = root.appendingPathComponent("Fixtures").appendingPathComponent(relative)
        let destination = URL(fileURLWithPath: directory).appendingPathComponent(name ?? source.lastPathComponent)
        try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: source, to: destination)
    }
}

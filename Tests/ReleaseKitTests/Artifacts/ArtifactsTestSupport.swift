import Foundation
import ReleaseTestSupport
import Synchronization

@testable import ReleaseSteps

/// A fresh folder under ``TestTemporary/root``, removed when the value goes away.
final class TemporaryFolder: Sendable {
    let path: String

    init(_ label: String = "artifacts") throws {
        path = TestTemporary.root + "/release-\(label)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// `path/relative`.
    func callAsFunction(_ relative: String) -> String { path + "/" + relative }
}

/// Runs a command to completion and returns its status and output (tests only: blocking).
@discardableResult
func runCommand(_ arguments: [String], in directory: String? = nil, environment: [String: String]? = nil) throws -> (status: Int32, output: String, error: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    if let environment { process.environment = environment }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
}

/// Whether `name` is on PATH.
func commandExists(_ name: String) -> Bool {
    (try? runCommand(["sh", "-c", "command -v \(name)"]).status) == 0
}

/// Writes `text` to `path`, creating folders, with `mode`.
func writeFile(_ path: String, _ text: String, mode: Int = 0o644) throws {
    try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    chmod(path, mode_t(mode))
}

/// Records the events a step sends.
final class EventRecorder: Sendable {
    private let storage = Mutex<[StepEvent]>([])
    var events: [StepEvent] { storage.withLock { $0 } }
    func record(_ event: StepEvent) { storage.withLock { $0.append(event) } }

    func context(_ kind: String, in directory: String) -> StepContext {
        StepContext(
            stepID: "test", kind: kind, workingDirectory: directory, environment: ProcessInfo.processInfo.environment,
            sink: { [self] event in record(event) })
    }
}

/// The repository root, found from this file's path.
let repositoryRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<4 { url.deleteLastPathComponent() }
    return url.path
}()

/// `llvm-dwarfdump --uuid`, the independent oracle: `[architecture: UUID]` of the Mach-O file at `path`.
func dwarfdumpUUIDs(_ path: String) throws -> [String: String] {
    let result = try runCommand([DemoArchive.dwarfdump, "--uuid", path])
    var uuids: [String: String] = [:]
    for line in result.output.split(separator: "\n") where line.hasPrefix("UUID: ") {
        let parts = line.split(separator: " ")
        guard parts.count >= 3 else { continue }
        uuids[parts[2].trimmingCharacters(in: CharacterSet(charactersIn: "()"))] = String(parts[1])
    }
    return uuids
}

/// The demo `.xcarchive`s built once per test process by `scripts/build-demo-archive.sh`.
enum DemoArchive {
    /// The dwarfdump the oracle uses: LLVM's, else Xcode's (`dwarfdump --uuid` prints the same lines).
    static let dwarfdump = ["llvm-dwarfdump-14", "llvm-dwarfdump", "dwarfdump"].first(where: commandExists) ?? "llvm-dwarfdump"

    /// Whether the Apple-target toolchain is here (Debian: clang-14 lld-14 llvm-14; a Mac: Xcode's clang, ld, lipo,
    /// dsymutil and dwarfdump, which scripts/build-demo-archive.sh falls back to there).
    static let toolchainAvailable: Bool = {
        let any = { (names: [String]) in names.contains(where: commandExists) }
        #if os(macOS)
        let linkers = ["ld64.lld-14", "ld64.lld", "ld"]
        #else
        let linkers = ["ld64.lld-14", "ld64.lld"]  // GNU ld links no Mach-O
        #endif
        return any(["clang-14", "clang"]) && any(linkers) && any(["llvm-lipo-14", "llvm-lipo", "lipo"])
            && any(["dsymutil-14", "dsymutil"]) && any(["llvm-dwarfdump-14", "llvm-dwarfdump", "dwarfdump"])
    }()

    /// Where the archives are; kept for the whole process (removed with ``TestTemporary/root`` when it exits).
    private static let built: Result<(good: String, mismatched: String), any Error> = Result {
        let folder = TestTemporary.root + "/release-demo-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let script = repositoryRoot + "/scripts/build-demo-archive.sh"
        for (name, extra) in [("good", [String]()), ("mismatched", ["--mismatch"])] {
            let result = try runCommand([script, folder + "/" + name] + extra)
            guard result.status == 0 else {
                throw StepError.failed("build-demo-archive.sh \(name) exited \(result.status): \(result.error)")
            }
        }
        return (folder + "/good/Demo.xcarchive", folder + "/mismatched/Demo.xcarchive")
    }

    /// The archive whose binaries match their dSYMs.
    static func good() throws -> String { try built.get().good }
    /// The archive whose main executable was rebuilt after its dSYM.
    static func mismatched() throws -> String { try built.get().mismatched }
}

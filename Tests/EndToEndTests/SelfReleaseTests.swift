import Foundation
import Testing

/// `release` ships itself: scripts/package.sh makes one binary that runs without Swift installed, and
/// Pipelines/self.json publishes it with release's own steps.
@Suite struct SelfReleaseTests {
    static let environment = ProcessInfo.processInfo.environment
    /// Building the static binary takes minutes, so only a slow run (or one handed a built binary) checks it.
    static let slow = environment["RELEASE_SLOW_TESTS"] == "1"

    /// Runs `executable ARGUMENTS` with exactly `environment`, returning its status and standard output.
    private static func run(
        _ executable: String, _ arguments: [String], in directory: String? = nil,
        environment: [String: String]
    ) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// The packaged binary: `$RELEASE_STATIC_BINARY` when given, else one scripts/package.sh builds and unpacks
    /// (its own scratch path, because `swift test` holds .build).
    private static func packagedBinary() throws -> String {
        if let given = environment["RELEASE_STATIC_BINARY"], !given.isEmpty { return given }
        let dist = ReleaseBinary.temporaryDirectory()
        var packaging = environment
        packaging["RELEASE_SCRATCH_PATH"] = ReleaseBinary.root.appendingPathComponent(".build/static").path
        let packaged = try run(
            "/bin/bash", [ReleaseBinary.root.appendingPathComponent("scripts/package.sh").path, dist],
            environment: packaging)
        #expect(packaged.status == 0)
        let tarball = packaged.output.split(separator: "\n").last.map(String.init) ?? ""
        #expect(try run("/usr/bin/env", ["tar", "-C", dist, "-xzf", tarball], environment: environment).status == 0)
        let folder = URL(fileURLWithPath: tarball).lastPathComponent.replacingOccurrences(of: ".tar.gz", with: "")
        return "\(dist)/\(folder)/release"
    }

    #if os(macOS)
    /// The darwin-universal tarball runs on any Mac of the deployment target: both slices, and only the OS's
    /// libraries (scripts/check-macos-binary.sh, which scripts/package.sh runs too).
    @Test(
        .enabled(
            if: slow || environment["RELEASE_STATIC_BINARY"] != nil,
            "builds the universal binary (minutes); set RELEASE_SLOW_TESTS=1 or RELEASE_STATIC_BINARY=PATH"))
    func thePackagedBinaryNeedsOnlyWhatEveryMacHas() throws {
        let binary = try Self.packagedBinary()
        let check = try Self.run(
            ReleaseBinary.root.appendingPathComponent("scripts/check-macos-binary.sh").path,
            ["--universal", binary], environment: Self.environment)
        #expect(check.status == 0, "\(check.output)")
        let version = try Self.run(binary, ["--version"], environment: ["PATH": "/usr/bin:/bin"])
        #expect(version.status == 0)
        #expect(version.output.contains("."), "\(version.output)")
    }
    #else
    @Test(
        .enabled(
            if: slow || environment["RELEASE_STATIC_BINARY"] != nil,
            "builds the static binary (minutes); set RELEASE_SLOW_TESTS=1 or RELEASE_STATIC_BINARY=PATH"))
    func thePackagedBinaryNeedsNoSwiftLibraries() throws {
        let binary = try Self.packagedBinary()
        let ldd = try Self.run("/usr/bin/env", ["ldd", binary], environment: Self.environment)  // portability: linux-only (the ELF half of this test)
        #expect(ldd.status == 0, "ldd: \(ldd.output)")
        for library in ["libswift", "libFoundation", "lib_Foundation", "libdispatch", "libBlocksRuntime"] {
            #expect(!ldd.output.contains(library), "still linked: \(ldd.output)")
        }
        let version = try Self.run(binary, ["--version"], environment: ["LD_LIBRARY_PATH": "", "PATH": "/usr/bin:/bin"])
        #expect(version.status == 0)
        #expect(version.output.contains("."), "\(version.output)")
        // The platform's hardening (DESIGN §8): position-independent, so the executable's own image is at a random
        // address too, and no executable stack.
        let elf = try Self.elfFacts(binary)
        #expect(elf.type == 3, "not position-independent: ELF e_type \(elf.type) (EXEC = 2, PIE is DYN = 3)")
        #expect(elf.hasInterpreter, "a DYN file without PT_INTERP is a library, not a PIE executable")
        #expect(
            elf.stackFlags.map { $0 & 1 == 0 } == true,
            "the stack must not be executable: PT_GNU_STACK flags \(elf.stackFlags.map(String.init) ?? "missing")")
    }
    #endif

    /// The ELF facts that make a hardened executable: `e_type`, whether it names a loader (PT_INTERP), and the flags
    /// of PT_GNU_STACK (nil when absent: the loader then assumes an executable stack). 64-bit little-endian only.
    static func elfFacts(_ path: String) throws -> (type: UInt16, hasInterpreter: Bool, stackFlags: UInt32?) {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped))
        try #require(
            bytes.count >= 64 && bytes.prefix(4) == [0x7F, 0x45, 0x4C, 0x46] && bytes[4] == 2 && bytes[5] == 1,
            "not a 64-bit little-endian ELF file")
        func integer(_ offset: Int, _ size: Int) -> UInt64 {
            (0..<size).reduce(UInt64(0)) { $0 | UInt64(bytes[offset + $1]) << (8 * $1) }
        }
        let tableOffset = Int(integer(32, 8)), entrySize = Int(integer(54, 2)), count = Int(integer(56, 2))
        var hasInterpreter = false
        var stackFlags: UInt32?
        for index in 0..<count {
            let entry = tableOffset + index * entrySize
            guard entry + 8 <= bytes.count else { break }
            switch integer(entry, 4) {
            case 3: hasInterpreter = true  // PT_INTERP
            case 0x6474_E551: stackFlags = UInt32(integer(entry + 4, 4))  // PT_GNU_STACK; PF_X = 1
            default: break
            }
        }
        return (UInt16(integer(16, 2)), hasInterpreter, stackFlags)
    }

    /// The self pipeline, rehearsed with a stand-in packager (the real scripts/package.sh is checked by the test
    /// above; building it twice at once would only wait on SwiftPM's lock) and the local GitHub server, whose
    /// storage belongs to this test alone.
    @Test func theSelfPipelinePublishesTheTarballAndItsChecksums() throws {
        let directory = try ReleaseBinary.gitRepository(branch: "main")
        try FileManager.default.copyItem(
            atPath: ReleaseBinary.root.appendingPathComponent("Pipelines/self.json").path,
            toPath: directory + "/self.json")
        try FileManager.default.createDirectory(atPath: directory + "/scripts", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: ReleaseBinary.root.appendingPathComponent("scripts/homebrew-formula.sh").path,
            toPath: directory + "/scripts/homebrew-formula.sh")
        let fake = directory + "/fake-package.sh"
        try """
        #!/bin/sh
        set -e
        mkdir -p "$1"
        printf '%s' "$2" > "$1/release-9.9.9-$2.tar.gz"
        printf 'version=9.9.9\\ntarball=%s\\n' "$1/release-9.9.9-$2.tar.gz" >> "$RELEASE_OUTPUT"
        """.write(toFile: fake, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake)
        let variables = ["--var", "package=" + fake]
        // One machine plays the three runners: macOS for the universal binary, RUNNER_ARCH for the arm64 one.
        let outcome = try ReleaseBinary.run(
            ["run", "self.json", "--rehearse", "--os", "macos"] + variables, in: directory,
            environment: [
                "GITHUB_TOKEN": "ghp_rehearsalToken0123456789", "RUNNER_ARCH": "ARM64",
                "GITHUB_REPOSITORY": "owner/release",
            ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("owner/release v"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("    SHA256SUMS  "), "\(outcome.stderr)")
        // The Homebrew formula that installs the three, for a tap.
        #expect(outcome.stderr.contains("    release.rb  "), "\(outcome.stderr)")
        #expect(
            outcome.stderr.contains("homebrew-formula: dist/release.rb installs release 9.9.9 from https://github.com/owner/release/releases/download/v9.9.9"),
            "\(outcome.stderr)")
        for platform in ["linux-x86_64", "linux-arm64", "darwin-universal"] {
            #expect(outcome.stderr.contains("    release-9.9.9-\(platform).tar.gz"), "\(outcome.stderr)")
        }
        // On one Linux x86_64 machine, the other platforms' steps are skipped, and so is the publish: nothing
        // half-released. The machine is named, not inherited: on a Mac, or a runner whose RUNNER_ARCH is ARM64
        // (GitHub's macos-15), the test would otherwise run other steps than it means to.
        let alone = try ReleaseBinary.run(
            ["run", "self.json", "--rehearse", "--os", "linux"] + variables, in: directory,
            environment: [
                "GITHUB_TOKEN": "ghp_rehearsalToken0123456789", "GITHUB_REPOSITORY": "owner/release", "RUNNER_ARCH": "X64",
                "CI_RUNNER_EXECUTABLE_ARCH": "linux/amd64",
            ])
        #expect(alone.status == 0, "\(alone.stderr)")
        #expect(alone.stderr.contains("○ publish skipped: uses outputs of 'package-darwin-universal', which runs on macos only"), "\(alone.stderr)")
        #expect(alone.stderr.contains("○ sums skipped"), "\(alone.stderr)")
        #expect(alone.stderr.contains("○ formula skipped"), "\(alone.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory + "/dist"), "cleanup removes dist")
    }
}

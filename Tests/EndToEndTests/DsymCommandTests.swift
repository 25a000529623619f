import Foundation
import ReleaseTestSupport
import Testing

private func release(_ arguments: [String], in directory: String) throws -> (status: Int32, stdout: String, stderr: String) {
    let outcome = try ReleaseBinary.run(arguments, in: directory)
    return (outcome.status, outcome.stdout, outcome.stderr)
}

/// A thin arm64 executable header with one LC_UUID: the smallest file `release dsym` reads.
private let thinArm64: [UInt8] = {
    func word(_ value: UInt32) -> [UInt8] { [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF), UInt8((value >> 16) & 0xFF), UInt8(value >> 24)] }
    let uuid: [UInt8] = [0xDE, 0xAD, 0xBE, 0xEF, 0, 1, 0x20, 0x02, 0x80, 0x03, 0, 0, 0, 0, 0, 0x42]
    return word(0xFEED_FACF) + word(0x0100_000C) + word(0) + word(2) + word(1) + word(24) + word(0) + word(0)
        + word(0x1B) + word(24) + uuid
}()

@Suite
struct DsymCommandTests {
    @Test func printsUUIDsAsJSON() throws {
        let folder = TestTemporary.root + "/release-e2e-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(thinArm64).write(to: URL(fileURLWithPath: folder + "/App"))

        let result = try release(["dsym", "App", "--json"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        let binaries = try #require(json.first?["binaries"] as? [[String: Any]])
        let slices = try #require(binaries.first?["slices"] as? [[String: Any]])
        #expect(slices.first?["architecture"] as? String == "arm64")
        #expect(slices.first?["uuid"] as? String == "DEADBEEF-0001-2002-8003-000000000042")

        let human = try release(["dsym", "App"], in: folder)
        #expect(human.stdout.contains("arm64    DEADBEEF-0001-2002-8003-000000000042"))
    }

    /// A dSYM holding a file that is not Mach-O and an empty one: warnings name them, the rest is matched, and the
    /// exit status is that of what could be checked.
    @Test func junkInsideADsymIsAWarning() throws {
        let folder = TestTemporary.root + "/release-e2e-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let dwarf = folder + "/App.dSYM/Contents/Resources/DWARF"
        try FileManager.default.createDirectory(atPath: dwarf, withIntermediateDirectories: true)
        try Data(thinArm64).write(to: URL(fileURLWithPath: folder + "/App"))
        try Data(thinArm64).write(to: URL(fileURLWithPath: dwarf + "/App"))
        try Data("not a binary\n".utf8).write(to: URL(fileURLWithPath: dwarf + "/README"))
        try Data().write(to: URL(fileURLWithPath: dwarf + "/empty"))

        let result = try release(["dsym", "App.dSYM"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr == """
                warning: 'App.dSYM/Contents/Resources/DWARF/README' is not a mach-o file (magic '0x6e6f7420'); skipped, the rest of 'App.dSYM' is still checked
                warning: 'App.dSYM/Contents/Resources/DWARF/empty' is empty or too short to be a mach-o file; skipped, the rest of 'App.dSYM' is still checked

                """)
        #expect(result.stdout.contains("App.dSYM/Contents/Resources/DWARF/App\n      arm64    DEADBEEF-0001-2002-8003-000000000042"))

        let json = try release(["dsym", ".", "--json"], in: folder)
        #expect(json.status == 0)
        let inspections = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect((inspections.first?["warnings"] as? [String])?.count == 2)
        #expect((inspections.first?["report"] as? [String: Any])?["complete"] as? Bool == true)
    }

    @Test func anUnreadablePathExitsOne() throws {
        let result = try release(["dsym", "/no/such/App.xcarchive"], in: "/")
        #expect(result.status == 1)
        #expect(result.stderr == "error: cannot read '/no/such/App.xcarchive': no such file or directory\n")
    }
}

/// Bare macOS command-line tools and their dSYMs, built with the LLVM toolchain the demo archive uses.
@Suite
struct BareToolDsymTests {
    static let tools = ["clang-14", "ld64.lld-14", "dsymutil-14", "llvm-dwarfdump-14"]
    static var toolchainAvailable: Bool { tools.allSatisfy { ReleaseBinary.tool($0) != nil } }

    /// Runs a tool of the toolchain in `folder`, failing the test with its error output.
    private static func toolchain(_ arguments: [String], in folder: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(ReleaseBinary.tool(arguments[0])))
        process.arguments = Array(arguments.dropFirst())
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        let err = Pipe()
        process.standardError = err
        try process.run()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "\(arguments.joined(separator: " ")): \(message)")
    }

    /// Compiles and links the arm64 macOS executable `folder/name` from `body` (the text of `main`'s body).
    private static func link(_ name: String, in folder: String, body: String) throws {
        try Data("int main(void) { \(body) }\n".utf8).write(to: URL(fileURLWithPath: "\(folder)/\(name).c"))
        try toolchain(
            [
                "clang-14", "-target", "arm64-apple-macos11", "-g", "-O1", "-ffreestanding", "-fno-builtin",
                "-fno-stack-protector", "-c", "\(name).c", "-o", "\(name).o",
            ], in: folder)
        try toolchain(
            [
                "ld64.lld-14", "-arch", "arm64", "-platform_version", "macos", "11.0", "11.0", "-e", "_main",
                "-o", name, "\(name).o",
            ], in: folder)
    }

    /// `folder/name` and `folder/name.dSYM` (from dsymutil); only those two are left in the folder.
    private static func build(_ name: String, in folder: String, body: String = "return 0;") throws {
        try link(name, in: folder, body: body)
        try toolchain(["dsymutil-14", name, "-o", "\(name).dSYM"], in: folder)
        for leftover in [".c", ".o"] { try FileManager.default.removeItem(atPath: "\(folder)/\(name)\(leftover)") }
    }

    /// The arm64 UUID llvm-dwarfdump (the independent oracle) reads in `path`.
    private static func uuid(_ path: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(ReleaseBinary.tool("llvm-dwarfdump-14")))
        process.arguments = ["--uuid", path]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let words = try #require(output.split(separator: "\n").first { $0.hasPrefix("UUID: ") && $0.contains("(arm64)") })
            .split(separator: " ")
        return String(words[1])
    }

    private static func folder() -> String {
        ReleaseBinary.temporaryDirectory()
    }

    /// `release dsym crash crash.dSYM`, the tool and its dSYM in one folder: the pair is judged.
    @Test(.enabled(if: toolchainAvailable, "needs clang-14, lld-14 and llvm-14 (scripts/setup.sh installs them)"))
    func aBareToolAndItsDsymOnTheCommandLineArePaired() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.build("crash", in: folder)
        let uuid = try Self.uuid(folder + "/crash")
        #expect(try Self.uuid(folder + "/crash.dSYM/Contents/Resources/DWARF/crash") == uuid)

        let result = try release(["dsym", "crash", "crash.dSYM"], in: folder)
        #expect(result.status == 0)
        #expect(result.stderr == "")
        try Snapshot.expect(result.stdout, matches: "dsym-tool-and-dsym", placeholders: [folder: "$FOLDER", uuid: "$UUID"])
    }

    /// The tool and its dSYM in different folders are judged together when both are given, and a dSYM of
    /// another build is a mismatch listed as matching no binary.
    @Test(.enabled(if: toolchainAvailable, "needs clang-14, lld-14 and llvm-14 (scripts/setup.sh installs them)"))
    func aToolAndADsymFromAnotherFolderAreJudged() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for name in ["bin", "symbols"] {
            try FileManager.default.createDirectory(atPath: "\(folder)/\(name)", withIntermediateDirectories: true)
        }
        try Self.build("crash", in: folder + "/symbols")
        try FileManager.default.moveItem(atPath: folder + "/symbols/crash", toPath: folder + "/bin/crash")
        try Self.build("other", in: folder + "/symbols", body: "return 7;")
        try FileManager.default.removeItem(atPath: folder + "/symbols/other")
        let uuid = try Self.uuid(folder + "/bin/crash")
        let other = try Self.uuid(folder + "/symbols/other.dSYM/Contents/Resources/DWARF/other")

        let result = try release(["dsym", "bin/crash", "symbols/crash.dSYM", "symbols/other.dSYM"], in: folder)
        #expect(result.status == 0)
        #expect(result.stderr == "")
        #expect(
            result.stdout.hasPrefix(
                """
                \(folder)/bin/crash (binary)
                  binaries:
                    crash [file]
                      arm64    \(uuid)  ok: \(folder)/symbols/crash.dSYM/Contents/Resources/DWARF/crash
                  1 of 1 binary slices have their dSYM; 1 dSYM slices match no binary
                  unmatched dSYM: \(folder)/symbols/other.dSYM/Contents/Resources/DWARF/other (arm64) \(other)

                \(folder)/symbols/crash.dSYM (dsym)

                """))
    }

    /// `release dsym DIR`: bare tools beside their dSYMs are matched, and one rebuilt after its dSYM is a mismatch.
    @Test(.enabled(if: toolchainAvailable, "needs clang-14, lld-14 and llvm-14 (scripts/setup.sh installs them)"))
    func aFolderPairsBareToolsWithTheDsymsBesideThem() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.build("crash", in: folder)
        try Self.build("stale", in: folder, body: "return 1;")
        let stale = try Self.uuid(folder + "/stale.dSYM/Contents/Resources/DWARF/stale")
        try Self.link("stale", in: folder, body: "return 2;")
        for leftover in [".c", ".o"] { try FileManager.default.removeItem(atPath: "\(folder)/stale\(leftover)") }
        let crash = try Self.uuid(folder + "/crash"), rebuilt = try Self.uuid(folder + "/stale")
        #expect(rebuilt != stale)

        let result = try release(["dsym", "."], in: folder)
        #expect(result.status == 0)
        #expect(result.stderr == "")
        try Snapshot.expect(
            result.stdout, matches: "dsym-folder-of-tools",
            placeholders: [
                folder: "$FOLDER", crash: "$CRASH_UUID", rebuilt: "$REBUILT_UUID", stale: "$STALE_UUID",
            ])
    }

    /// A command-line tool's archive (`Products/usr/local/bin/crash`, `dSYMs/crash.dSYM`) pairs the tool with its
    /// dSYM by name; a script named like another dSYM is skipped with a warning, not an error.
    @Test(.enabled(if: toolchainAvailable, "needs clang-14, lld-14 and llvm-14 (scripts/setup.sh installs them)"))
    func aToolArchivePairsTheToolWithItsDsym() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let archive = folder + "/Tool.xcarchive"
        for name in ["Products/usr/local/bin", "dSYMs"] {
            try FileManager.default.createDirectory(atPath: "\(archive)/\(name)", withIntermediateDirectories: true)
        }
        try Self.build("crash", in: archive + "/dSYMs")
        try FileManager.default.moveItem(atPath: archive + "/dSYMs/crash", toPath: archive + "/Products/usr/local/bin/crash")
        try Data("#!/bin/sh\n".utf8).write(to: URL(fileURLWithPath: archive + "/Products/usr/local/bin/report"))
        try FileManager.default.copyItem(atPath: archive + "/dSYMs/crash.dSYM", toPath: archive + "/dSYMs/report.dSYM")
        let uuid = try Self.uuid(archive + "/Products/usr/local/bin/crash")

        let result = try release(["dsym", "Tool.xcarchive"], in: folder)
        #expect(result.status == 0)
        #expect(
            result.stderr == """
                warning: 'Products/usr/local/bin/report' is not a mach-o file (magic '0x23212f62'); skipped, though a dSYM has its name

                """)
        try Snapshot.expect(result.stdout, matches: "dsym-tool-archive", placeholders: [folder: "$FOLDER", uuid: "$UUID"])
    }
}

import Foundation
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
        let folder = NSTemporaryDirectory() + "release-e2e-\(UUID().uuidString)"
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
        let folder = NSTemporaryDirectory() + "release-e2e-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let dwarf = folder + "/App.dSYM/Contents/Resources/DWARF"
        try FileManager.default.createDirectory(atPath: dwarf, withIntermediateDirectories: true)
        try Data(thinArm64).write(to: URL(fileURLWithPath: folder + "/App"))
        try Data(thinArm64).write(to: URL(fileURLWithPath: dwarf + "/App"))
        try Data("not a binary\n".utf8).write(to: URL(fileURLWithPath: dwarf + "/README"))
        try Data().write(to: URL(fileURLWithPath: dwarf + "/empty"))

        let result = try release(["dsym", "App.dSYM"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == """
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

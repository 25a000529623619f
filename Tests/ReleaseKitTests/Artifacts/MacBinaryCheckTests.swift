import Foundation
import ReleaseTestSupport
import Testing

@testable import ReleaseKit

/// scripts/check-macos-binary.sh, which scripts/package.sh runs on the darwin-universal binary, judged on the demo
/// archive's real Mach-O files: it refuses a library a stock Mac does not have and a missing slice, and passes a
/// binary that links only /usr/lib.
@Suite(
    .enabled(
        if: DemoArchive.toolchainAvailable && ["otool", "llvm-otool", "llvm-otool-14"].contains(where: commandExists),
        "needs the demo archive's toolchain and otool (Xcode) or llvm-otool (apt-get install llvm-14)"))
struct MacBinaryCheckTests {
    static let script = repositoryRoot + "/scripts/check-macos-binary.sh"

    @Test func aBinaryNeedingAnRpathLibraryIsRefused() throws {
        let archive = try DemoArchive.good()
        // Demo links @rpath/DemoKit.framework/DemoKit (shipped inside its app, which a CLI tarball has no room for).
        let demo = try runCommand([Self.script, "--universal", archive + "/Products/Applications/Demo.app/Demo"])
        #expect(demo.status == 1)
        #expect(demo.error.contains("needs @rpath/DemoKit.framework/DemoKit, which a stock Mac does not have"), "\(demo.error)")
        #expect(!demo.error.contains("libSystem"), "the system library is fine: \(demo.error)")
    }

    @Test func bothSlicesAreRequiredWithUniversal() throws {
        let widget = try DemoArchive.good() + "/Products/Applications/Demo.app/PlugIns/DemoWidget.appex/DemoWidget"
        // The widget is thin arm64 and links only /usr/lib/libSystem.B.dylib.
        #expect(try runCommand([Self.script, widget]).status == 0)
        let universal = try runCommand([Self.script, "--universal", widget])
        #expect(universal.status == 1)
        #expect(universal.error.contains("has no x86_64 slice"), "\(universal.error)")
    }

    @Test func aFileThatIsNoMachOIsRefused() throws {
        let text = TestTemporary.root + "/release-not-macho-\(UUID().uuidString)"
        try "#!/bin/sh\n".write(toFile: text, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: text) }
        #expect(try runCommand([Self.script, text]).status != 0)
    }
}

import Foundation
import ReleaseTestSupport
import Testing

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

    /// The one library the darwin tarball carries: Swift's Span back-deployment library (a macOS 15 deployment
    /// target links @rpath/libswiftCompatibilitySpan.dylib; README, "Platforms"). It passes beside the binary with the
    /// rpaths /usr/lib/swift then @executable_path, and not otherwise.
    @Test func theSpanLibraryPassesOnlyBesideTheBinaryWithAnExecutablePathRpath() throws {
        let folder = TestTemporary.directory("release-span")
        let first = { (names: [String]) in names.first(where: commandExists) }
        let clang = try #require(first(["clang-14", "clang"]))
        #if os(macOS)
        let linker = try #require(first(["ld64.lld-14", "ld64.lld", "ld"]))
        #else
        let linker = try #require(first(["ld64.lld-14", "ld64.lld"]))
        #endif
        let system = repositoryRoot + "/Fixtures/DemoApp/libSystem.tbd"
        let span = "libswiftCompatibilitySpan.dylib"
        try writeFile(folder + "/span.c", "int span_shim(void) { return 1; }\n")
        try writeFile(folder + "/main.c", "int span_shim(void);\nint main(void) { return span_shim(); }\n")
        for name in ["span", "main"] {
            let compiled = try runCommand([clang, "-target", "arm64-apple-ios15.0", "-ffreestanding", "-c", "\(name).c", "-o", "\(name).o"], in: folder)
            try #require(compiled.status == 0, "\(compiled.error)")
        }
        let platform = ["-arch", "arm64", "-platform_version", "ios", "15.0", "15.0"]
        let library = try runCommand([linker] + platform + ["-dylib", "-install_name", "@rpath/" + span, "-o", span, "span.o", system], in: folder)
        try #require(library.status == 0, "\(library.error)")
        func binary(_ name: String, rpaths: [String], withLibrary: Bool) throws -> String {
            try FileManager.default.createDirectory(atPath: folder + "/" + name, withIntermediateDirectories: true)
            let linked = try runCommand(
                [linker] + platform + ["-e", "_main", "-o", name + "/release", "main.o", span, system] + rpaths.flatMap { ["-rpath", $0] }, in: folder)
            try #require(linked.status == 0, "\(linked.error)")
            if withLibrary { try FileManager.default.copyItem(atPath: folder + "/" + span, toPath: folder + "/" + name + "/" + span) }
            return folder + "/" + name + "/release"
        }
        let shipped = try binary("shipped", rpaths: ["/usr/lib/swift", "@executable_path"], withLibrary: true)
        let good = try runCommand([Self.script, shipped])
        #expect(good.status == 0, "\(good.error)")
        let alone = try runCommand([Self.script, try binary("alone", rpaths: ["/usr/lib/swift", "@executable_path"], withLibrary: false)])
        #expect(alone.status == 1)
        #expect(alone.error.contains("needs @rpath/\(span), which is not beside it"), "\(alone.error)")
        let unfound = try runCommand([Self.script, try binary("unfound", rpaths: [], withLibrary: true)])
        #expect(unfound.status == 1)
        #expect(unfound.error.contains("its rpaths must be /usr/lib/swift, then @executable_path (they are: none)"), "\(unfound.error)")
        let reversed = try runCommand([Self.script, try binary("reversed", rpaths: ["@executable_path", "/usr/lib/swift"], withLibrary: true)])
        #expect(reversed.status == 1, "the shipped copy would win over the system's: \(reversed.error)")
        // A thin library beside a universal binary would fail on the other architecture.
        let thin = try runCommand([Self.script, "--universal", shipped])
        #expect(thin.error.contains("\(span) lacks a slice"), "\(thin.error)")
    }

    @Test func aFileThatIsNoMachOIsRefused() throws {
        let text = TestTemporary.root + "/release-not-macho-\(UUID().uuidString)"
        try "#!/bin/sh\n".write(toFile: text, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: text) }
        #expect(try runCommand([Self.script, text]).status != 0)
    }
}

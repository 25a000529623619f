import Foundation
import Testing

@testable import ReleaseArtifacts

private func slice(_ arch: String, _ uuid: String?) -> MachOSlice {
    MachOSlice(architecture: arch, cpuType: arch == "arm64" ? 0x0100_000C : 0x0100_0007, cpuSubtype: 0, fileType: "execute", uuid: uuid, offset: 0, is64Bit: true)
}

@Suite struct DsymMatcherTests {
    let binaries = [
        BundleBinary(path: "Demo.app/Demo", bundle: "Demo.app", name: "Demo", role: .app, slices: [slice("arm64", "A1"), slice("x86_64", "A2")]),
        BundleBinary(path: "Demo.app/Frameworks/Kit.framework/Kit", bundle: "Demo.app/Frameworks/Kit.framework", name: "Kit", role: .framework, slices: [slice("arm64", "K1")]),
        BundleBinary(path: "Demo.app/PlugIns/W.appex/W", bundle: "Demo.app/PlugIns/W.appex", name: "W", role: .appExtension, slices: [slice("arm64", nil)]),
    ]
    let dsyms = [
        DsymBinary(path: "Demo.app.dSYM/Contents/Resources/DWARF/Demo", bundle: "Demo.app.dSYM", name: "Demo", slices: [slice("arm64", "A1"), slice("x86_64", "OLD")]),
        DsymBinary(path: "Other.dSYM/Contents/Resources/DWARF/Other", bundle: "Other.dSYM", name: "Other", slices: [slice("arm64", "O1")]),
    ]

    @Test func verdictsPerArchitecture() {
        let report = DsymMatcher.match(binaries: binaries, dsyms: dsyms)
        #expect(report.slices.map(\.verdict) == [.matched, .mismatched, .missing, .noUUID])
        #expect(
            report.problems == [
                "binary 'Demo.app/Demo' (x86_64) has uuid 'A2' but its dSYM 'Demo.app.dSYM/Contents/Resources/DWARF/Demo' has uuid 'OLD'",
                "binary 'Demo.app/Frameworks/Kit.framework/Kit' (arm64) uuid 'K1': no dSYM",
                "binary 'Demo.app/PlugIns/W.appex/W' (arm64) has no LC_UUID: crash reports cannot be matched to a dSYM",
            ])
        #expect(
            report.unmatchedDsymSlices == [
                .init(dsym: "Demo.app.dSYM/Contents/Resources/DWARF/Demo", architecture: "x86_64", uuid: "OLD"),
                .init(dsym: "Other.dSYM/Contents/Resources/DWARF/Other", architecture: "arm64", uuid: "O1"),
            ])
        #expect(report.binariesWithoutDsym == ["Demo.app/Frameworks/Kit.framework/Kit", "Demo.app/PlugIns/W.appex/W"])
        #expect(!report.isComplete)
    }

    @Test func jsonIsSnakeCaseAndRoundTrips() throws {
        let report = DsymMatcher.match(binaries: binaries, dsyms: dsyms)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(report), as: UTF8.self)
        #expect(json.contains(#""binaries_without_dsym":["Demo.app\/Frameworks\/Kit.framework\/Kit","Demo.app\/PlugIns\/W.appex\/W"]"#))
        #expect(json.contains(#""complete":false"#))
        #expect(json.contains(#""verdict":"no-uuid""#))
        #expect(try JSONDecoder().decode(DsymMatchReport.self, from: Data(json.utf8)) == report)
    }

    @Test func humanRendering() {
        let inspection = DsymInspection(
            path: "/b/Demo.app", kind: .app, root: "/b", binaries: Array(binaries[0..<2]), dsyms: [dsyms[0]],
            report: DsymMatcher.match(binaries: Array(binaries[0..<2]), dsyms: [dsyms[0]]))
        #expect(
            DsymReportRenderer.render(inspection) == """
                /b/Demo.app (app)
                  binaries:
                    Demo.app/Demo [app]
                      arm64    A1  ok: Demo.app.dSYM/Contents/Resources/DWARF/Demo
                      x86_64   A2  MISMATCH: Demo.app.dSYM/Contents/Resources/DWARF/Demo has OLD
                    Demo.app/Frameworks/Kit.framework/Kit [framework]
                      arm64    K1  MISSING: no dSYM
                  dSYMs:
                    Demo.app.dSYM/Contents/Resources/DWARF/Demo
                      arm64    A1
                      x86_64   OLD
                  1 of 3 binary slices have their dSYM; 1 dSYM slices match no binary
                  problem: binary 'Demo.app/Demo' (x86_64) has uuid 'A2' but its dSYM 'Demo.app.dSYM/Contents/Resources/DWARF/Demo' has uuid 'OLD'
                  problem: binary 'Demo.app/Frameworks/Kit.framework/Kit' (arm64) uuid 'K1': no dSYM
                  unmatched dSYM: Demo.app.dSYM/Contents/Resources/DWARF/Demo (x86_64) OLD

                """)
    }

    @Test func theManifestIsSortedAndSkipsSlicesWithoutUUID() throws {
        let manifest = DsymManifest(describing: [
            DsymBinary(path: "b/Z.dSYM/Contents/Resources/DWARF/Z", bundle: "b/Z.dSYM", name: "Z", slices: [slice("x86_64", "Z2"), slice("arm64", "Z1")]),
            DsymBinary(path: "a/A.dSYM/Contents/Resources/DWARF/A", bundle: "a/A.dSYM", name: "A", slices: [slice("arm64", nil)]),
        ])
        #expect(
            manifest.dsyms == [
                .init(bundle: "Z.dSYM", binary: "Z", arch: "arm64", uuid: "Z1"),
                .init(bundle: "Z.dSYM", binary: "Z", arch: "x86_64", uuid: "Z2"),
            ])
        #expect(
            String(decoding: try manifest.json(), as: UTF8.self) == """
                {
                  "dsyms" : [
                    {
                      "arch" : "arm64",
                      "binary" : "Z",
                      "bundle" : "Z.dSYM",
                      "uuid" : "Z1"
                    },
                    {
                      "arch" : "x86_64",
                      "binary" : "Z",
                      "bundle" : "Z.dSYM",
                      "uuid" : "Z2"
                    }
                  ]
                }

                """)
    }
}

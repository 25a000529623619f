import Foundation
import Testing

@testable import ReleaseArtifacts
@testable import ReleaseSteps
@testable import ReleaseSupport

/// The real demo `.xcarchive` (built with clang, ld64.lld, llvm-lipo and dsymutil) checked against
/// `llvm-dwarfdump --uuid`, the independent oracle.
// The toolchain is Debian's clang-14, lld-14 and llvm-14; without it these tests are skipped with this reason.
@Suite(.enabled(if: DemoArchive.toolchainAvailable, "needs clang, ld64.lld, llvm-lipo, dsymutil, llvm-dwarfdump (apt-get install clang-14 lld-14 llvm-14)"))
struct DemoArchiveTests {
    static let binaries = [
        "Products/Applications/Demo.app/Demo",
        "Products/Applications/Demo.app/Frameworks/DemoKit.framework/DemoKit",
        "Products/Applications/Demo.app/PlugIns/DemoWidget.appex/DemoWidget",
    ]
    static let dsyms = [
        "dSYMs/Demo.app.dSYM/Contents/Resources/DWARF/Demo",
        "dSYMs/DemoKit.framework.dSYM/Contents/Resources/DWARF/DemoKit",
        "dSYMs/DemoWidget.appex.dSYM/Contents/Resources/DWARF/DemoWidget",
    ]

    @Test func uuidsOfEveryBinaryAndDsymMatchDwarfdump() throws {
        let archive = try DemoArchive.good()
        for path in Self.binaries + Self.dsyms {
            let file = try MachOReader.read(path: archive + "/" + path)
            let ours = Dictionary(uniqueKeysWithValues: file.slices.map { ($0.architecture, $0.uuid ?? "") })
            let oracle = try dwarfdumpUUIDs(archive + "/" + path)
            #expect(!oracle.isEmpty, "dwarfdump printed no UUID for \(path)")
            #expect(ours == oracle, "\(path)")
        }
        let main = try MachOReader.read(path: archive + "/" + Self.binaries[0])
        #expect(main.isFat)
        #expect(Set(main.slices.map(\.architecture)) == ["arm64", "x86_64"])
        #expect(try MachOReader.read(path: archive + "/" + Self.dsyms[0]).slices.allSatisfy { $0.fileType == "dsym" })
    }

    @Test func theArchiveHasXcodesLayoutAndInfo() throws {
        let archive = try DemoArchive.good()
        let data = try Data(contentsOf: URL(fileURLWithPath: archive + "/Info.plist"))
        let plist = try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
        let properties = try #require(plist["ApplicationProperties"] as? [String: Any])
        #expect(properties["ApplicationPath"] as? String == "Applications/Demo.app")
        #expect(properties["CFBundleShortVersionString"] as? String == "3.0.0")
        #expect(properties["CFBundleVersion"] as? String == "4146")
        #expect(properties["CFBundleIdentifier"] as? String == "com.example.demo")
        #expect(plist["SchemeName"] as? String == "Demo")
        #expect(plist["CreationDate"] is Date)
    }

    @Test func everyBinaryOfTheGoodArchiveHasItsDsym() throws {
        let archive = try DemoArchive.good()
        let inspection = try DsymInspector.inspect(archive)
        #expect(inspection.kind == .xcarchive)
        #expect(inspection.binaries.map(\.path) == Self.binaries)
        #expect(inspection.binaries.map(\.role) == [.app, .framework, .appExtension])
        #expect(inspection.dsyms.map(\.path) == Self.dsyms)
        let report = try #require(inspection.report)
        #expect(report.slices.count == 5)
        #expect(report.isComplete)
        #expect(report.unmatchedDsymSlices.isEmpty)
        #expect(report.binariesWithoutDsym.isEmpty)
        let main = try dwarfdumpUUIDs(archive + "/" + Self.binaries[0])
        #expect(report.slices.filter { $0.binary == Self.binaries[0] }.map { $0.uuid ?? "" }.sorted() == main.values.sorted())
    }

    @Test func theRebuiltBinaryIsCaughtWithBothUUIDs() throws {
        let archive = try DemoArchive.mismatched()
        let report = try #require(try DsymInspector.inspect(archive).report)
        let binary = try dwarfdumpUUIDs(archive + "/" + Self.binaries[0])
        let dsym = try dwarfdumpUUIDs(archive + "/" + Self.dsyms[0])
        #expect(binary["arm64"] != dsym["arm64"])
        let expected = ["x86_64", "arm64"].map { arch in
            "binary '\(Self.binaries[0])' (\(arch)) has uuid '\(binary[arch]!)' but its dSYM '\(Self.dsyms[0])' has uuid '\(dsym[arch]!)'"
        }
        #expect(report.problems.sorted() == expected.sorted())
        #expect(report.slices.filter { $0.verdict == .matched }.count == 3)
        #expect(report.binariesWithoutDsym == [Self.binaries[0]])
        #expect(Set(report.unmatchedDsymSlices.map(\.uuid)) == Set(dsym.values.map(Optional.some)))
    }

    @Test func gateDsymPassesAndFails() async throws {
        let recorder = EventRecorder()
        let good = try DemoArchive.good()
        let passing = try DsymGateStep(options: .with { $0.archive = good })
        let outputs = try await passing.run(in: recorder.context(DsymGateStep.kind, in: "/"))
        #expect(outputs["binaries"] == .number(3))
        #expect(outputs["slices"] == .number(5))

        let bad = try DemoArchive.mismatched()
        let failing = try DsymGateStep(options: .with { $0.archive = bad })
        let binary = try dwarfdumpUUIDs(bad + "/" + Self.binaries[0])
        let dsym = try dwarfdumpUUIDs(bad + "/" + Self.dsyms[0])
        do {
            _ = try await failing.run(in: recorder.context(DsymGateStep.kind, in: "/"))
            Issue.record("gate.dsym accepted a binary rebuilt after its dSYM")
        } catch let StepError.rejected(problems) {
            #expect(problems.count == 2)
            for arch in ["arm64", "x86_64"] {
                #expect(problems.contains("binary '\(Self.binaries[0])' (\(arch)) has uuid '\(binary[arch]!)' but its dSYM '\(Self.dsyms[0])' has uuid '\(dsym[arch]!)'"))
            }
        }
        // Ignoring the rebuilt binary lets the rest pass.
        let ignoring = try DsymGateStep(
            options: .with {
                $0.archive = bad; $0.ignore = ["Demo"]
            })
        #expect(try await ignoring.run(in: recorder.context(DsymGateStep.kind, in: "/"))["binaries"] == .number(2))
    }

    @Test func aBinaryWithoutAnyDsymIsNamed() async throws {
        let folder = try TemporaryFolder()
        let copy = folder("Demo.xcarchive")
        try FileManager.default.copyItem(atPath: try DemoArchive.good(), toPath: copy)
        try FileManager.default.removeItem(atPath: copy + "/dSYMs/DemoWidget.appex.dSYM")
        let uuid = try #require(try dwarfdumpUUIDs(copy + "/" + Self.binaries[2])["arm64"])
        await #expect(throws: StepError.rejected(["binary '\(Self.binaries[2])' (arm64) uuid '\(uuid)': no dSYM"])) {
            try await DsymGateStep(options: .with { $0.archive = copy }).run(in: EventRecorder().context(DsymGateStep.kind, in: "/"))
        }
    }

    @Test func anIpaIsReadFromTheZip() async throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder("Payload"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: try DemoArchive.good() + "/Products/Applications/Demo.app", toPath: folder("Payload/Demo.app"))
        _ = try await ZipWriter(options: ZipOptions()).write(sources: [folder("Payload")], to: folder("Demo.ipa"))
        try FileManager.default.removeItem(atPath: folder("Payload"))

        let inspection: DsymInspection = try await DsymInspector.inspect(folder("Demo.ipa"))
        #expect(inspection.kind == .ipa)
        #expect(inspection.binaries.map(\.path) == Self.binaries.map { $0.replacingOccurrences(of: "Products/Applications", with: "Payload") })
        for (binary, original) in zip(inspection.binaries, Self.binaries) {
            let oracle = try dwarfdumpUUIDs(try DemoArchive.good() + "/" + original)
            #expect(Dictionary(uniqueKeysWithValues: binary.slices.map { ($0.architecture, $0.uuid ?? "") }) == oracle)
        }
        #expect(inspection.report?.slices.allSatisfy { $0.verdict == .missing } == true)
        // An ipa checked against a zip of its dSYMs, neither extracted.
        let dsymFolder = try DemoArchive.good() + "/dSYMs"
        let bundles = try FileManager.default.contentsOfDirectory(atPath: dsymFolder).sorted().map { dsymFolder + "/" + $0 }
        _ = try await ZipWriter(options: ZipOptions()).write(sources: bundles, to: folder("dSYMs.zip"))
        let gate = try DsymGateStep(
            options: .with {
                $0.archive = "Demo.ipa"; $0.dsyms = ["dSYMs.zip"]
            })
        let gated = try await gate.run(in: EventRecorder().context(DsymGateStep.kind, in: folder.path))
        #expect(gated["slices"] == .number(5))
        // The header of one entry, straight from the zip.
        let prefix = try ZipReader.prefix(of: "Payload/Demo.app/Demo", in: folder("Demo.ipa"), count: 8)
        #expect(prefix == [0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 2])
        #expect(throws: ArchiveError.entryNotFound(archive: folder("Demo.ipa"), entry: "Payload/Nope")) {
            try ZipReader.prefix(of: "Payload/Nope", in: folder("Demo.ipa"), count: 8)
        }
    }

    @Test func anAppBesideItsDsymsAndAVersionedFramework() throws {
        let folder = try TemporaryFolder()
        let archive = try DemoArchive.good()
        try FileManager.default.copyItem(atPath: archive + "/Products/Applications/Demo.app", toPath: folder("Demo.app"))
        try FileManager.default.copyItem(atPath: archive + "/dSYMs/Demo.app.dSYM", toPath: folder("Demo.app.dSYM"))
        let app = try DsymInspector.inspect(folder("Demo.app"))
        #expect(app.kind == .app)
        #expect(app.report?.slices.map(\.verdict) == [.matched, .matched, .missing, .missing, .missing])

        // macOS-style versioned framework: the executable and Resources are links into Versions/Current.
        let framework = folder("Kit.framework")
        try FileManager.default.createDirectory(atPath: framework + "/Versions/A/Resources", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: archive + "/Products/Applications/Demo.app/Frameworks/DemoKit.framework/DemoKit", toPath: framework + "/Versions/A/DemoKit")
        try FileManager.default.copyItem(
            atPath: archive + "/Products/Applications/Demo.app/Frameworks/DemoKit.framework/Info.plist", toPath: framework + "/Versions/A/Resources/Info.plist")
        try FileManager.default.createSymbolicLink(atPath: framework + "/Versions/Current", withDestinationPath: "A")
        try FileManager.default.createSymbolicLink(atPath: framework + "/DemoKit", withDestinationPath: "Versions/Current/DemoKit")
        try FileManager.default.createSymbolicLink(atPath: framework + "/Resources", withDestinationPath: "Versions/Current/Resources")
        let inspection = try DsymInspector.inspect(framework)
        #expect(inspection.binaries.map(\.path) == ["Kit.framework/DemoKit"])
        let oracle = try dwarfdumpUUIDs(framework + "/Versions/A/DemoKit")
        #expect(Dictionary(uniqueKeysWithValues: inspection.binaries[0].slices.map { ($0.architecture, $0.uuid ?? "") }) == oracle)
    }

    @Test func dsymPackageZipsMovesAndWritesTheManifest() async throws {
        let folder = try TemporaryFolder()
        let archive = folder("build/Demo.xcarchive")
        try FileManager.default.createDirectory(atPath: folder("build/Release-iphoneos"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: try DemoArchive.good(), toPath: archive)
        // As after xcodebuild: the app's dSYM is in the build folder, not yet in the archive.
        try FileManager.default.moveItem(atPath: archive + "/dSYMs/Demo.app.dSYM", toPath: folder("build/Release-iphoneos/Demo.app.dSYM"))
        let oracle = try dwarfdumpUUIDs(folder("build/Release-iphoneos/Demo.app.dSYM/Contents/Resources/DWARF/Demo"))

        let step = try DsymPackageStep(
            options: .with {
                $0.archive = "build/Demo.xcarchive"; $0.search = ["build/Release-iphoneos"]; $0.output = "build/Demo.app.dSYM.zip"
                $0.moveIntoArchive = true; $0.deterministic = true
            })
        let recorder = EventRecorder()
        let context = recorder.context(DsymPackageStep.kind, in: folder.path)
        let plan = try await step.plan(in: context)
        #expect(plan.effects.contains(.move(from: folder("build/Release-iphoneos/Demo.app.dSYM"), to: archive + "/dSYMs/Demo.app.dSYM")))
        #expect(plan.outputs["path"] == .path(folder("build/Demo.app.dSYM.zip")))

        let outputs = try await step.run(in: context)
        #expect(outputs["path"] == .path(folder("build/Demo.app.dSYM.zip")))
        #expect(outputs["manifest"] == .path(folder("build/Demo.app.dSYM.uuids.json")))
        let tops = Set(try ZipReader.entries(at: folder("build/Demo.app.dSYM.zip")).map { String($0.path.split(separator: "/")[0]) })
        #expect(tops == ["Demo.app.dSYM", "DemoKit.framework.dSYM", "DemoWidget.appex.dSYM"])
        #expect(FileManager.default.fileExists(atPath: archive + "/dSYMs/Demo.app.dSYM/Contents/Resources/DWARF/Demo"))
        #expect(!FileManager.default.fileExists(atPath: folder("build/Release-iphoneos/Demo.app.dSYM")))

        let manifest = try JSONDecoder().decode(DsymManifest.self, from: Data(contentsOf: URL(fileURLWithPath: folder("build/Demo.app.dSYM.uuids.json"))))
        #expect(manifest.dsyms.count == 5)
        for arch in ["arm64", "x86_64"] {
            #expect(manifest.dsyms.contains(DsymManifest.Entry(bundle: "Demo.app.dSYM", binary: "Demo", arch: arch, uuid: oracle[arch]!)))
        }
        guard case .list(let uuids)? = outputs["uuids"] else { Issue.record("no uuids output"); return }
        #expect(uuids.count == 5)
        #expect(outputs.artifacts.map(\.path) == [folder("build/Demo.app.dSYM.zip"), folder("build/Demo.app.dSYM.uuids.json")])
        #expect(outputs.artifacts[0].sha256 == (try await FileDigest.sha256(ofFile: folder("build/Demo.app.dSYM.zip")).hex))
        // After the move, the archive passes the gate.
        _ = try await DsymGateStep(options: .with { $0.archive = archive }).run(in: context)
    }

    @Test func archiveZipAndGateArchiveOnTheDemoArchive() async throws {
        let folder = try TemporaryFolder()
        let source = folder("Demo.xcarchive")
        try FileManager.default.copyItem(atPath: try DemoArchive.good(), toPath: source)
        let recorder = EventRecorder()
        let context = recorder.context(ArchiveZipStep.kind, in: folder.path)
        let step = try ArchiveZipStep(
            options: .with {
                $0.source = "Demo.xcarchive"; $0.output = "out/Demo.xcarchive.zip"; $0.level = 0
            })
        let outputs = try await step.run(in: context)
        let zip = folder("out/Demo.xcarchive.zip")
        let digest = try await FileDigest.sha256(ofFile: zip)
        #expect(outputs["path"] == .path(zip))
        #expect(outputs["sha256"] == .string(digest.hex))
        #expect(outputs["size"] == .number(Double(digest.size)))
        #expect(outputs.artifacts == [Artifact(path: zip, size: digest.size, sha256: digest.hex)])
        #expect(recorder.events.contains { if case .progress(let done, let total, .bytes) = $0 { return done == total } else { return false } })

        let gate = try ArchiveGateStep(
            options: .with {
                $0.zip = zip; $0.source = source
            })
        let checked = try await gate.run(in: context)
        #expect(checked["entries"] == outputs["entries"])

        // Flip one byte of PkgInfo's stored data ("APPL????"): libarchive's CRC check must catch it.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: zip))
        let range = try #require(bytes.range(of: Data("APPL????".utf8)))
        bytes[range.lowerBound] = UInt8(ascii: "X")
        try bytes.write(to: URL(fileURLWithPath: zip))
        do {
            _ = try await gate.run(in: context)
            Issue.record("gate.archive accepted a tampered zip")
        } catch let StepError.rejected(problems) {
            #expect(problems.count == 1)
            #expect(problems.first?.hasPrefix("entry 'Demo.xcarchive/Products/Applications/Demo.app/PkgInfo' is corrupt: ") == true)
            #expect(problems.first?.contains("CRC") == true, "\(problems)")
        }
    }

    @Test func aBuildFolderWithAWatchAppAndLooseDsyms() throws {
        let folder = try TemporaryFolder()
        let archive = try DemoArchive.good()
        let products = folder("build/Release-iphoneos")
        try FileManager.default.createDirectory(atPath: products, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: archive + "/Products/Applications/Demo.app", toPath: products + "/Demo.app")
        for dsym in ["Demo.app.dSYM", "DemoKit.framework.dSYM", "DemoWidget.appex.dSYM"] {
            try FileManager.default.copyItem(atPath: archive + "/dSYMs/" + dsym, toPath: products + "/" + dsym)
        }
        // A Watch app whose executable is named by its Info.plist (the widget's binary, so its dSYM matches).
        let watch = products + "/Demo.app/Watch/DemoWatch.app"
        try FileManager.default.createDirectory(atPath: watch, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: products + "/Demo.app/PlugIns/DemoWidget.appex/DemoWidget", toPath: watch + "/WatchMain")
        try writeFile(
            watch + "/Info.plist",
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>CFBundleExecutable</key><string>WatchMain</string></dict></plist>
            """)
        let inspection = try DsymInspector.inspect(folder("build"))
        #expect(inspection.kind == .folder)
        #expect(
            inspection.binaries.map(\.path) == [
                "Release-iphoneos/Demo.app/Demo",
                "Release-iphoneos/Demo.app/Frameworks/DemoKit.framework/DemoKit",
                "Release-iphoneos/Demo.app/PlugIns/DemoWidget.appex/DemoWidget",
                "Release-iphoneos/Demo.app/Watch/DemoWatch.app/WatchMain",
            ])
        #expect(inspection.binaries.map(\.role) == [.app, .framework, .appExtension, .watchApp])
        #expect(inspection.dsyms.count == 3)
        #expect(inspection.report?.isComplete == true)
    }

    @Test func dsymPackageCanZipEachDsymOnItsOwn() async throws {
        let folder = try TemporaryFolder()
        let archive = try DemoArchive.good()
        let step = try DsymPackageStep(
            options: .with {
                $0.paths = [archive + "/dSYMs/Demo.app.dSYM", archive + "/dSYMs/DemoKit.framework.dSYM"]; $0.output = "zips"; $0.mode = .each; $0.level = 0
            })
        let outputs = try await step.run(in: EventRecorder().context(DsymPackageStep.kind, in: folder.path))
        #expect(outputs["paths"] == .list([.path(folder("zips/Demo.app.dSYM.zip")), .path(folder("zips/DemoKit.framework.dSYM.zip"))]))
        #expect(outputs["manifest"] == .path(folder("zips/dsym-uuids.json")))
        #expect(try ZipReader.entries(at: folder("zips/DemoKit.framework.dSYM.zip")).map(\.path).last == "DemoKit.framework.dSYM/Contents/Resources/DWARF/DemoKit")
        let manifest = try JSONDecoder().decode(DsymManifest.self, from: Data(contentsOf: URL(fileURLWithPath: folder("zips/dsym-uuids.json"))))
        #expect(manifest.dsyms.map(\.binary) == ["Demo", "Demo", "DemoKit", "DemoKit"])
        // Nothing moved: the archive is untouched.
        #expect(FileManager.default.fileExists(atPath: archive + "/dSYMs/Demo.app.dSYM"))
    }

    @Test func dsymPackageFailsClearlyWhenThereIsNothingToPackage() async throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder("build"), withIntermediateDirectories: true)
        let step = try DsymPackageStep(
            options: .with {
                $0.search = ["build"]; $0.output = "d.zip"
            })
        await #expect(throws: StepError.failed("no .dSYM bundles found in 'build'")) {
            try await step.run(in: EventRecorder().context(DsymPackageStep.kind, in: folder.path))
        }
    }
}

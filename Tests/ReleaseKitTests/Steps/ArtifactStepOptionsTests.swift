import Foundation
import Testing

@testable import ReleasePipeline
@testable import ReleaseSteps

private func decode<S: Step>(_ type: S.Type, _ json: String) throws -> S.Options {
    try decodeOptions(S.Options.self, json)
}

@Suite struct ArtifactStepOptionsTests {
    @Test func examplesDecodeAndDocumentEveryOption() throws {
        _ = try ArchiveZipStep(options: exampleOptions(ArchiveZipStep.self))
        _ = try DsymPackageStep(options: exampleOptions(DsymPackageStep.self))
        _ = try DsymGateStep(options: exampleOptions(DsymGateStep.self))
        _ = try ArchiveGateStep(options: exampleOptions(ArchiveGateStep.self))
        #expect(ArchiveZipStep.documentation.options.map(\.name) == ["source", "output", "level", "deterministic", "exclude", "reuse"])
        #expect(try decode(ArchiveZipStep.self, #"{"source": "a", "output": "a.zip", "reuse": ["d.zip"]}"#).reuse == ["d.zip"])
        #expect(DsymPackageStep.documentation.options.map(\.name) == ["archive", "search", "paths", "output", "mode", "manifest", "move_into_archive", "level", "deterministic"])
        #expect(DsymPackageStep.documentation.outputs.map(\.name) == ["path", "paths", "uuids", "manifest"])
        #expect([ArchiveZipStep.kind, DsymPackageStep.kind, DsymGateStep.kind, ArchiveGateStep.kind] == ["archive.zip", "dsym.package", "gate.dsym", "gate.archive"])
    }

    @Test func snakeCaseKeysDecode() throws {
        let options = try decode(DsymPackageStep.self, #"{"archive": "A.xcarchive", "output": "d.zip", "move_into_archive": true, "mode": "each"}"#)
        #expect(options.moveIntoArchive == true)
        #expect(try DsymPackageStep(options: options).mode == .each)
    }

    @Test func badValuesAreRejectedBeforeAnythingRuns() throws {
        // A pipeline's number is checked against the declared range while decoding, where its line is known; options
        // built in code by the step.
        #expect(
            throws: OptionsDecoder.Failure(
                path: JSONPath.root.appending("level"), location: SourceLocation(line: 1, column: 45),
                message: "'level' must be from 0 to 9, found 12")
        ) {
            try ArchiveZipStep(options: decode(ArchiveZipStep.self, #"{"source": "a", "output": "a.zip", "level": 12}"#))
        }
        #expect(throws: StepError.invalidOption("level", "'12' must be from 0 to 9")) {
            try ArchiveZipStep(
                options: .with {
                    $0.source = "a"; $0.output = "a.zip"; $0.level = 12
                })
        }
        #expect(throws: StepError.invalidOption("source", "must not be empty")) {
            try ArchiveZipStep(
                options: .with {
                    $0.source = ""; $0.output = "a.zip"
                })
        }
        #expect {
            try decode(DsymPackageStep.self, #"{"archive": "A.xcarchive", "output": "d.zip", "mode": "some"}"#)
        } throws: { ($0 as? OptionsDecoder.Failure)?.message == "'some' is not 'all' or 'each'" }
        #expect(throws: StepError.invalidOption("archive", "one of 'archive', 'search' or 'paths' is required")) {
            try DsymPackageStep(options: .with { $0.output = "d.zip" })
        }
        #expect(throws: StepError.invalidOption("move_into_archive", "needs 'archive' to move the dSYMs into")) {
            try DsymPackageStep(
                options: .with {
                    $0.search = ["build"]; $0.output = "d.zip"; $0.moveIntoArchive = true
                })
        }
        #expect(throws: StepError.invalidOption("paths", "'build/App.app' is not a .dSYM bundle")) {
            try DsymPackageStep(
                options: .with {
                    $0.paths = ["build/App.app"]; $0.output = "d.zip"
                })
        }
        #expect(throws: StepError.invalidOption("ignore", "pattern 1 is empty")) {
            try DsymGateStep(
                options: .with {
                    $0.archive = "A.xcarchive"; $0.ignore = [""]
                })
        }
        #expect(throws: OptionsDecoder.Failure.self) {
            try decode(ArchiveZipStep.self, #"{"source": "a", "output": "a.zip", "level": "six"}"#)
        }
    }

    @Test func verifyAndPlanWithoutTouchingTheFileSystem() async throws {
        let folder = try TemporaryFolder()
        let step = try ArchiveZipStep(
            options: .with {
                $0.source = "build/Demo.xcarchive"; $0.output = "build/Demo.xcarchive.zip"; $0.deterministic = true
            })
        let missing = EventRecorder().context(ArchiveZipStep.kind, in: folder.path)
        await #expect(throws: StepError.missingFile(path: folder("build/Demo.xcarchive"), option: "source")) {
            try await step.verify(in: missing)
        }
        // Promised by an upstream step: verify passes and plan describes the zip.
        let promised = StepContext(
            stepID: "zip", kind: ArchiveZipStep.kind, workingDirectory: folder.path, environment: [:],
            isDryRun: true, promisedPaths: [folder("build/Demo.xcarchive"): "archive"])
        try await step.verify(in: promised)
        let plan = try await step.plan(in: promised)
        #expect(plan.effects == [.writeFile(path: folder("build/Demo.xcarchive.zip"), diff: nil, detail: "zip of '\(folder("build/Demo.xcarchive"))' (level 6, deterministic)")])
        #expect(plan.outputs["path"] == .path(folder("build/Demo.xcarchive.zip")))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)

        let wouldOverwrite = try ArchiveZipStep(
            options: .with {
                $0.source = "."; $0.output = "x.zip"
            })
        try await wouldOverwrite.verify(in: missing)
        let itself = try ArchiveZipStep(
            options: .with {
                $0.source = "a"; $0.output = "a"
            })
        try writeFile(folder("a"), "a")
        await #expect(throws: StepError.invalidOption("output", "'\(folder("a"))' would overwrite the source '\(folder("a"))'")) {
            try await itself.verify(in: missing)
        }
    }
}

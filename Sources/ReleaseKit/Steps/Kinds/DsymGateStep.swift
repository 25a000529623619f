import Foundation
import ReleaseArtifacts

/// `gate.dsym`: rejects the release when a binary of the app (main executable, embedded frameworks, app
/// extensions, Watch apps) has, for some architecture, no dSYM with its UUID: crash reports of that build
/// could not be symbolicated.
package struct DsymGateStep: Step {
    /// The step's `with` object.
    package struct Options: StepOptions, Equatable {
        @StepOption(.path, must: .notBeEmpty, help: "an .xcarchive, .app, .ipa or build folder holding the app's binaries")
        package var archive: String
        @StepOption(.path, must: .haveNoEmptyItem("path"), help: "more .dSYM bundles, or folders holding them, besides those found with the binaries")
        package var dsyms: [String] = []
        @StepOption(.glob, must: .haveNoEmptyItem("pattern"), help: "binary names allowed to have no dSYM (a vendor's binary-only framework)")
        package var ignore: [String] = []

        package init() {}
    }

    package static let kind = "gate.dsym"
    package static let exportTraits = ExportTraits(runner: .anywhere)
    package static let summary = "Reject the release when a binary of the app has no dSYM with its UUID, architecture by architecture"
    package static let outputs: [StepDocumentation.Output] = [
        .init("binaries", "number", "binaries checked"),
        .init("slices", "number", "architectures checked, all matched"),
        .init("uuids", "list", "UUIDs of the binaries' slices"),
    ]
    package static let example = """
        { "id": "check-dsyms", "uses": "gate.dsym", "gate": true, "needs": ["archive"],
          "with": { "archive": "build/Demo.xcarchive", "dsyms": ["build/Release-iphoneos"], "ignore": ["VendorSDK"] } }
        """

    package let options: Options

    /// - Throws: ``StepError/invalidOption(_:_:)`` for an empty path or pattern.
    package init(options: Options) throws {
        try options.validate()
        self.options = options
    }

    package func verify(in context: StepContext) async throws {
        try context.requireFile(options.archive, option: "archive")
        for path in options.dsyms { try context.requireFile(path, option: "dsyms") }
    }

    /// It only reads, so dry runs really run it.
    package var isReadOnly: Bool { true }

    package func plan(in context: StepContext) async throws -> StepPlan {
        StepPlan(effects: [.note("check that every binary in '\(context.resolvePath(options.archive))' has a dSYM with its UUID")])
    }

    package func run(in context: StepContext) async throws -> StepOutputs {
        let archive = try context.requireFile(options.archive, option: "archive")
        let inspection = try await DsymInspector.inspect(archive)
        var dsyms = inspection.dsyms
        for warning in inspection.warnings ?? [] { context.warn(warning) }
        for path in options.dsyms {
            let extra = try await DsymInspector.inspect(context.resolvePath(path))
            for warning in extra.warnings ?? [] { context.warn(warning) }
            dsyms += extra.dsyms
        }
        let patterns = options.ignore
        let binaries = inspection.binaries.filter { binary in
            !patterns.contains { fnmatch($0, binary.name, 0) == 0 }
        }
        guard !binaries.isEmpty else {
            throw StepError.rejected(["no binaries found in '\(archive)'"])
        }
        let report = DsymMatcher.match(binaries: binaries, dsyms: dsyms)
        guard report.isComplete else { throw StepError.rejected(report.problems) }
        context.log("\(binaries.count) binaries, \(report.slices.count) architectures: every one has its dSYM")
        return StepOutputs([
            "binaries": .number(Double(binaries.count)),
            "slices": .number(Double(report.slices.count)),
            "uuids": .list(report.slices.compactMap { $0.uuid.map(OutputValue.string) }),
        ])
    }
}

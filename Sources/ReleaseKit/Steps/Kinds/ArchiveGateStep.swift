import Foundation
import ReleaseArtifacts

/// `gate.archive`: re-reads a zip through libarchive and rejects the release when it does not hold exactly its
/// source tree (entry count, kinds, sizes, permissions, link targets, CRC-32s).
package struct ArchiveGateStep: Step {
    /// The step's `with` object.
    package struct Options: StepOptions, Equatable {
        @StepOption(.path, must: .notBeEmpty, help: "the zip to check")
        package var zip: String
        @StepOption(.path, must: .notBeEmpty, help: "the file or folder it was made from")
        package var source: String
        @StepOption(.glob, help: "the exclude patterns the zip was made with")
        package var exclude: [String] = []

        package init() {}
    }

    package static let kind = "gate.archive"
    package static let exportTraits = ExportTraits(runner: .anywhere)
    package static let summary = "Re-read a zip and reject it unless it holds exactly its source tree (count, sizes, links, CRCs)"
    package static let outputs: [StepDocumentation.Output] = [
        .init("entries", "number", "entries in the zip")
    ]
    package static let example = """
        { "id": "check-zip", "uses": "gate.archive", "gate": true,
          "with": { "zip": "${steps.zip.outputs.path}", "source": "build/Demo.xcarchive" } }
        """

    package let options: Options

    /// - Throws: ``StepError/invalidOption(_:_:)`` for an empty path.
    package init(options: Options) throws {
        try options.validate()
        self.options = options
    }

    package func verify(in context: StepContext) async throws {
        try context.requireFile(options.zip, option: "zip")
        try context.requireFile(options.source, option: "source")
    }

    /// It only reads, so dry runs really run it.
    package var isReadOnly: Bool { true }

    package func plan(in context: StepContext) async throws -> StepPlan {
        StepPlan(effects: [.note("compare '\(context.resolvePath(options.zip))' with '\(context.resolvePath(options.source))'")])
    }

    package func run(in context: StepContext) async throws -> StepOutputs {
        let zip = try context.requireFile(options.zip, option: "zip")
        let source = try context.requireFile(options.source, option: "source")
        let result = try await ArchiveVerifier.verify(zip: zip, sources: [source], exclude: options.exclude)
        guard result.isFaithful else { throw StepError.rejected(result.problems) }
        context.log("'\(zip)' holds the \(result.entries) entries of '\(source)'")
        return StepOutputs(["entries": .number(Double(result.entries))])
    }
}

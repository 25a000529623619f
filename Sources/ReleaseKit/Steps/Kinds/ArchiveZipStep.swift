import Foundation
import ReleaseArtifacts
import ReleaseSupport

/// `archive.zip`: zips a file or folder like `zip -ry`, deflating on every core (``ZipWriter``).
///
/// Symlinks are stored as links (never followed), permissions and folder entries are kept, entries are named
/// relative to the source's parent (`Demo.xcarchive/...`). The zip is written beside `output` under a
/// temporary name and renamed at the end, so a failed or interrupted run leaves no partial file. With `reuse`,
/// files already compressed in another zip (the dSYM zip of `dsym.package`) are copied from it, not recompressed.
package struct ArchiveZipStep: Step {
    /// The step's `with` object.
    package struct Options: StepOptions, Equatable {
        @StepOption(.path, must: .notBeEmpty, help: "file or folder to zip; entries are named relative to its parent ('Demo.xcarchive/...')")
        package var source: String
        @StepOption(.output, must: .notBeEmpty, help: "the zip to write; replaced atomically, its folder is created if missing")
        package var output: String
        @StepOption(range: 0...9, help: "deflate level, 0 stores without compression")
        package var level: Int = 6
        @StepOption(help: "sorted entries, no timestamps, owner 0:0: the same tree gives the same bytes")
        package var deterministic: Bool = false
        @StepOption(.glob, must: .haveNoEmptyItem("pattern"), help: "patterns matched against entry names and their last component, e.g. '*.DS_Store'")
        package var exclude: [String] = []
        @StepOption(.path, help: "zips (e.g. the dSYM zip) whose compressed entries are copied for files with the same name, size and CRC-32 instead of compressing them again")
        package var reuse: [String] = []

        package init() {}
    }

    package static let kind = "archive.zip"
    package static let exportTraits = ExportTraits(runner: .anywhere)
    package static let summary = "Zip a file or folder like 'zip -ry': symlinks kept as links, permissions kept, optional deterministic bytes"
    package static let outputs: [StepDocumentation.Output] = [
        .init("path", "path", "the zip"),
        .init("size", "number", "its size in bytes"),
        .init("sha256", "string", "its SHA-256, lower-case hex"),
        .init("entries", "number", "files, folders and links stored"),
    ]
    package static let example = """
        { "id": "zip", "uses": "archive.zip", "needs": ["dsyms"],
          "with": { "source": "build/Demo.xcarchive", "output": "build/Demo.xcarchive.zip", "level": 6, "deterministic": true, "exclude": ["*.DS_Store"],
                    "reuse": ["build/Demo.app.dSYM.zip"] } }
        """

    package let options: Options
    let zipOptions: ZipOptions

    /// - Throws: ``StepError/invalidOption(_:_:)`` for an empty path, a level outside 0...9 or an empty pattern.
    package init(options: Options) throws {
        try options.validate()
        let level = options.level
        self.options = options
        zipOptions = try ZipOptions(level: level, deterministic: options.deterministic, exclude: options.exclude)
    }

    package func verify(in context: StepContext) async throws {
        let source = try context.requireFile(options.source, option: "source")
        let output = context.resolvePath(options.output)
        if output == source || source.hasPrefix(output + "/") {
            throw StepError.invalidOption("output", "'\(output)' would overwrite the source '\(source)'")
        }
        if context.files.isDirectory(output) {
            throw StepError.invalidOption("output", "'\(output)' is a folder")
        }
    }

    package func plan(in context: StepContext) async throws -> StepPlan {
        let source = context.resolvePath(options.source)
        let output = context.resolvePath(options.output)
        var detail = "zip of '\(source)' (level \(zipOptions.level)"
        if zipOptions.deterministic { detail += ", deterministic" }
        if !zipOptions.exclude.isEmpty { detail += ", excluding \(zipOptions.exclude.joined(separator: " "))" }
        if !options.reuse.isEmpty { detail += ", reusing entries of \(options.reuse.map { "'\(context.resolvePath($0))'" }.joined(separator: " "))" }
        detail += ")"
        return StepPlan(effects: [.writeFile(path: output, diff: nil, detail: detail)], outputs: StepOutputs(["path": .path(output)]))
    }

    package func run(in context: StepContext) async throws -> StepOutputs {
        let source = try context.requireFile(options.source, option: "source")
        let output = context.resolvePath(options.output)
        try FileSystemSupport.createParent(of: output)
        let throttle = ProgressThrottle(context: context)
        var options = zipOptions
        // Missing zips are skipped by the writer: reuse only ever saves work.
        options.reuse = self.options.reuse.map { context.resolvePath($0) }
        let result = try await ZipWriter(options: options).write(sources: [source], to: output) { progress in
            throttle.report(done: progress.bytesDone, total: progress.bytesTotal)
        }
        context.log("zipped \(result.entries) entries (\(ByteFormat.size(result.uncompressedBytes))) into '\(result.path)' (\(ByteFormat.size(result.size)))")
        return StepOutputs(
            [
                "path": .path(result.path),
                "size": .number(Double(result.size)),
                "sha256": .string(result.sha256),
                "entries": .number(Double(result.entries)),
            ],
            artifacts: [result.artifact])
    }
}

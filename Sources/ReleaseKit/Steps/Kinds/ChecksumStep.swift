import Foundation
import ReleaseSupport

/// `checksum`: writes a `SHA256SUMS` file for the release's artifacts, in the format `sha256sum` prints and
/// `sha256sum -c` checks: one `<hex>  <name>` line per file, sorted by name, names without their folders (as the
/// files are published side by side).
package struct ChecksumStep: Step {
    /// The step's `with` object.
    package struct Options: StepOptions, Equatable {
        @StepOption(must: .notBeEmpty("must list at least one file"), .haveNoEmptyItem(), help: "files to list; items may be list outputs of other steps; a glob must match a file")
        package var files: PathListOption
        @StepOption(.output, must: .notBeEmpty, help: "the file to write, relative to the working directory; it is never listed in itself")
        package var output: String = "SHA256SUMS"

        package init() {}
    }

    /// The stable kind pipelines use in `uses`.
    package static let kind = "checksum"
    /// One line for `release steps`.
    package static let summary = "Write SHA256SUMS (sha256sum format, sorted by name) for the release's files"
    package static let outputs: [StepDocumentation.Output] = [
        .init("path", "path", "the SHA256SUMS file (also an artifact)"),
        .init("sums", "list", "its lines, '<sha256>  <name>'"),
    ]
    package static let example = """
        { "id": "sums", "uses": "checksum", "needs": ["zip", "dsyms"],
          "with": { "files": ["${steps.zip.outputs.path}", "${steps.dsyms.outputs.path}", "build/*.ipa"], "output": "build/SHA256SUMS" } }
        """

    /// The decoded options.
    package let options: Options

    /// - Throws: ``StepError/invalidOption(_:_:)`` for an empty list, path or output.
    package init(options: Options) throws {
        try options.validate()
        self.options = options
    }

    private func outputPath(_ context: StepContext) -> String {
        context.resolvePath(options.output)
    }

    /// The files to list, absolute, or the problem. In dry runs, items an upstream step promises are kept.
    func files(in context: StepContext) throws -> [String] {
        let output = outputPath(context)
        var files: [String] = []
        for expansion in options.files.expand(in: context) {
            if expansion.isPattern {
                if expansion.files.isEmpty && !expansion.isPromised {
                    throw StepError.invalidOption("files", "'\(expansion.item)' matches no file")
                }
            } else if !expansion.isPromised {
                let path = try context.requireFile(expansion.item, option: "files")
                if context.files.isDirectory(path) {
                    throw StepError.invalidOption("files", "'\(path)' is a folder, not a file")
                }
            }
            files += expansion.files.filter { $0 != output && !files.contains($0) }
        }
        var seen: [String: String] = [:]
        for path in files {
            let name = (path as NSString).lastPathComponent
            if let other = seen[name] {
                throw StepError.invalidOption("files", "'\(other)' and '\(path)' have the same name '\(name)'")
            }
            seen[name] = path
        }
        return files
    }

    /// Read-only checks: inputs exist or are promised.
    package func verify(in context: StepContext) async throws {
        _ = try files(in: context)
    }

    /// What `run` would do, and the outputs it promises.
    package func plan(in context: StepContext) async throws -> StepPlan {
        let files = try files(in: context)
        let output = outputPath(context)
        let names = files.map { ($0 as NSString).lastPathComponent }.sorted()
        return StepPlan(
            effects: [.writeFile(path: output, diff: nil, detail: "SHA-256 of \(names.count) files: \(names.joined(separator: ", "))")],
            outputs: StepOutputs(["path": .path(output)], artifacts: [Artifact(path: output, size: 0, sha256: "")])
        )
    }

    /// Does the work; see the type's documentation.
    package func run(in context: StepContext) async throws -> StepOutputs {
        let files = try files(in: context)
        let output = outputPath(context)
        var lines: [String] = []
        for path in files {
            try Task.checkCancellation()
            let digest = try await FileDigest.sha256(ofFile: path)
            lines.append("\(digest.hex)  \((path as NSString).lastPathComponent)")
        }
        // Sorted by name, byte order (as `LC_ALL=C sort -k2` would), so the file is the same whatever the order of `files`.
        lines.sort { Array($0.utf8.dropFirst(66)).lexicographicallyPrecedes(Array($1.utf8.dropFirst(66))) }
        try FileSystemSupport.createParent(of: output)
        do {
            try AtomicFile.write(lines.map { $0 + "\n" }.joined(), to: output)
        } catch {
            throw StepError.failed("\(error)")
        }
        for line in lines { context.log(line) }
        return StepOutputs(
            ["path": .path(output), "sums": .list(lines.map(OutputValue.string))],
            artifacts: [try await context.artifact(output)]
        )
    }
}

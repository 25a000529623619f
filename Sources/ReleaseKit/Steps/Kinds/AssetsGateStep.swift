import Foundation
import ReleaseSupport

/// `gate.assets`: rejects the release when the files to publish are not all there, one is too big for the
/// release host (GitHub refuses assets over 2 GiB), two share a name (they would overwrite each other as assets),
/// or there are more than allowed.
package struct AssetsGateStep: Step {
    /// The step's `with` object.
    package struct Options: StepOptions, Equatable {
        @StepOption(
            must: .notBeEmpty("must list at least one file"), .haveNoEmptyItem(), help: "the files to publish; items may be list outputs of other steps; a glob must match a file")
        package var files: PathListOption
        @StepOption(range: 1...1_099_511_627_776, help: "largest size of one file in bytes; the default is GitHub's limit, 2 GiB")
        package var maxSize: Int64 = AssetsGateStep.defaultMaxSize
        @StepOption(range: 1...1_000_000, help: "most files allowed (default: no limit)")
        package var maxCount: Int?

        package init() {}
    }

    /// GitHub's limit for one release asset: 2 GiB.
    package static let defaultMaxSize: Int64 = 2 << 30

    /// The stable kind pipelines use in `uses`.
    package static let kind = "gate.assets"
    /// One line for `release steps`.
    package static let summary = "Reject the release when an asset is missing, too big, shares its name with another, or there are too many"
    package static let outputs: [StepDocumentation.Output] = [
        .init("count", "number", "files checked"),
        .init("files", "list", "their absolute paths"),
        .init("total_size", "number", "their total size in bytes"),
    ]
    package static let example = """
        { "id": "check-assets", "uses": "gate.assets", "gate": true, "needs": ["zip", "dsyms"],
          "with": { "files": ["${steps.zip.outputs.path}", "${steps.dsyms.outputs.path}", "build/*.ipa"], "max_size": 2147483648, "max_count": 10 } }
        """

    /// The decoded options.
    package let options: Options

    /// - Throws: ``StepError/invalidOption(_:_:)`` for an empty list or item, or a limit below 1.
    package init(options: Options) throws {
        try options.validate()
        self.options = options
    }

    /// See ``documentation``.
    package var isReadOnly: Bool { true }

    /// Read-only checks: inputs exist or are promised.
    package func verify(in context: StepContext) async throws {
        for item in options.files.items where !Glob.isPattern(item) {
            try context.requireFile(item, option: "files")
        }
    }

    /// What `run` would do, and the outputs it promises.
    package func plan(in context: StepContext) async throws -> StepPlan {
        StepPlan(effects: [
            .note("check that \(options.files.items.map { "'\($0)'" }.joined(separator: ", ")) exist, are at most \(ByteFormat.size(limit)) each and have unique names")
        ])
    }

    private var limit: Int64 { options.maxSize }

    /// Does the work; see the type's documentation.
    package func run(in context: StepContext) async throws -> StepOutputs {
        var problems: [String] = []
        var files: [String] = []
        for expansion in options.files.expand(in: context) {
            if expansion.isPattern {
                if expansion.files.isEmpty { problems.append("'\(expansion.item)' matches no file") }
                files += expansion.files.filter { !files.contains($0) }
                continue
            }
            let path = expansion.files[0]
            let kind = context.files.kind(path)
            if kind == nil {
                problems.append("'\(path)' does not exist")
            } else if kind == .directory {
                problems.append("'\(path)' is a folder, not a file (zip it first)")
            } else if !files.contains(path) {
                files.append(path)
            }
        }
        var total: Int64 = 0
        for path in files {
            // Links followed: the size is what an upload would send.
            let size = context.files.size(path) ?? 0
            total += size
            if size > limit {
                problems.append("'\(path)' is \(size) bytes (\(ByteFormat.size(size))), more than the limit of \(limit) bytes (\(ByteFormat.size(limit)))")
            }
        }
        var byName: [String: [String]] = [:]
        for path in files { byName[(path as NSString).lastPathComponent, default: []].append(path) }
        for (name, paths) in byName.sorted(by: { $0.key < $1.key }) where paths.count > 1 {
            problems.append("\(paths.count) files have the name '\(name)': \(paths.map { "'\($0)'" }.joined(separator: ", ")); asset names must be unique")
        }
        if let maxCount = options.maxCount, files.count > maxCount {
            problems.append("\(files.count) files, more than max_count \(maxCount)")
        }
        guard problems.isEmpty else { throw StepError.rejected(problems) }
        context.log("\(files.count) files, \(ByteFormat.size(total)) in total: present, within \(ByteFormat.size(limit)) each, names unique")
        return StepOutputs([
            "count": .number(Double(files.count)),
            "files": .list(files.map(OutputValue.path)),
            "total_size": .number(Double(total)),
        ])
    }
}

import Foundation
import ReleaseArtifacts
import ReleaseSupport

/// `dsym.package`: finds dSYM bundles, reads their UUIDs, zips them (all in one zip, or one zip each),
/// optionally moves them into the archive's `dSYMs/` folder, and writes a UUID manifest.
///
/// The seed did `zip -ryq App.app.dSYM.zip App.app.dSYM` and moved the dSYM into `App.xcarchive/dSYMs/`;
/// this does the same through libarchive and records which UUIDs it packaged.
package struct DsymPackageStep: Step {
    /// How dSYMs are zipped.
    package enum Mode: String, OptionChoice, Equatable {
        /// One zip at `output` holding every dSYM bundle at its top level.
        case all
        /// `output` is a folder; each dSYM becomes `NAME.dSYM.zip` in it.
        case each

        package static func invalidValueMessage(_ text: String) -> String { "'\(text)' is not 'all' or 'each'" }
    }

    /// The step's `with` object.
    package struct Options: StepOptions, Equatable {
        @StepOption(.path, help: "an .xcarchive: its dSYMs/ folder is searched, and receives the dSYMs with move_into_archive")
        package var archive: String?
        @StepOption(.path, help: "folders searched for .dSYM bundles (a build folder)")
        package var search: [String] = []
        @StepOption(.path, help: ".dSYM bundles given directly")
        package var paths: [String] = []
        @StepOption(.output, must: .notBeEmpty, help: "mode 'all': the zip to write (App.app.dSYM.zip); mode 'each': the folder of NAME.dSYM.zip files")
        package var output: String
        @StepOption(help: "'all': one zip with every dSYM; 'each': one zip per dSYM")
        package var mode: Mode = .all
        @StepOption(.output, help: "the UUID manifest JSON (bundle, binary, arch, uuid); default beside the zip as NAME.uuids.json")
        package var manifest: String?
        @StepOption(help: "after zipping, move dSYMs found through search/paths into archive/dSYMs/")
        package var moveIntoArchive: Bool = false
        @StepOption(range: 0...9, help: "deflate level")
        package var level: Int = 6
        @StepOption(help: "same dSYMs, same zip bytes")
        package var deterministic: Bool = false

        package init() {}
    }

    package static let kind = "dsym.package"
    package static let exportTraits = ExportTraits(runner: .anywhere)
    package static let summary = "Find dSYMs, zip them, optionally move them into the archive, and write a UUID manifest"
    package static let outputs: [StepDocumentation.Output] = [
        .init("path", "path", "the zip (mode 'all') or the folder of zips (mode 'each')"),
        .init("paths", "list", "every zip written"),
        .init("uuids", "list", "UUIDs of every packaged slice"),
        .init("manifest", "path", "the UUID manifest"),
    ]
    package static let example = """
        { "id": "dsyms", "uses": "dsym.package", "needs": ["archive"],
          "with": { "archive": "build/Demo.xcarchive", "search": ["build/Release-iphoneos"], "output": "build/Demo.app.dSYM.zip",
                    "move_into_archive": true, "deterministic": true } }
        """

    package let options: Options
    let mode: Mode
    let zipOptions: ZipOptions

    /// - Throws: ``StepError/invalidOption(_:_:)`` when nothing says where the dSYMs are, for a level outside 0...9,
    ///   or `move_into_archive` without `archive`.
    package init(options: Options) throws {
        try options.validate()
        guard options.archive != nil || !options.search.isEmpty || !options.paths.isEmpty else {
            throw StepError.invalidOption("archive", "one of 'archive', 'search' or 'paths' is required")
        }
        let level = options.level
        if options.moveIntoArchive && options.archive == nil {
            throw StepError.invalidOption("move_into_archive", "needs 'archive' to move the dSYMs into")
        }
        if let path = options.paths.first(where: { !$0.hasSuffix(".dSYM") && !$0.hasSuffix(".dSYM/") }) {
            throw StepError.invalidOption("paths", "'\(path)' is not a .dSYM bundle")
        }
        self.options = options
        mode = options.mode
        zipOptions = try ZipOptions(level: level, deterministic: options.deterministic)
    }

    package func verify(in context: StepContext) async throws {
        if let archive = options.archive { try context.requireFile(archive, option: "archive") }
        for folder in options.search { try context.requireFile(folder, option: "search") }
        for path in options.paths { try context.requireFile(path, option: "paths") }
    }

    package func plan(in context: StepContext) async throws -> StepPlan {
        let output = context.resolvePath(options.output)
        let manifest = manifestPath(in: context)
        var effects: [PlannedEffect] = []
        let found = dsymBundles(in: context)
        let names = found.isEmpty ? "the dSYMs found" : found.map { ($0 as NSString).lastPathComponent }.joined(separator: ", ")
        switch mode {
        case .all:
            effects.append(.writeFile(path: output, diff: nil, detail: "zip of \(names) (level \(zipOptions.level))"))
        case .each:
            if found.isEmpty {
                effects.append(.note("one zip per dSYM in '\(output)'"))
            }
            for bundle in found {
                effects.append(.writeFile(path: output + "/" + (bundle as NSString).lastPathComponent + ".zip", diff: nil, detail: "zip of '\(bundle)'"))
            }
        }
        effects.append(.writeFile(path: manifest, diff: nil, detail: "UUID manifest of \(names)"))
        if options.moveIntoArchive, let archive = options.archive {
            let destination = context.resolvePath(archive) + "/dSYMs"
            let outside = found.filter { !$0.hasPrefix(destination + "/") }
            if found.isEmpty {
                effects.append(.note("move the dSYMs found into '\(destination)'"))
            }
            for bundle in outside {
                effects.append(.move(from: bundle, to: destination + "/" + (bundle as NSString).lastPathComponent))
            }
        }
        return StepPlan(effects: effects, outputs: StepOutputs(["path": .path(output), "manifest": .path(manifest)]))
    }

    package func run(in context: StepContext) async throws -> StepOutputs {
        try await verify(in: context)
        var bundles = dsymBundles(in: context)
        guard !bundles.isEmpty else {
            let places = ([options.archive.map { $0 + "/dSYMs" }].compactMap { $0 } + options.search + options.paths)
            throw StepError.failed("no .dSYM bundles found in \(places.map { "'\($0)'" }.joined(separator: ", "))")
        }

        var dsyms: [DsymBinary] = []
        for bundle in bundles {
            let inspection = try await DsymInspector.inspect(bundle)
            for warning in inspection.warnings ?? [] { context.warn(warning) }
            dsyms += inspection.dsyms
        }

        let output = context.resolvePath(options.output)
        let writer = ZipWriter(options: zipOptions)
        let throttle = ProgressThrottle(context: context)
        var zips: [ZipResult] = []
        switch mode {
        case .all:
            try FileSystemSupport.createParent(of: output)
            zips.append(try await writer.write(sources: bundles, to: output) { throttle.report(done: $0.bytesDone, total: $0.bytesTotal) })
        case .each:
            try FileSystemSupport.createParent(of: output + "/x")
            for bundle in bundles {
                let zip = output + "/" + (bundle as NSString).lastPathComponent + ".zip"
                zips.append(try await writer.write(sources: [bundle], to: zip) { throttle.report(done: $0.bytesDone, total: $0.bytesTotal) })
            }
        }
        for zip in zips { context.log("zipped \(zip.entries) entries into '\(zip.path)'") }

        let manifestPath = manifestPath(in: context)
        let manifest = DsymManifest(describing: dsyms)
        try FileSystemSupport.createParent(of: manifestPath)
        try AtomicFile.write(try manifest.json(), to: manifestPath)

        if options.moveIntoArchive, let archive = options.archive {
            let destination = context.resolvePath(archive) + "/dSYMs"
            try FileSystemSupport.createParent(of: destination + "/x")
            for (index, bundle) in bundles.enumerated() where !bundle.hasPrefix(destination + "/") {
                let target = destination + "/" + (bundle as NSString).lastPathComponent
                do {
                    if context.files.exists(target) {
                        context.warn("replacing '\(target)'")
                        try context.files.remove(target)
                    }
                    try context.files.move(bundle, to: target)
                } catch {
                    throw StepError.failed("cannot move '\(bundle)' to '\(target)': \(error.localizedDescription)")
                }
                context.log("moved '\(bundle)' to '\(target)'")
                bundles[index] = target
            }
        }

        let uuids = manifest.dsyms.map { OutputValue.string($0.uuid) }
        return StepOutputs(
            [
                "path": .path(output),
                "paths": .list(zips.map { .path($0.path) }),
                "uuids": .list(uuids),
                "manifest": .path(manifestPath),
            ],
            artifacts: zips.map(\.artifact) + [try await FileDigest.artifact(at: manifestPath)])
    }

    /// The manifest's path: the option, else `NAME.uuids.json` beside the zip (mode `all`) or in the folder.
    func manifestPath(in context: StepContext) -> String {
        if let manifest = options.manifest { return context.resolvePath(manifest) }
        let output = context.resolvePath(options.output)
        switch mode {
        case .all:
            let base = output.hasSuffix(".zip") ? String(output.dropLast(4)) : output
            return base + ".uuids.json"
        case .each:
            return output + "/dsym-uuids.json"
        }
    }

    /// The dSYM bundles that exist now, absolute, one per name, in option order.
    func dsymBundles(in context: StepContext) -> [String] {
        var found: [String] = []
        if let archive = options.archive {
            found += FileSystemSupport.findDsyms(in: context.resolvePath(archive) + "/dSYMs", depth: 0)
        }
        for folder in options.search {
            found += FileSystemSupport.findDsyms(in: context.resolvePath(folder))
        }
        for path in options.paths where context.files.isDirectory(context.resolvePath(path)) {
            found.append(context.resolvePath(path))
        }
        // One bundle per name (a zip cannot hold two): a dSYM from `search` or `paths` replaces the archive's
        // namesake, as moving it into the archive would.
        var byName: [String: Int] = [:]
        var result: [String] = []
        for path in found {
            let name = (path as NSString).lastPathComponent
            if let index = byName[name] {
                result[index] = path
            } else {
                byName[name] = result.count
                result.append(path)
            }
        }
        return result
    }
}

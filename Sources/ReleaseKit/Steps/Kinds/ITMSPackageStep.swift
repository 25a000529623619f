import Crypto
import Foundation
import ReleaseSupport
import ReleaseVersioning

/// `itmsp.package`: builds the package iTMSTransporter uploads to App Store Connect: a folder `NAME.itmsp/` holding
/// the `.ipa` and a `metadata.xml` that names the app (its Apple ID) and the ipa's file name, size and MD5.
///
/// The package is assembled in a temporary folder beside the output and renamed into place, so a failed run
/// never leaves half a package (an existing package at the output is replaced).
package struct ITMSPackageStep: Step {
    /// The step's `with` object.
    package struct Options: StepOptions, Equatable {
        @StepOption(.path, must: .notBeEmpty, help: "the .ipa to package")
        package var ipa: String
        @StepOption(help: "the app's Apple ID in App Store Connect (digits)")
        package var appleID: String
        @StepOption(.output, help: "the package folder, ending in .itmsp (default: the ipa's path with .itmsp instead of .ipa)")
        package var output: String?
        @StepOption(help: "app_platform in metadata.xml")
        package var platform: ApplePlatformChoice<ApplePlatform.TransporterSpelling> = .init(.iOS)
        @StepOption(help: "the package format version")
        package var packageVersion: String = "software5.4"

        package init() {}
    }

    /// The stable kind pipelines use in `uses`.
    package static let kind = "itmsp.package"
    package static let exportTraits = ExportTraits(runner: .anywhere)
    /// One line for `release steps`.
    package static let summary = "Build an iTMSTransporter package (NAME.itmsp/ with the ipa and metadata.xml)"
    /// The outputs, for `release steps`.
    package static let outputs: [StepDocumentation.Output] = [
        .init("path", "path", "the .itmsp folder"),
        .init("metadata", "path", "its metadata.xml (also an artifact, as is the copied ipa)"),
        .init("md5", "string", "the ipa's MD5, as written in metadata.xml"),
        .init("size", "number", "the ipa's size in bytes"),
    ]
    /// A complete step object, for `release steps`.
    package static let example = """
        { "id": "itmsp", "uses": "itmsp.package", "needs": ["export"],
          "with": { "ipa": "build/Demo.ipa", "apple_id": "1234567890", "output": "build/Demo.itmsp" } }
        """

    /// The decoded options.
    package let options: Options

    /// - Throws: ``StepError/invalidOption(_:_:)`` for an Apple ID that is not digits, an output not ending in
    ///   `.itmsp`, or a malformed package version.
    package init(options: Options) throws {
        try options.validate()
        guard !options.appleID.isEmpty, options.appleID.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw StepError.invalidOption("apple_id", "'\(options.appleID)' is not an Apple ID (the app's numeric id in App Store Connect)")
        }
        if let output = options.output, !output.hasSuffix(".itmsp") || (output as NSString).lastPathComponent == ".itmsp" {
            throw StepError.invalidOption("output", "'\(output)' must name a folder ending in .itmsp")
        }
        if options.packageVersion.firstMatch(of: /^software[0-9]+(\.[0-9]+)*$/) == nil {
            throw StepError.invalidOption("package_version", "'\(options.packageVersion)' is not a package version such as software5.4")
        }
        self.options = options
    }

    func outputPath(_ context: StepContext) -> String {
        if let output = options.output { return context.resolvePath(output) }
        let ipa = context.resolvePath(options.ipa)
        let base = ipa.hasSuffix(".ipa") ? String(ipa.dropLast(4)) : ipa
        return base + ".itmsp"
    }

    /// Read-only checks: inputs exist or are promised.
    package func verify(in context: StepContext) async throws {
        let ipa = try context.requireFile(options.ipa, option: "ipa")
        if context.files.isDirectory(ipa) { throw StepError.invalidOption("ipa", "'\(ipa)' is a folder, not an .ipa") }
    }

    /// What `run` would do, and the outputs it promises.
    package func plan(in context: StepContext) async throws -> StepPlan {
        let output = outputPath(context)
        let name = (context.resolvePath(options.ipa) as NSString).lastPathComponent
        let ipa = output + "/" + name
        let metadata = output + "/metadata.xml"
        var effects: [PlannedEffect] = []
        if context.files.exists(output) { effects.append(.delete(path: output)) }
        effects.append(.writeFile(path: ipa, diff: nil, detail: "copy of '\(context.resolvePath(options.ipa))'"))
        effects.append(.writeFile(path: metadata, diff: nil, detail: "apple_id \(options.appleID), file_name \(name), size and MD5 of the ipa"))
        return StepPlan(
            effects: effects,
            outputs: StepOutputs(
                ["path": .path(output), "metadata": .path(metadata)],
                artifacts: [Artifact(path: ipa, size: 0, sha256: ""), Artifact(path: metadata, size: 0, sha256: "")])
        )
    }

    /// The `metadata.xml` text for an ipa.
    package static func metadata(appleID: String, platform: ApplePlatform, packageVersion: String, fileName: String, size: Int64, md5: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <package version="\(escape(packageVersion))" xmlns="http://apple.com/itunes/importer">
            <software_assets apple_id="\(escape(appleID))" app_platform="\(escape(platform.transporter))">
                <asset type="bundle">
                    <data_file>
                        <size>\(size)</size>
                        <file_name>\(escape(fileName))</file_name>
                        <checksum type="md5">\(md5)</checksum>
                    </data_file>
                </asset>
            </software_assets>
        </package>

        """
    }

    /// Text for `metadata.xml`, its attributes included.
    static func escape(_ text: String) -> String {
        XMLEntities.escape(text, quotes: true)
    }

    /// Copies `source` to `destination` in chunks, returning its MD5 and size.
    static func copy(_ source: String, to destination: String, flag: CancellationFlag) throws -> (md5: String, size: Int64) {
        guard let input = FileHandle(forReadingAtPath: source) else { throw StepError.missingFile(path: source, option: "ipa") }
        defer { try? input.close() }
        guard LocalFiles().createFile(destination),
            let output = FileHandle(forWritingAtPath: destination)
        else {
            throw StepError.failed("cannot write '\(destination)'")
        }
        defer { try? output.close() }
        var hasher = Insecure.MD5()
        var size: Int64 = 0
        while true {
            if flag.isCancelled { throw CancellationError() }
            let chunk = try input.read(upToCount: 1 << 20) ?? Data()
            if chunk.isEmpty { break }
            hasher.update(data: chunk)
            try output.write(contentsOf: chunk)
            size += Int64(chunk.count)
        }
        try output.synchronize()
        return (Hex.string(hasher.finalize()), size)
    }

    /// Does the work; see the type's documentation.
    package func run(in context: StepContext) async throws -> StepOutputs {
        let ipa = try context.requireFile(options.ipa, option: "ipa")
        let output = outputPath(context)
        let name = (ipa as NSString).lastPathComponent
        try FileSystemSupport.createParent(of: output)
        let temporary = AtomicFile.temporaryPath(for: output)
        do {
            try context.files.createDirectory(temporary, parents: false)
        } catch {
            throw StepError.failed("cannot create folder '\(temporary)': \(error.localizedDescription)")
        }
        do {
            let (md5, size) = try await BlockingWork.run { flag in try Self.copy(ipa, to: temporary + "/" + name, flag: flag) }
            let xml = Self.metadata(
                appleID: options.appleID, platform: options.platform.platform,
                packageVersion: options.packageVersion, fileName: name, size: size, md5: md5)
            try AtomicFile.write(xml, to: temporary + "/metadata.xml")
            // rename(2) cannot replace a folder that has files: move the old package aside first, and back on failure.
            var previous: String?
            if context.files.exists(output) {
                let aside = AtomicFile.temporaryPath(for: output)
                if rename(output, aside) != 0 {
                    throw StepError.failed("cannot move '\(output)' aside: \(String(cString: strerror(errno)))")
                }
                previous = aside
            }
            if rename(temporary, output) != 0 {
                let reason = String(cString: strerror(errno))
                if let previous { _ = rename(previous, output) }
                throw StepError.failed("cannot rename '\(temporary)' to '\(output)': \(reason)")
            }
            if let previous { try? context.files.remove(previous) }
            context.log("\(output): \(name) (\(ByteFormat.size(size)), MD5 \(md5)), metadata.xml for Apple ID \(options.appleID)")
            let metadata = output + "/metadata.xml"
            return StepOutputs(
                ["path": .path(output), "metadata": .path(metadata), "md5": .string(md5), "size": .number(Double(size))],
                artifacts: [try await context.artifact(output + "/" + name), try await context.artifact(metadata)]
            )
        } catch {
            try? context.files.remove(temporary)
            if error is StepError || error is CancellationError { throw error }
            throw StepError.failed("cannot build '\(output)': \(error)")
        }
    }
}

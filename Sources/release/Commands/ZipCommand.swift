import ArgumentParser
import Foundation
import ReleaseArtifacts
import ReleaseSupport

/// `release zip SOURCE... --output ZIP`: the `archive.zip` step's writer on its own, for the benchmark and for
/// debugging. Hidden from help: pipelines use the `archive.zip` step.
struct ZipCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "zip",
        abstract: "Zip files or folders like 'zip -ry' (symlinks kept), as the archive.zip step does.",
        shouldDisplay: false
    )

    @Argument(help: "Files or folders to zip; entries are named relative to each one's parent.")
    var sources: [String]

    @Option(name: .shortAndLong, help: "The zip to write (replaced atomically).")
    var output: String

    @Option(help: "Deflate level 0-9 (0 stores).")
    var level: Int = 6

    @Flag(help: "Sorted entries, no timestamps, owner 0: the same tree gives the same bytes.")
    var deterministic = false

    @Option(help: "An existing zip whose entries are copied for files with the same name, size and CRC-32 (repeatable).")
    var reuse: [String] = []

    @Flag(help: "Print the result as JSON.")
    var json = false

    func run() async throws {
        let options: ZipOptions
        do {
            options = try ZipOptions(level: level, deterministic: deterministic, reuse: reuse)
        } catch {
            throw ValidationError("\(error)")
        }
        do {
            let result = try await ZipWriter(options: options).write(sources: sources, to: output)
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                print(String(decoding: try encoder.encode(result), as: UTF8.self))
            } else {
                print("\(result.path): \(result.entries) entries, \(ByteFormat.size(result.size)), sha256 \(result.sha256)")
            }
        } catch {
            Terminal.writeError("error: \(error)\n")
            throw ExitCode(1)
        }
    }
}

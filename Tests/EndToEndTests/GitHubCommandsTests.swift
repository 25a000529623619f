import Foundation
import ReleaseTestSupport
import Testing

/// Runs the real `release` binary: `github-server` in the background, `upload-asset` against it twice.
@Suite("release github-server and upload-asset (end to end)")
struct GitHubCommandsTests {
    static let binary = ReleaseBinary.path

    static func run(_ arguments: [String], environment: [String: String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let outcome = try ReleaseBinary.run(arguments, in: TestTemporary.root, environment: environment)
        return (outcome.status, outcome.stdout, outcome.stderr)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: binary)))
    func serverAndUploadConverge() throws {
        let directory = TestTemporary.root + "/release-e2e-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let token = "ghp_EndToEndToken_42"
        let file = directory + "/Demo.app.dSYM.zip"
        try Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }).write(to: URL(fileURLWithPath: file))

        let server = Process()
        server.executableURL = URL(fileURLWithPath: Self.binary)
        server.arguments = ["github-server", "--storage", directory + "/server"]
        server.environment = ["GITHUB_TOKEN": token, "PATH": "/usr/bin:/bin"]
        let out = Pipe()
        server.standardOutput = out
        server.standardError = Pipe()
        try server.run()
        defer {
            if server.isRunning { server.terminate() }
            server.waitUntilExit()
        }
        // The first line is the URL.
        var buffer = Data()
        while !buffer.contains(UInt8(ascii: "\n")) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
        }
        let url = String(decoding: buffer, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(url.hasPrefix("http://127.0.0.1:"))

        let environment = ["GITHUB_TOKEN": token, "PATH": "/usr/bin:/bin"]
        let arguments = ["upload-asset", "--api", url, "--repo", "octo/app", "--tag", "v3.0.0-4321_2014-10-22T06-01-18Z", "--json", file]
        let first = try Self.run(arguments, environment: environment)
        #expect(first.status == 0, "\(first.stderr)")
        let result = try #require(try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [String: Any])
        #expect(result["bytes_uploaded"] as? Int == 200_000)
        #expect(result["uploaded"] as? [String] == ["Demo.app.dSYM.zip"])

        let second = try Self.run(arguments, environment: environment)
        #expect(second.status == 0)
        let again = try #require(try JSONSerialization.jsonObject(with: Data(second.stdout.utf8)) as? [String: Any])
        #expect(again["bytes_uploaded"] as? Int == 0)
        #expect((again["api_calls"] as? Int).map { $0 <= 3 } == true)

        let wrong = try Self.run(arguments, environment: ["GITHUB_TOKEN": "ghp_wrong", "PATH": "/usr/bin:/bin"])
        #expect(wrong.status == 1)
        #expect(wrong.stderr.contains("GitHub rejected the token"))
        #expect(!wrong.stderr.contains("ghp_wrong"))

        server.interrupt()
        server.waitUntilExit()
        #expect(server.terminationStatus == 0)
    }
}

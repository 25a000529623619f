import Foundation
import ReleaseGitHub
import ReleaseHTTP
import ReleaseSupport
import Testing

/// `release github-server` streams uploads to disk: its resident memory does not grow with the upload's size.
///
/// The server runs as its own process so its memory is measured alone (Linux `/proc/PID/status`; skipped where
/// there is no `/proc`). The source file is sparse, so neither side's disk or page cache decides the result.
@Suite("release github-server streams uploads (end to end)", .serialized)
struct GitHubServerStreamingTests {
    static let binary = ReleaseBinary.path
    static var measurable: Bool {
        let status = "/proc/self/status"  // portability: linux-only (skipped where there is no /proc)
        return FileManager.default.isExecutableFile(atPath: binary) && FileManager.default.fileExists(atPath: status)
    }
    static let slow = ProcessInfo.processInfo.environment["RELEASE_SLOW_TESTS"] == "1"

    @Test(.enabled(if: measurable, "needs the release binary and /proc"))
    func uploadOf256MiBKeepsServerMemoryFlat() async throws {
        try await uploadKeepsServerMemoryFlat(size: 256 << 20)
    }

    /// Past 4 GiB, where a 32-bit length or offset anywhere would wrap.
    @Test(.enabled(if: measurable && slow, "uploads 4 GiB + 1 byte; set RELEASE_SLOW_TESTS=1"))
    func uploadOver4GiBKeepsServerMemoryFlat() async throws {
        try await uploadKeepsServerMemoryFlat(size: (4 << 30) + 1)
    }

    func uploadKeepsServerMemoryFlat(size: Int64) async throws {
        let directory = ReleaseBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let token = "ghp_StreamingTest_1"
        let file = directory + "/big.ipa"
        #expect(FileManager.default.createFile(atPath: file, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
        try handle.truncate(atOffset: UInt64(size))  // sparse: no disk used
        try handle.close()

        let server = Process()
        server.executableURL = URL(fileURLWithPath: Self.binary)
        server.arguments = ["github-server", "--storage", directory + "/server", "--token", token]
        let out = Pipe()
        server.standardOutput = out
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer {
            if server.isRunning { server.terminate() }
            server.waitUntilExit()
        }
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let url = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let client = try GitHubClient(apiURL: url, token: token)
        let release = try await client.createRelease("octo/app", GitHubReleaseFields(tagName: "v1", draft: true))
        let before = try Self.memory(of: server.processIdentifier, "VmRSS")

        let digest = StreamingDigest()
        let response = try await client.uploadAsset(
            uploadURLTemplate: release.uploadURL, file: file, name: "big.ipa", contentType: "application/octet-stream", digest: digest
        )

        #expect(response.status == 201, "\(response.text)")
        let asset = try JSONDecoder().decode(GitHubReleaseAsset.self, from: response.body)
        #expect(asset.size == size)
        #expect(asset.digest == "sha256:" + digest.hex)
        #expect(digest.count == size)
        let stored = try FileManager.default.attributesOfItem(atPath: directory + "/server/assets/\(asset.id)")[.size] as? Int64
        #expect(stored == size)
        // Reads are at most 256 KiB, about ten wait unread, and writes go out in 1 MiB batches: a few MiB at
        // most, whatever the size (measured: +8 MB for 512 MiB and for 4 GiB). 32 MiB leaves room for
        // allocator slack and is far below a buffered upload.
        let peak = try Self.memory(of: server.processIdentifier, "VmHWM")
        #expect(peak - before < 32 << 20, "server peak RSS grew by \(peak - before) bytes for a \(size)-byte upload")
    }

    /// A `/proc/PID/status` field in bytes (`VmRSS`: resident now, `VmHWM`: peak resident).
    static func memory(of pid: Int32, _ field: String) throws -> Int64 {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)  // portability: linux-only (only where measurable)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix(field + ":") })
        let kilobytes = try #require(Int64(line.split(separator: " ").dropFirst().first ?? ""))
        return kilobytes * 1024
    }
}

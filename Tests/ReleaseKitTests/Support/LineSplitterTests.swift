import Foundation
import Synchronization
import Testing

@testable import ReleaseSupport

/// Child output into lines: linear in the bytes, bounded per line, and never cutting a secret.
@Suite struct LineSplitterTests {
    /// Feeds `bytes` in `chunk`-sized pieces and returns what was delivered.
    static func split(_ bytes: [UInt8], chunk: Int, masker: SecretMasker? = nil, limit: Int = 1 << 20, window: Int = 16 << 10) -> [[UInt8]] {
        var splitter = LineSplitter(masker: masker, limit: limit, window: window)
        var pieces: [[UInt8]] = []
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + chunk)
            bytes[offset..<end].withUnsafeBytes { splitter.append($0) { pieces.append(Array($0)) } }
            offset = end
        }
        splitter.finish { pieces.append(Array($0)) }
        return pieces
    }

    @Test func linesWrittenInAnyChunksComeOutWhole() {
        let text = Array("one\ntwo words\n\nthree".utf8)
        for chunk in 1...text.count {
            #expect(Self.split(text, chunk: chunk).map { String(decoding: $0, as: UTF8.self) } == ["one", "two words", "", "three"])
        }
    }

    /// A child that never writes a line break: the line comes out in pieces of at most the limit, nothing lost, and no
    /// piece splits a UTF-8 character.
    @Test func aLineWithoutEndIsDeliveredInBoundedPieces() {
        let line = Array(String(repeating: "aé€😀", count: 300_000).utf8)  // 3.0 MiB
        let pieces = Self.split(line + [0x0A], chunk: 65_536)
        #expect(pieces.count == 3)
        #expect(pieces.allSatisfy { $0.count <= LineSplitter.maximumLineLength })
        #expect(Array(pieces.joined()) == line)
        #expect(pieces.allSatisfy { String(validating: $0, as: UTF8.self) != nil })
    }

    /// The cut of a long line moves off a secret that spans it: masking the pieces one by one masks everything masking
    /// the whole line would.
    @Test func aCutNeverSplitsASecret() {
        let secret = "s3cr3t-TOKEN-0123456789abcdef"
        let masker = SecretMasker(secrets: [secret])
        let limit = 4096, window = 256
        // Secrets everywhere, at every alignment relative to where a naive cut would fall.
        var text = ""
        var filler = 0
        while text.utf8.count < 40_000 {
            text += String(repeating: "x", count: filler % 97) + secret
            filler += 13
        }
        let bytes = Array(text.utf8)
        for chunk in [1000, 4096, 65_536] {
            let pieces = Self.split(bytes, chunk: chunk, masker: masker, limit: limit, window: window)
            #expect(pieces.count > 5)
            #expect(pieces.allSatisfy { $0.count <= limit })
            #expect(Array(pieces.joined()) == bytes)
            let masked = pieces.map { masker.mask(String(decoding: $0, as: UTF8.self)) }
            #expect(masked.joined() == masker.mask(text))
            #expect(!masked.contains { $0.contains("s3cr3t") || $0.contains("0123456789abcdef") })
        }
    }

    final class Lines: Sendable {
        let storage = Mutex<[String]>([])
        func add(_ line: String, _ stream: OutputStreamKind) { storage.withLock { $0.append(line) } }
        var all: [String] { storage.withLock { $0 } }
    }

    /// Through a real child: 5 MiB on one line, written in many small writes. Before, the whole line was kept and
    /// scanned again from its start after every read.
    @Test func aChildsEndlessLineComesInPiecesThroughTheRunner() async throws {
        let lines = Lines()
        let request = ProcessRequest(
            arguments: ["sh", "-c", "head -c 5242880 /dev/zero | tr '\\0' 'a'; printf '\\nlast\\n'"],
            directory: "/tmp", environment: ProcessInfo.processInfo.environment)
        let result = try await ProcessRunner.run(request, onLine: lines.add)
        #expect(result.succeeded)
        let all = lines.all
        #expect(all.last == "last")
        #expect(all.dropLast().map(\.utf8.count).max() ?? 0 <= LineSplitter.maximumLineLength)
        #expect(all.count >= 6)
        #expect(all.dropLast().allSatisfy { $0.utf8.allSatisfy { $0 == UInt8(ascii: "a") } })
        #expect(all.dropLast().map(\.utf8.count).reduce(0, +) == 5_242_880)
    }

    /// A secret a child writes in two pieces, with a pause between them, is still one line, masked whole.
    @Test func aSecretWrittenInTwoWritesIsStillMasked() async throws {
        let lines = Lines()
        let masker = SecretMasker(secrets: ["hunter2-secret-value"])
        let request = ProcessRequest(
            arguments: ["sh", "-c", "printf 'token=hunter2-'; sleep 0.2; printf 'secret-value done\\n'"],
            directory: "/tmp", environment: ProcessInfo.processInfo.environment)
        _ = try await ProcessRunner.run(request, masker: masker) { line, stream in lines.add(masker.mask(line), stream) }
        #expect(lines.all == ["token=*** done"])
    }
}

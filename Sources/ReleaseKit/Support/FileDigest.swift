import Crypto
import Foundation

/// SHA-256 of files, read in chunks so a multi-gigabyte file never sits in memory.
public enum FileDigest {
    /// Lower-case hex SHA-256 and size of the file at `path`.
    public static func sha256(ofFile path: String) throws -> (hex: String, size: Int64) {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw StepError.missingFile(path: path, option: nil)
        }
        defer { try? handle.close() }
        var hasher = SHA256()
        var size: Int64 = 0
        while true {
            let chunk = try handle.read(upToCount: 1 << 20) ?? Data()
            if chunk.isEmpty { break }
            hasher.update(data: chunk)
            size += Int64(chunk.count)
        }
        return (hex(hasher.finalize()), size)
    }

    /// Lower-case hex SHA-256 of `data`.
    public static func sha256(of data: Data) -> String {
        hex(SHA256.hash(data: data))
    }

    /// An ``Artifact`` for the file at `path`.
    public static func artifact(at path: String) throws -> Artifact {
        let (digest, size) = try sha256(ofFile: path)
        return Artifact(path: path, size: size, sha256: digest)
    }

    private static func hex<D: Sequence>(_ digest: D) -> String where D.Element == UInt8 {
        digest.map { byte in
            let text = String(byte, radix: 16)
            return byte < 16 ? "0" + text : text
        }.joined()
    }
}

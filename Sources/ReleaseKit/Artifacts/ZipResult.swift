import ReleaseSupport

/// A finished zip: where it is, how big, its digest and how many entries it holds.
package struct ZipResult: Sendable, Equatable, Codable {
    /// Absolute path of the zip.
    package var path: String
    /// Size in bytes.
    package var size: Int64
    /// Lower-case hex SHA-256 of the zip.
    package var sha256: String
    /// Entries stored: files, folders and links.
    package var entries: Int
    /// Bytes of file data before compression.
    package var uncompressedBytes: Int64

    package init(path: String, size: Int64, sha256: String, entries: Int, uncompressedBytes: Int64) {
        self.path = path
        self.size = size
        self.sha256 = sha256
        self.entries = entries
        self.uncompressedBytes = uncompressedBytes
    }

    private enum CodingKeys: String, CodingKey {
        case path, size, sha256, entries
        case uncompressedBytes = "uncompressed_bytes"
    }

    /// The zip as a run-report artifact.
    package var artifact: Artifact { Artifact(path: path, size: size, sha256: sha256) }
}

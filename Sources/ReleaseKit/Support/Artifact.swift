/// A file a step produced, listed in the run report with its size and SHA-256.
package struct Artifact: Sendable, Equatable, Codable {
    /// Absolute path.
    package var path: String
    package var size: Int64
    /// Lower-case hex SHA-256 of the contents.
    package var sha256: String

    package init(path: String, size: Int64, sha256: String) {
        self.path = path
        self.size = size
        self.sha256 = sha256
    }
}

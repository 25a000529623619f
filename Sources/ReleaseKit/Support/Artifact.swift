/// A file a step produced, listed in the run report with its size and SHA-256.
public struct Artifact: Sendable, Equatable, Codable {
    /// Absolute path.
    public var path: String
    public var size: Int64
    /// Lower-case hex SHA-256 of the contents.
    public var sha256: String

    public init(path: String, size: Int64, sha256: String) {
        self.path = path
        self.size = size
        self.sha256 = sha256
    }
}

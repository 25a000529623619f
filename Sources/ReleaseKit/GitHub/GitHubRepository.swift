/// A repository as `GET /repos/{owner}/{repo}` returns it: what preflight needs.
public struct GitHubRepository: Sendable, Decodable, Equatable {
    /// What the token may do.
    public struct Permissions: Sendable, Decodable, Equatable {
        public var pull: Bool?
        public var push: Bool?
        public var admin: Bool?
    }

    public var fullName: String
    public var permissions: Permissions?

    enum CodingKeys: String, CodingKey {
        case permissions
        case fullName = "full_name"
    }

    /// Whether the token can create releases and upload assets.
    public var canPush: Bool { permissions?.push ?? false }
}

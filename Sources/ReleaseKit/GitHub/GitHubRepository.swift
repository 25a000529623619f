/// A repository as `GET /repos/{owner}/{repo}` returns it: what preflight needs.
package struct GitHubRepository: Sendable, Decodable, Equatable {
    /// What the token may do.
    package struct Permissions: Sendable, Decodable, Equatable {
        package var pull: Bool?
        package var push: Bool?
        package var admin: Bool?
    }

    package var fullName: String
    package var permissions: Permissions?

    enum CodingKeys: String, CodingKey {
        case permissions
        case fullName = "full_name"
    }

    /// Whether the token can create releases and upload assets.
    package var canPush: Bool { permissions?.push ?? false }
}

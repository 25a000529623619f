/// Release notes GitHub generates for a tag (`POST /repos/{owner}/{repo}/releases/generate-notes`): the title and
/// the Markdown body it would give a release created with `generate_release_notes`.
package struct GitHubGeneratedNotes: Sendable, Codable, Equatable {
    package var name: String
    package var body: String

    package init(name: String, body: String) {
        self.name = name
        self.body = body
    }

    /// The request's fields; nil ones are left out, so GitHub picks the previous release itself.
    struct Request: Sendable, Encodable {
        var tagName: String
        var targetCommitish: String?
        var previousTagName: String?

        enum CodingKeys: String, CodingKey {
            case tagName = "tag_name"
            case targetCommitish = "target_commitish"
            case previousTagName = "previous_tag_name"
        }
    }
}

/// Which GitHub repository a git remote URL names: what `release init` writes into a starter pipeline and what
/// `notes` links pull requests to.
package enum GitHubRemote {
    /// `owner/name` of a github.com remote URL in any of git's spellings (`https://github.com/owner/name.git`,
    /// `git@github.com:owner/name.git`, `ssh://git@github.com/owner/name`); nil for any other host or shape.
    package static func repository(fromURL url: String) -> String? {
        guard let range = url.range(of: "github.com") else { return nil }
        var rest = url[range.upperBound...].drop { $0 == ":" || $0 == "/" }
        while rest.hasSuffix("/") { rest = rest.dropLast() }
        if rest.hasSuffix(".git") { rest = rest.dropLast(4) }
        let parts = rest.split(separator: "/")
        return parts.count == 2 ? "\(parts[0])/\(parts[1])" : nil
    }
}

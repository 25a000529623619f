import Foundation

/// What a rehearsal published, for `release run --rehearse` to print at the end.
extension LocalGitHubServer {
    /// One line per release, oldest first, then one indented line per asset:
    ///
    /// ```
    /// octo/app v3.0.0 (published, immutable) http://127.0.0.1:54321/octo/app/releases/tag/v3.0.0
    ///   Demo.xcarchive.zip  12345678 bytes  application/zip  uploaded  sha256:9f86d0…
    /// ```
    package func summary() -> [String] {
        var lines: [String] = []
        for release in releases().reversed() {
            var flags = [release.draft ? "draft" : "published"]
            if release.prerelease { flags.append("prerelease") }
            if release.immutable { flags.append("immutable") }
            let tagPath = release.tagName.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? release.tagName
            lines.append("\(release.repository) \(release.tagName) (\(flags.joined(separator: ", "))) \(url)/\(release.repository)/releases/tag/\(tagPath)")
            for asset in assets(releaseID: release.id) {
                lines.append("  \(asset.name)  \(asset.size) bytes  \(asset.contentType)  \(asset.state)  \(asset.digest ?? "no digest")")
            }
        }
        return lines
    }
}

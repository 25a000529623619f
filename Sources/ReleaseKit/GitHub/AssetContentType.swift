/// The `Content-Type` an asset is uploaded with, chosen by its name's extension.
///
/// `.ipa` goes up as `application/octet-stream`: although an IPA is a zip, labelling it `application/zip`
/// makes browsers and some MDM tools offer to unpack it; there is no registered IPA type, and
/// octet-stream is what Xcode's own distribution and GitHub's web uploader use.
package enum AssetContentType {
    private static let byExtension: [(suffix: String, type: String)] = [
        (".dsym.zip", "application/zip"),
        (".zip", "application/zip"),
        (".ipa", "application/octet-stream"),
        (".json", "application/json"),
        (".txt", "text/plain"),
        (".md", "text/markdown"),
        (".tar.gz", "application/gzip"),
        (".tgz", "application/gzip"),
        (".gz", "application/gzip"),
        (".dmg", "application/x-apple-diskimage"),
        (".pkg", "application/octet-stream"),
        (".plist", "application/xml"),
        (".xml", "application/xml"),
    ]

    /// The content type for a file named `name` (case-insensitive), `application/octet-stream` if unknown.
    package static func forFile(named name: String) -> String {
        let lower = name.lowercased()
        return byExtension.first { lower.hasSuffix($0.suffix) }?.type ?? "application/octet-stream"
    }
}

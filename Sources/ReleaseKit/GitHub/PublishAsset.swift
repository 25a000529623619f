/// One local file to attach to a release.
package struct PublishAsset: Sendable, Equatable {
    /// Absolute path of the file.
    package var path: String
    /// The name to upload under, before GitHub's renaming (``GitHubAssetName``).
    package var name: String
    package var label: String?
    package var contentType: String

    /// - Parameters:
    ///   - name: defaults to the file's name.
    ///   - contentType: defaults to ``AssetContentType/forFile(named:)``.
    package init(path: String, name: String? = nil, label: String? = nil, contentType: String? = nil) {
        self.path = path
        let fileName = name ?? String(path.split(separator: "/").last ?? Substring(path))
        self.name = fileName
        self.label = label
        self.contentType = contentType ?? AssetContentType.forFile(named: fileName)
    }

    /// The name GitHub will store.
    package var remoteName: String { GitHubAssetName.normalized(name) }
}

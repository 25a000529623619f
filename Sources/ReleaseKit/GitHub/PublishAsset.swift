/// One local file to attach to a release.
public struct PublishAsset: Sendable, Equatable {
    /// Absolute path of the file.
    public var path: String
    /// The name to upload under, before GitHub's renaming (``GitHubAssetName``).
    public var name: String
    public var label: String?
    public var contentType: String

    /// - Parameters:
    ///   - name: defaults to the file's name.
    ///   - contentType: defaults to ``AssetContentType/forFile(named:)``.
    public init(path: String, name: String? = nil, label: String? = nil, contentType: String? = nil) {
        self.path = path
        let fileName = name ?? String(path.split(separator: "/").last ?? Substring(path))
        self.name = fileName
        self.label = label
        self.contentType = contentType ?? AssetContentType.forFile(named: fileName)
    }

    /// The name GitHub will store.
    public var remoteName: String { GitHubAssetName.normalized(name) }
}

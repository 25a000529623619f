/// The tool's own version, printed by `release --version`.
public enum ReleaseKitVersion {
    public static let string = "0.1.0"
    /// The GitHub repository whose Releases carry the packaged binaries (`Pipelines/self.json` publishes there): what
    /// an exported workflow installs by default.
    public static let repository = "owner/release"
}

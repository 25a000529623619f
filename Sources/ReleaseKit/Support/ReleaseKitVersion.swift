/// The tool's own version, printed by `release --version`.
public enum ReleaseKitVersion {
    public static let string = "0.1.0"
}

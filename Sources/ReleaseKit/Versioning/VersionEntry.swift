/// One row of a ``VersionReport``: a target in one configuration, or a version file.
public struct VersionEntry: Sendable, Codable, Equatable {
    /// The target name (the file name for version files).
    public var target: String
    /// The build configuration; `nil` for version files.
    public var configuration: String?
    /// The target's product type; `nil` for version files.
    public var productType: String?
    /// The app that ships this target (an extension's or watch app's host), if any.
    public var host: String?
    /// The resolved `PRODUCT_BUNDLE_IDENTIFIER`.
    public var bundleIdentifier: String?
    /// The Info.plist, relative to the project folder, or `generated` for `GENERATE_INFOPLIST_FILE`.
    public var infoPlist: String?
    /// The resolved marketing version (`CFBundleShortVersionString`).
    public var version: String?
    /// Where the version's literal text is.
    public var versionDefinedAt: DefinitionLocation?
    /// The resolved build number (`CFBundleVersion`).
    public var build: String?
    /// Where the build number's literal text is.
    public var buildDefinedAt: DefinitionLocation?

    /// Creates a value from its parts.
    public init(
        target: String, configuration: String?, productType: String?, host: String?, bundleIdentifier: String?,
        infoPlist: String?, version: String?, versionDefinedAt: DefinitionLocation?, build: String?, buildDefinedAt: DefinitionLocation?
    ) {
        self.target = target
        self.configuration = configuration
        self.productType = productType
        self.host = host
        self.bundleIdentifier = bundleIdentifier
        self.infoPlist = infoPlist
        self.version = version
        self.versionDefinedAt = versionDefinedAt
        self.build = build
        self.buildDefinedAt = buildDefinedAt
    }
}

/// An `XCBuildConfiguration`: a named set of build settings with an optional base `.xcconfig`.
public struct XcodeBuildConfiguration: Sendable, Equatable {
    /// The object id in `project.pbxproj`.
    public var id: String
    /// `Debug`, `Release`, …
    public var name: String
    /// The `buildSettings` entries in file order, each with its pbxproj line.
    public var settings: [SettingDefinition]
    /// Absolute path of the `baseConfigurationReference` file, resolved through the group hierarchy.
    public var baseConfigurationPath: String?
    /// Where the base configuration is named (`file:line` of the pbxproj or spec), for messages about it.
    public var baseConfigurationReference: String?
    /// The pbxproj line of the object, for messages.
    public var line: Int
}

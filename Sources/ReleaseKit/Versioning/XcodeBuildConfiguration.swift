/// An `XCBuildConfiguration`: a named set of build settings with an optional base `.xcconfig`.
package struct XcodeBuildConfiguration: Sendable, Equatable {
    /// The object id in `project.pbxproj`.
    package var id: String
    /// `Debug`, `Release`, …
    package var name: String
    /// The `buildSettings` entries in file order, each with its pbxproj line.
    package var settings: [SettingDefinition]
    /// Absolute path of the `baseConfigurationReference` file, resolved through the group hierarchy.
    package var baseConfigurationPath: String?
    /// Where the base configuration is named (`file:line` of the pbxproj or spec), for messages about it.
    package var baseConfigurationReference: String?
    /// The pbxproj line of the object, for messages.
    package var line: Int
}

/// A `PBXNativeTarget` and what the engine needs to know about it.
public struct XcodeTarget: Sendable, Equatable {
    /// The object id in `project.pbxproj`.
    public var id: String
    /// The target name.
    public var name: String
    /// `com.apple.product-type.application`, `com.apple.product-type.app-extension`, …
    public var productType: String
    /// Its build configurations, in file order.
    public var configurations: [XcodeBuildConfiguration]
    /// The configuration list's `defaultConfigurationName`.
    public var defaultConfigurationName: String?
    /// The id of the target that embeds this one (an app embedding an extension, a watch app embedding its
    /// extension), if any.
    public var hostID: String?
    /// The pbxproj line of the object.
    public var line: Int

    /// Whether this is an app (iOS, watch, App Clip, macOS).
    public var isApplication: Bool {
        productType.hasPrefix("com.apple.product-type.application")
    }

    /// Whether this is something an app ships inside itself: an extension or a watch app.
    public var isEmbeddable: Bool {
        productType.contains("extension") || productType.contains("watchapp") || productType.hasSuffix(".on-demand-install-capable")
    }
}

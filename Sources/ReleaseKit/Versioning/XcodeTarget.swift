/// A `PBXNativeTarget` and what the engine needs to know about it.
package struct XcodeTarget: Sendable, Equatable {
    /// The object id in `project.pbxproj`.
    package var id: String
    /// The target name.
    package var name: String
    /// `com.apple.product-type.application`, `com.apple.product-type.app-extension`, …
    package var productType: String
    /// Its build configurations, in file order.
    package var configurations: [XcodeBuildConfiguration]
    /// The configuration list's `defaultConfigurationName`.
    package var defaultConfigurationName: String?
    /// The id of the target that embeds this one (an app embedding an extension, a watch app embedding its
    /// extension), if any.
    package var hostID: String?
    /// Where the host copies this target's product (`$(CONTENTS_FOLDER_PATH)/Watch`, `Contents/Library/LoginItems`),
    /// when a copy-files phase embeds it; empty for a plain subfolder such as PlugIns.
    package var embedPath: String?
    /// The pbxproj line of the object.
    package var line: Int

    /// Whether this is an app (iOS, watch, App Clip, macOS).
    package var isApplication: Bool {
        productType.hasPrefix("com.apple.product-type.application")
    }

    /// Whether this is something an app ships inside itself: an extension or a watch app.
    package var isEmbeddable: Bool {
        productType.contains("extension") || productType.contains("watchapp") || productType.hasSuffix(".on-demand-install-capable")
    }

    /// Whether the target ships inside its host and must carry the host's version: an extension, a watch app,
    /// an App Clip (App Store Connect and Xcode both check these). A login-item helper or an XPC service an app
    /// embeds keeps its own numbering.
    package var mustMatchHost: Bool {
        guard hostID != nil else { return false }
        if isEmbeddable { return true }
        guard isApplication, let embedPath else { return false }
        return embedPath.hasSuffix("/Watch") || embedPath.hasSuffix("/AppClips")
    }
}

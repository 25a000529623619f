/// What a binary is to the app that ships it.
package enum BinaryRole: String, Sendable, Codable, Equatable {
    /// The main executable of an `.app`.
    case app
    /// The executable of an embedded `.framework`.
    case framework
    /// The executable of an app extension (`.appex`).
    case appExtension = "app-extension"
    /// The executable of a Watch app (`Watch/*.app`).
    case watchApp = "watch-app"
    /// The executable of an App Clip (`AppClips/*.app`).
    case appClip = "app-clip"
    /// `<executable>.debug.dylib`: the code of an Xcode 16 debug build, beside its stub executable.
    case debugDylib = "debug-dylib"
    /// A Mach-O file given directly.
    case file
}

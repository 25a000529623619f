import Foundation

/// What an `.ipa` says about the app inside it: the `Payload/*.app` folders, the app's `Info.plist` and its
/// embedded provisioning profile, read from the zip without unpacking it.
public struct IPAContents: Sendable {
    /// The app whose Info.plist was read, `Payload/Name.app`.
    public var app: String?
    /// Every `Payload/*.app` folder seen (more than one is a broken ipa).
    public var apps: [String] = []
    /// The app's `Info.plist` bytes (binary or XML).
    public var infoPlist: Data?
    /// The app's `embedded.mobileprovision` bytes.
    public var profile: Data?

    /// Reads the app's Info.plist and profile from the zip at `path`.
    /// - Throws: ``ArchiveError`` when the file is not a readable zip.
    public static func read(_ path: String) throws -> IPAContents {
        var contents = IPAContents()
        let reader = try ZipReader(path: path)
        while let entry = try reader.next() {
            let parts = entry.path.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0] == "Payload", parts[1].hasSuffix(".app"), entry.kind == .file else { continue }
            let app = "Payload/\(parts[1])"
            if parts[2] == "Info.plist" || parts[2] == "embedded.mobileprovision" {
                if !contents.apps.contains(app) { contents.apps.append(app) }
                var data = Data()
                try reader.readData { data.append(contentsOf: $0) }
                if parts[2] == "Info.plist" {
                    contents.app = app
                    contents.infoPlist = data
                } else if contents.app == nil || contents.app == app {
                    contents.profile = data
                }
            }
        }
        return contents
    }

    /// The Info.plist as a dictionary, or nil when there is none or it is not a property list dictionary.
    public var info: [String: Any]? {
        infoPlist.flatMap { (try? PropertyListSerialization.propertyList(from: $0, format: nil)) as? [String: Any] }
    }

    /// A non-empty string value of the Info.plist.
    public func string(_ key: String) -> String? {
        (info?[key] as? String).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// App Store Connect's `Platform` for the app (`IOS`, `TV_OS`, `VISION_OS`, `MAC_OS`) from
    /// `CFBundleSupportedPlatforms`; `IOS` when the key is absent, as for most iOS builds' first entry.
    public var appStorePlatform: String {
        let platforms = (info?["CFBundleSupportedPlatforms"] as? [String]) ?? []
        switch platforms.first {
        case "AppleTVOS": return "TV_OS"
        case "XROS": return "VISION_OS"
        case "MacOSX": return "MAC_OS"
        default: return "IOS"
        }
    }
}

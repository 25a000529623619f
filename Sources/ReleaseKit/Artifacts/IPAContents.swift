import Foundation
import ReleaseSupport

/// What an `.ipa` says about the app inside it: the `Payload/*.app` folders, the app's `Info.plist` and its
/// embedded provisioning profile, read from the zip without unpacking it.
package struct IPAContents: Sendable {
    /// The app whose Info.plist was read, `Payload/Name.app`.
    package var app: String?
    /// Every `Payload/*.app` folder seen (more than one is a broken ipa).
    package var apps: [String] = []
    /// The app's `Info.plist` bytes (binary or XML).
    package var infoPlist: Data?
    /// The app's `embedded.mobileprovision` bytes.
    package var profile: Data?
    /// Whether the Info.plist is a property list dictionary (read once, by ``read(_:)``).
    package private(set) var isInfoDictionary = false
    /// The Info.plist's keys, whatever their values.
    package private(set) var infoKeys: Set<String> = []
    /// Its non-empty string values.
    private var strings: [String: String] = [:]
    /// `CFBundleSupportedPlatforms`.
    private var supportedPlatforms: [String] = []

    /// The largest Info.plist read into memory: real ones are a few kilobytes.
    package static let infoPlistLimit = 4 << 20
    /// The largest embedded provisioning profile read into memory: real ones are tens of kilobytes, a few hundred
    /// with a long device list.
    package static let profileLimit = 4 << 20

    /// Reads the app's Info.plist and profile from the zip at `path`; nothing else is inflated.
    /// - Throws: ``ArchiveError`` when the file is not a readable zip,
    ///   ``ArchiveError/entryTooLarge(archive:entry:declaredSize:limit:)`` for an Info.plist or profile over its
    ///   limit (by its declared size or by what it inflates to).
    package static func read(_ path: String) throws -> IPAContents {
        var contents = IPAContents()
        let reader = try ZipReader(path: path)
        while let entry = try reader.next() {
            let parts = entry.path.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0] == "Payload", parts[1].hasSuffix(".app"), entry.kind == .file else { continue }
            let app = "Payload/\(parts[1])"
            if parts[2] == "Info.plist" || parts[2] == "embedded.mobileprovision" {
                if !contents.apps.contains(app) { contents.apps.append(app) }
                let data = try reader.readAll(limit: parts[2] == "Info.plist" ? infoPlistLimit : profileLimit)
                if parts[2] == "Info.plist" {
                    contents.app = app
                    contents.infoPlist = data
                } else if contents.app == nil || contents.app == app {
                    contents.profile = data
                }
            }
        }
        if let info = contents.infoPlist.flatMap({ PropertyListDepth.propertyList(from: $0) as? [String: Any] }) {
            contents.isInfoDictionary = true
            contents.infoKeys = Set(info.keys)
            contents.strings = info.compactMapValues { ($0 as? String).flatMap { $0.isEmpty ? nil : $0 } }
            contents.supportedPlatforms = info["CFBundleSupportedPlatforms"] as? [String] ?? []
        }
        return contents
    }

    /// A non-empty string value of the Info.plist.
    package func string(_ key: String) -> String? {
        strings[key]
    }

    /// The app's platform, from the first entry of `CFBundleSupportedPlatforms`; iOS when the key is absent or
    /// names none (a simulator's), as for most iOS builds.
    package var platform: ApplePlatform {
        supportedPlatforms.first.flatMap(ApplePlatform.init(bundleSupportedPlatform:)) ?? .iOS
    }
}

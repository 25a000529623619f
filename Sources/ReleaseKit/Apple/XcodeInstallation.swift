import Foundation
import ReleaseSupport

/// An Xcode on this machine: the `.app` and the version it says it is (`Contents/version.plist`, else
/// `Contents/Info.plist`, `CFBundleShortVersionString`), as `xcodes` and hosted runners lay them out
/// (`/Applications/Xcode_16.2.app`, `/Applications/Xcode.app`).
package struct XcodeInstallation: Sendable, Equatable, CustomStringConvertible {
    /// The `.app`.
    package var path: String
    /// `16.2`, `26.0.1`.
    package var version: String

    package init(path: String, version: String) {
        self.path = path
        self.version = version
    }

    /// What `DEVELOPER_DIR` names to make xcodebuild this Xcode's.
    package var developerDirectory: String { path + "/Contents/Developer" }

    /// `Xcode 16.2 (/Applications/Xcode_16.2.app)`.
    package var description: String { "Xcode \(version) (\(path))" }

    /// Every `Xcode*.app` in `folder` whose version can be read, sorted by path; none when the folder is not there
    /// (Linux: ``Platform/xcodeApplicationsFolder`` is nil and nothing is looked at).
    package static func installed(in folder: String) -> [XcodeInstallation] {
        let files = LocalFiles()
        return (files.names(in: folder) ?? []).filter { $0.hasPrefix("Xcode") && $0.hasSuffix(".app") }
            .compactMap { at(folder + "/" + $0) }
    }

    /// The Xcode whose `.app` is `path`, or holds the developer folder `path` (`xcode-select -p`,
    /// `…/Xcode.app/Contents/Developer`); nil when no version can be read there.
    package static func at(_ path: String) -> XcodeInstallation? {
        var app = path
        while app.hasSuffix("/") { app.removeLast() }
        if app.hasSuffix("/Contents/Developer") { app = String(app.dropLast("/Contents/Developer".count)) }
        guard app.hasSuffix(".app") else { return nil }
        let files = LocalFiles()
        for plist in ["/Contents/version.plist", "/Contents/Info.plist"] {
            // A version plist is a few hundred bytes; a big one is not Xcode's.
            guard let size = files.size(app + plist), size <= 1 << 20, let data = files.contents(app + plist),
                let object = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any],
                let version = object["CFBundleShortVersionString"] as? String, !version.isEmpty
            else { continue }
            return XcodeInstallation(path: app, version: version)
        }
        return nil
    }

    /// Whether version `installed` is the `wanted` one: each component `wanted` names is equal (`16` is any 16.x,
    /// `16.2` is 16.2 and 16.2.1, `16.2.0` is 16.2), as `.xcode-version` pins are read.
    package static func version(_ installed: String, satisfies wanted: String) -> Bool {
        func parts(_ text: String) -> [Int] {
            text.trimmingCharacters(in: .whitespaces).split(separator: ".").map { Int($0.prefix { $0.isNumber }) ?? -1 }
        }
        let have = parts(installed), want = parts(wanted)
        guard !want.isEmpty, !want.contains(-1) else { return installed == wanted }
        return want.enumerated().allSatisfy { index, part in (index < have.count ? have[index] : 0) == part }
    }
}

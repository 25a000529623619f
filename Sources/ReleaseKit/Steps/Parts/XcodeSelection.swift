import Foundation
import ReleaseApple
import ReleaseSupport

/// The Xcode an Xcode step's `xcode_version` asks for (a project's `.xcode-version`), found among those installed:
/// the selected one when it is that version, else an installed one through `DEVELOPER_DIR` (what `xcodes select` and
/// hosted runners' `/Applications/Xcode_X.Y.app` are for), else a preflight failure naming the version wanted and the
/// ones installed, before anything is built.
///
/// What is installed is probed only where Xcode can be (``Platform/xcodeApplicationsFolder``: `/Applications` on a
/// Mac); the selected one is `DEVELOPER_DIR`, else `xcode-select -p`. Where neither says anything (Linux with stand-in
/// tools), `xcodebuild -version` is the selected Xcode.
enum XcodeSelection {
    /// The environment xcodebuild gets so it is `wanted` (`[:]` when the selected Xcode is it).
    /// - Parameter applications: where Xcodes are looked for; a test passes a folder of fake ones.
    /// - Throws: ``StepError/failed(_:)`` naming `wanted` and what is installed when none is it.
    static func environment(
        for wanted: String, in context: StepContext, applications: String? = Platform.xcodeApplicationsFolder
    ) async throws -> [String: String] {
        var selected: XcodeInstallation?
        if let developer = context.environment["DEVELOPER_DIR"], !developer.isEmpty {
            selected = XcodeInstallation.at(developer)
        } else if ProcessRunner.resolveExecutable("xcode-select", directory: context.workingDirectory, environment: context.environment) != nil,
            let path = try? await context.capture(["xcode-select", "-p"])
        {
            selected = XcodeInstallation.at(path)
        }
        var installed = applications.map(XcodeInstallation.installed(in:)) ?? []
        if let selected, !installed.contains(selected) { installed.append(selected) }
        if let selected, XcodeInstallation.version(selected.version, satisfies: wanted) { return [:] }
        // The newest of those that are the version wanted.
        if let match = installed.filter({ XcodeInstallation.version($0.version, satisfies: wanted) }).max(by: { Self.older($0.version, than: $1.version) }) {
            context.log("Xcode \(wanted) (xcode_version): \(match.path) (DEVELOPER_DIR=\(match.developerDirectory))")
            return ["DEVELOPER_DIR": match.developerDirectory]
        }
        if installed.isEmpty {
            // Nothing to look at here but xcodebuild itself; without it, `requireCommand` has said what it says.
            guard ProcessRunner.resolveExecutable("xcodebuild", directory: context.workingDirectory, environment: context.environment) != nil,
                let text = try? await context.capture(XcodebuildCommand.version), let version = XcodeVersion(versionOutput: text)
            else { return [:] }
            if XcodeInstallation.version("\(version)", satisfies: wanted) { return [:] }
            let shown = version.build.isEmpty ? "\(version)" : "\(version) (\(version.build))"
            throw StepError.failed(
                "Xcode \(wanted) (xcode_version) is not the Xcode here: xcodebuild -version says Xcode \(shown), and no other is installed; run on a runner image that has Xcode \(wanted), or install it (xcodes install \(wanted))"
            )
        }
        let list = installed.map { $0 == selected ? "\($0), selected" : "\($0)" }.joined(separator: "; ")
        throw StepError.failed(
            "Xcode \(wanted) (xcode_version) is not installed here: installed: \(list); run on a runner image that has Xcode \(wanted), or install it (xcodes install \(wanted))"
        )
    }

    static func older(_ lhs: String, than rhs: String) -> Bool {
        let left = lhs.split(separator: ".").map { Int($0) ?? 0 }, right = rhs.split(separator: ".").map { Int($0) ?? 0 }
        return left.lexicographicallyPrecedes(right)
    }
}

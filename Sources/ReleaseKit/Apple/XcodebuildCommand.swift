import ReleaseSupport

/// The `xcodebuild` command lines the Apple steps run, built from typed values (see `man xcodebuild`).
package enum XcodebuildCommand {
    /// What `xcodebuild archive` is asked to build.
    package struct Archive: Sendable, Equatable {
        /// Either `-workspace` or `-project`.
        package enum Container: Sendable, Equatable {
            case workspace(String)
            case project(String)
        }

        package var container: Container
        package var scheme: String
        package var configuration: String
        package var destination: String
        package var archivePath: String
        package var derivedDataPath: String?
        package var resultBundlePath: String?
        package var xcconfig: String?
        package var allowProvisioningUpdates: Bool
        /// `KEY=VALUE` build settings, written sorted by key so the command is stable.
        package var buildSettings: [String: String]
        /// `-authenticationKeyPath P -authenticationKeyID I -authenticationKeyIssuerID J`, or nothing.
        package var authentication: [String]

        package init(
            container: Container, scheme: String, configuration: String, destination: String = ApplePlatform.iOS.destination,
            archivePath: String, derivedDataPath: String? = nil, resultBundlePath: String? = nil, xcconfig: String? = nil,
            allowProvisioningUpdates: Bool = false, buildSettings: [String: String] = [:], authentication: [String] = []
        ) {
            self.container = container
            self.scheme = scheme
            self.configuration = configuration
            self.destination = destination
            self.archivePath = archivePath
            self.derivedDataPath = derivedDataPath
            self.resultBundlePath = resultBundlePath
            self.xcconfig = xcconfig
            self.allowProvisioningUpdates = allowProvisioningUpdates
            self.buildSettings = buildSettings
            self.authentication = authentication
        }

        /// `xcodebuild [-workspace W | -project P] -scheme S -configuration C -destination D -archivePath A
        /// [-derivedDataPath …] [-resultBundlePath …] [-xcconfig …] [-allowProvisioningUpdates] archive [KEY=VALUE…]`.
        package var arguments: [String] {
            var argv = ["xcodebuild"]
            switch container {
            case .workspace(let path): argv += ["-workspace", path]
            case .project(let path): argv += ["-project", path]
            }
            argv += ["-scheme", scheme, "-configuration", configuration, "-destination", destination, "-archivePath", archivePath]
            if let derivedDataPath { argv += ["-derivedDataPath", derivedDataPath] }
            if let resultBundlePath { argv += ["-resultBundlePath", resultBundlePath] }
            if let xcconfig { argv += ["-xcconfig", xcconfig] }
            if allowProvisioningUpdates { argv.append("-allowProvisioningUpdates") }
            argv += authentication
            argv.append("archive")
            argv += buildSettings.keys.sorted().map { "\($0)=\(buildSettings[$0]!)" }
            return argv
        }
    }

    /// `xcodebuild -version`.
    package static let version = ["xcodebuild", "-version"]

    /// `xcodebuild -exportArchive -archivePath A -exportPath FOLDER -exportOptionsPlist PLIST [-allowProvisioningUpdates]`.
    package static func exportArchive(
        archivePath: String, exportPath: String, optionsPlist: String, allowProvisioningUpdates: Bool = false,
        authentication: [String] = []
    ) -> [String] {
        var argv = ["xcodebuild", "-exportArchive", "-archivePath", archivePath, "-exportPath", exportPath, "-exportOptionsPlist", optionsPlist]
        if allowProvisioningUpdates { argv.append("-allowProvisioningUpdates") }
        argv += authentication
        return argv
    }
}

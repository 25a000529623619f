/// The `xcodebuild` command lines the Apple steps run, built from typed values (see `man xcodebuild`).
public enum XcodebuildCommand {
    /// What `xcodebuild archive` is asked to build.
    public struct Archive: Sendable, Equatable {
        /// Either `-workspace` or `-project`.
        public enum Container: Sendable, Equatable {
            case workspace(String)
            case project(String)
        }

        public var container: Container
        public var scheme: String
        public var configuration: String
        public var destination: String
        public var archivePath: String
        public var derivedDataPath: String?
        public var resultBundlePath: String?
        public var xcconfig: String?
        public var allowProvisioningUpdates: Bool
        /// `KEY=VALUE` build settings, written sorted by key so the command is stable.
        public var buildSettings: [String: String]
        /// `-authenticationKeyPath P -authenticationKeyID I -authenticationKeyIssuerID J`, or nothing.
        public var authentication: [String]

        public init(
            container: Container, scheme: String, configuration: String, destination: String = "generic/platform=iOS",
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
        public var arguments: [String] {
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
    public static let version = ["xcodebuild", "-version"]

    /// `xcodebuild -exportArchive -archivePath A -exportPath FOLDER -exportOptionsPlist PLIST [-allowProvisioningUpdates]`.
    public static func exportArchive(
        archivePath: String, exportPath: String, optionsPlist: String, allowProvisioningUpdates: Bool = false,
        authentication: [String] = []
    ) -> [String] {
        var argv = ["xcodebuild", "-exportArchive", "-archivePath", archivePath, "-exportPath", exportPath, "-exportOptionsPlist", optionsPlist]
        if allowProvisioningUpdates { argv.append("-allowProvisioningUpdates") }
        argv += authentication
        return argv
    }
}

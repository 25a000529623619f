/// The step kinds a pipeline may use: an explicit list, so what exists is visible in one place.
public struct StepRegistry: Sendable {
    /// Why a registry cannot be built.
    public enum Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
        /// Two step types claim the same kind; which one a pipeline means would be a guess.
        case duplicateKind(String)

        public var description: String {
            switch self {
            case .duplicateKind(let kind): return "step kind '\(kind)' is registered twice"
            }
        }
    }

    public let kinds: [StepKind]
    private let index: [String: StepKind]

    /// Registers `types`, in order.
    /// - Throws: ``Error/duplicateKind(_:)`` when two types have the same kind.
    public init(_ types: [any Step.Type]) throws(Error) {
        var kinds: [StepKind] = []
        var index: [String: StepKind] = [:]
        for type in types {
            let kind = StepKind(type)
            guard index[kind.kind] == nil else { throw .duplicateKind(kind.kind) }
            kinds.append(kind)
            index[kind.kind] = kind
        }
        self.kinds = kinds
        self.index = index
    }

    public subscript(kind: String) -> StepKind? { index[kind] }

    public var names: [String] { kinds.map(\.kind) }

    /// Every built-in step kind.
    /// - Throws: ``Error/duplicateKind(_:)`` when two built-in steps share a kind: a bug (the test suite builds
    ///   this registry), reported as such rather than crashing.
    public static var builtIn: StepRegistry {
        get throws(Error) { try builtInRegistry.get() }
    }

    private static let builtInRegistry = Result { () throws(Error) in try StepRegistry(builtInTypes) }

    static var builtInTypes: [any Step.Type] {
        [
            ShellStep.self,
            PrintStep.self,
            NoopStep.self,
            VersionReadStep.self,
            VersionBumpStep.self,
            GitBranchStep.self,
            GitCommitStep.self,
            GitTagStep.self,
            GitPushStep.self,
            ArchiveZipStep.self,
            DsymPackageStep.self,
            DsymGateStep.self,
            ArchiveGateStep.self,
            GitHubReleaseStep.self,
            HTTPUploadStep.self,
            VersionsGateStep.self,
            GitGateStep.self,
            AssetsGateStep.self,
            CommandGateStep.self,
            IPAGateStep.self,
            ITMSPackageStep.self,
            ChecksumStep.self,
            SigningKeychainStep.self,
            SigningProfileStep.self,
            XcodeArchiveStep.self,
            XcodeExportStep.self,
            AppStoreValidateStep.self,
        ]
    }
}

/// The step kinds a pipeline may use: an explicit list, so what exists is visible in one place.
public struct StepRegistry: Sendable {
    public let kinds: [StepKind]
    private let index: [String: StepKind]

    /// Registers `types`. A kind registered twice is a programming error, reported by ``duplicates``.
    public init(_ types: [any Step.Type]) {
        var kinds: [StepKind] = []
        var index: [String: StepKind] = [:]
        for type in types {
            let kind = StepKind(type)
            if index[kind.kind] == nil { kinds.append(kind) }
            index[kind.kind] = index[kind.kind] ?? kind
        }
        self.kinds = kinds
        self.index = index
        self.duplicates = Dictionary(grouping: types.map { $0.kind }, by: { $0 }).filter { $1.count > 1 }.keys.sorted()
    }

    /// Kinds registered more than once (must be empty; a test checks it).
    public let duplicates: [String]

    public subscript(kind: String) -> StepKind? { index[kind] }

    public var names: [String] { kinds.map(\.kind) }

    /// Every built-in step kind.
    public static let builtIn = StepRegistry(builtInTypes)

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
        ]
    }
}

/// The step kinds a pipeline may use: an explicit list, so what exists is visible in one place.
package struct StepRegistry: Sendable {
    /// Why a registry cannot be built.
    package enum Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
        /// Two step types claim the same kind; which one a pipeline means would be a guess.
        case duplicateKind(String)
        /// An external plugin claims a kind that is already registered: `(kind, plugin executable, other source)`.
        case pluginClash(String, String, String)

        package var description: String {
            switch self {
            case .duplicateKind(let kind): return "step kind '\(kind)' is registered twice"
            case .pluginClash(let kind, let executable, let other):
                return "plugin '\(executable)' declares step kind '\(kind)', which is already \(other == "built-in" ? "a built-in step" : "the plugin '\(other)'")"
            }
        }
    }

    package let kinds: [StepKind]
    private let index: [String: StepKind]

    /// Registers `types`, in order.
    /// - Throws: ``Error/duplicateKind(_:)`` when two types have the same kind.
    package init(_ types: [any Step.Type]) throws(Error) {
        try self.init(kinds: types.map { StepKind($0) })
    }

    /// Registers `kinds`, in order (built-in kinds first, then plugins).
    /// - Throws: ``Error/pluginClash(_:_:_:)`` when a plugin kind is already registered, else
    ///   ``Error/duplicateKind(_:)``.
    package init(kinds list: [StepKind]) throws(Error) {
        var kinds: [StepKind] = []
        var index: [String: StepKind] = [:]
        for kind in list {
            if let existing = index[kind.kind] {
                if let plugin = kind.plugin { throw .pluginClash(kind.kind, plugin.executable, existing.source) }
                throw .duplicateKind(kind.kind)
            }
            kinds.append(kind)
            index[kind.kind] = kind
        }
        self.kinds = kinds
        self.index = index
    }

    package subscript(kind: String) -> StepKind? { index[kind] }

    package var names: [String] { kinds.map(\.kind) }

    /// Every built-in step kind.
    /// - Throws: ``Error/duplicateKind(_:)`` when two built-in steps share a kind: a bug (the test suite builds
    ///   this registry), reported as such rather than crashing.
    package static var builtIn: StepRegistry {
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
            SigningSyncStep.self,
            ProjectGenerateStep.self,
            XcodeArchiveStep.self,
            XcodeExportStep.self,
            AppStoreValidateStep.self,
            AppStoreUploadStep.self,
            AppStoreBuildNumberStep.self,
            TestFlightDistributeStep.self,
            AppStoreSubmitStep.self,
            AppStoreRolloutStep.self,
            NotesStep.self,
            NotifySlackStep.self,
            DsymUploadStep.self,
        ]
    }
}

/// What `release export` needs to know about a step kind to place it in a CI job, declared by the kind itself
/// (``Step/exportTraits``) rather than recognised by its name in the exporter.
///
/// The secrets a step reads and the paths it hands on are in its options already (`${secret.NAME}` references, options
/// declared with ``OptionFormat/output``); these are the facts its options cannot say.
package struct ExportTraits: Sendable, Equatable {
    /// Where a kind can run, for the header that says why a job costs macOS minutes.
    package enum Runner: Sendable, Equatable {
        /// Only on a Mac, for the reason given in a few words (`Xcode`).
        case macOS(String)
        /// Anywhere: a pipeline that puts it on a Mac chose to.
        case anywhere
        /// Not stated (a script, a service call, a plugin): the step's `when` and `runs_on` say.
        case unstated
    }

    /// Where the kind can run.
    package var runner: Runner
    /// Whether it writes the repository or its releases (a tag, a push, a release): its job needs write access to the
    /// repository's contents.
    package var writesRepository: Bool
    /// Whether it may end *waiting* on Apple once its `wait` budget runs out: a later run resumes its job.
    package var waitsOnApple: Bool
    /// The option listing the files it publishes (a release's assets: paths, or objects with a `path`): what its
    /// job attests the provenance of.
    package var publishedFiles: String?
    /// Whether it may write files it does not declare (a script): only the paths it declares it creates reach later
    /// jobs, and such a path may be a folder.
    package var writesUndeclaredFiles: Bool

    package init(
        runner: Runner = .unstated, writesRepository: Bool = false, waitsOnApple: Bool = false, publishedFiles: String? = nil,
        writesUndeclaredFiles: Bool = false
    ) {
        self.runner = runner
        self.writesRepository = writesRepository
        self.waitsOnApple = waitsOnApple
        self.publishedFiles = publishedFiles
        self.writesUndeclaredFiles = writesUndeclaredFiles
    }
}

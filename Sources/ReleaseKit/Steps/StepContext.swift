import Foundation
import ReleaseHTTP
import ReleaseSupport
import Synchronization

/// Everything a step may touch: its directory, environment, clock, processes and output.
///
/// Steps reach the world only through their context. That is what keeps dry runs honest (the engine decides
/// whether `run` is called at all) and tests fast (a test builds a context around a temporary directory and
/// records the events).
package final class StepContext: Sendable {
    /// The step's `id`.
    package let stepID: String
    /// The step's kind.
    package let kind: String
    /// The folder relative paths are resolved against: the pipeline's working directory.
    package let workingDirectory: String
    /// The environment commands inherit (the process environment; secrets included, since commands need them).
    package let environment: [String: String]
    /// Whether this is `--dry-run` (or `plan`): `run` will not be called.
    package let isDryRun: Bool
    /// Whether this context serves preflight (`verify` and `plan` before anything runs).
    package let isPreflight: Bool
    /// The run's clock, fixed once per run (`${now:…}` uses the same instant).
    package let now: Date
    /// Masks secrets in everything the step prints.
    package let masker: SecretMasker
    /// Which attempt this is, from 1 (retries increase it).
    package let attempt: Int
    /// A scratch folder that lives as long as the run.
    package let temporaryDirectory: String
    /// Where each remote service is reached: the real endpoints, or local stand-ins (`--rehearse`).
    package let endpoints: ServiceEndpoints
    /// Undo actions for what steps change on the machine; the engine runs them at the end of the run.
    package let teardowns: Teardowns
    /// Absolute paths upstream steps promise to create, with the promising step's id.
    package let promisedPaths: [String: String]
    /// Absolute paths the pipeline's project generation (`project.generate`) writes in this run: files a step reading
    /// the project before then does not warn about (CocoaPods' `Pods/`).
    package let generatedPaths: [String]
    /// How the steps it follows went, for a ``RunReportingStep`` when it runs; nil otherwise.
    package let run: RunStatus?
    /// What is at a path (kind, size, listing, contents): the one way steps look at files.
    package let files = LocalFiles()
    /// The values of secrets a dry run filled with placeholders (``RunOptions/placeholderSecrets``): a step that would
    /// send one to a remote service to read something (a dry run's real reads) can say it was not asked instead.
    package let placeholderValues: Set<String>
    private let sink: @Sendable (StepEvent) -> Void

    package init(
        stepID: String,
        kind: String,
        workingDirectory: String,
        environment: [String: String],
        isDryRun: Bool = false,
        isPreflight: Bool = false,
        now: Date = Date(),
        masker: SecretMasker = SecretMasker(),
        attempt: Int = 1,
        temporaryDirectory: String = NSTemporaryDirectory(),
        endpoints: ServiceEndpoints = .live,
        teardowns: Teardowns = Teardowns(),
        promisedPaths: [String: String] = [:],
        generatedPaths: [String] = [],
        run: RunStatus? = nil,
        placeholderValues: Set<String> = [],
        sink: @escaping @Sendable (StepEvent) -> Void = { _ in }
    ) {
        self.stepID = stepID
        self.kind = kind
        self.workingDirectory = workingDirectory
        self.environment = environment
        self.isDryRun = isDryRun
        self.isPreflight = isPreflight
        self.now = now
        self.masker = masker
        self.attempt = attempt
        self.temporaryDirectory = temporaryDirectory
        self.endpoints = endpoints
        self.teardowns = teardowns
        self.promisedPaths = promisedPaths
        self.generatedPaths = generatedPaths
        self.run = run
        self.placeholderValues = placeholderValues
        self.sink = sink
    }

    // MARK: Output

    /// Prints a line of the step's output (masked).
    package func log(_ line: String, stream: OutputStreamKind = .stdout) {
        sink(.log(masker.mask(line), stream))
    }

    /// Prints a warning (masked).
    package func warn(_ message: String) {
        sink(.warning(masker.mask(message)))
    }

    /// Reports progress of a long operation, in bytes unless `unit` says otherwise.
    package func progress(done: Int64, total: Int64?, unit: ProgressUnit = .bytes) {
        sink(.progress(done: done, total: total, unit: unit))
    }

    // MARK: Files

    /// `path` made absolute against the working directory, with `~` expanded.
    package func resolvePath(_ path: String) -> String {
        let expanded = (path as NSString).expandingTildeInPath
        return FilePath.absolute(expanded, in: workingDirectory)
    }

    /// Whether `path` exists, is promised by an upstream step (it, or a folder containing it), or is missing.
    package func fileState(_ path: String) -> FileState {
        let absolute = resolvePath(path)
        if files.exists(absolute) { return .exists }
        var candidate = absolute
        while candidate != "/" && !candidate.isEmpty {
            if let step = promisedPaths[candidate] { return .promised(by: step) }
            candidate = FilePath.parent(of: candidate)
        }
        return .missing
    }

    /// The absolute path of `path`, which must exist or be promised by an upstream step.
    /// - Throws: ``StepError/missingFile(path:option:)`` naming the option.
    @discardableResult
    package func requireFile(_ path: String, option: String? = nil) throws -> String {
        if case .missing = fileState(path) {
            throw StepError.missingFile(path: resolvePath(path), option: option)
        }
        return resolvePath(path)
    }

    /// An ``Artifact`` (size and SHA-256) for a file the step produced, hashed off the cooperative pool.
    /// - Throws: ``StepError/missingFile(path:option:)`` when the file is not there.
    package func artifact(_ path: String) async throws -> Artifact {
        let absolute = resolvePath(path)
        do {
            return try await FileDigest.artifact(at: absolute)
        } catch FileDigest.Failure.missing {
            throw StepError.missingFile(path: absolute, option: nil)
        } catch let failure as FileDigest.Failure {
            throw StepError.failed(failure.description)
        }
    }

    // MARK: Remote services

    /// The base URL of an API service (`github`, `appstore`): a rehearsal's stand-in, else `configured`.
    /// - Throws: ``StepError/unavailable(_:)`` in a rehearsal without a stand-in for `service` (the step is skipped).
    package func baseURL(_ service: Service, configured: String) throws -> String {
        try endpoints.baseURL(service, configured: configured)
    }

    /// The URL to call for a generic service (`http`, `slack`): `url`, or a rehearsal's stand-in for it.
    /// - Throws: ``StepError/unavailable(_:)`` in a rehearsal without a stand-in for `service` (the step is skipped).
    package func url(_ service: Service, for url: String) throws -> String {
        try endpoints.url(service, for: url)
    }

    /// An HTTP client for talking to `service`: the run's environment (CA bundle, proxies), retries logged in
    /// the step's output, and in a rehearsal, no host but the loopback. Steps never build their own, so a
    /// rehearsal reaches every request.
    package func httpClient(for service: Service, _ configure: (inout HTTPClient.Configuration) -> Void = { _ in }) -> HTTPClient {
        var configuration = HTTPClient.Configuration(environment: environment) { [self] line in log(line) }
        configure(&configuration)
        // Checking before anything runs: a host that does not resolve is reported at once, not after 5 tries.
        if isDryRun || isPreflight { configuration.retriesNameResolution = false }
        if endpoints.isolated { configuration.allowedHosts = ServiceEndpoints.loopbackHosts }
        return HTTPClient(configuration: configuration)
    }

    // MARK: Machine changes

    /// Registers an undo for something this step changed on the machine. It runs at the end of the run,
    /// whatever its outcome (also after a failure or Ctrl-C), newest first, and is reported as it runs.
    /// - Parameter description: what it undoes, for the log: `delete keychain '/…/release-1234.keychain-db'`.
    package func addTeardown(_ description: String, _ action: @escaping @Sendable () async throws -> Void) {
        teardowns.add(step: stepID, masker.mask(description), action)
    }

    // MARK: Processes

    /// Runs a command in the working directory (or `directory`), streaming its output lines into the
    /// step's log, and returns how it ended. The command line is logged first with secrets masked.
    /// Task cancellation (timeout, Ctrl-C) stops the command's whole process group. `onLine` also receives
    /// every output line, masked (standard error included, which the result does not keep), for steps that
    /// judge a command by its output (`gate.command`). `input` is written to its standard input (else /dev/null).
    /// `onRawLine` receives the lines unmasked, for a step that parses them as documents (a plugin's JSON lines,
    /// which masking inside their syntax would break) and masks what it shows of them itself.
    package func run(
        _ arguments: [String],
        directory: String? = nil,
        environment extra: [String: String] = [:],
        echo: Bool = true,
        input: [UInt8]? = nil,
        onLine: (@Sendable (String, OutputStreamKind) -> Void)? = nil,
        onRawLine: (@Sendable (String, OutputStreamKind) -> Void)? = nil
    ) async throws -> ProcessResult {
        let request = ProcessRequest(
            arguments: arguments,
            directory: directory.map(resolvePath) ?? workingDirectory,
            environment: environment.merging(extra) { _, new in new },
            input: input
        )
        if echo { sink(.command(masker.commandLine(arguments))) }
        let masker = self.masker
        let sink = self.sink
        return try await ProcessRunner.run(request, masker: masker) { line, stream in
            onRawLine?(line, stream)
            guard echo || onLine != nil else { return }
            let masked = masker.mask(line)
            if echo { sink(.log(masked, stream)) }
            onLine?(masked, stream)
        }
    }

    /// Logs a command line as `run` does (secrets masked), for a step that runs it with `echo: false` and shows its
    /// output its own way (`xcode.archive` condenses xcodebuild's).
    package func logCommand(_ arguments: [String]) {
        sink(.command(masker.commandLine(arguments)))
    }

    /// Runs a read-only command quietly and returns its standard output without the trailing newline.
    /// - Throws: ``StepError/failed(_:)`` with the command and its status when it fails.
    package func capture(_ arguments: [String], directory: String? = nil, environment extra: [String: String] = [:]) async throws -> String {
        let errors = ErrorLines()
        let request = ProcessRequest(
            arguments: arguments,
            directory: directory.map(resolvePath) ?? workingDirectory,
            environment: environment.merging(extra) { _, new in new }
        )
        let result = try await ProcessRunner.run(request, masker: masker) { line, stream in
            if stream == .stderr { errors.append(line) }
        }
        guard result.succeeded else {
            let detail = errors.text.isEmpty ? "" : ": \(errors.text)"
            throw StepError.failed("'\(masker.commandLine(arguments))' exited with status \(result.status)\(masker.mask(detail))")
        }
        var output = result.standardOutput
        while output.hasSuffix("\n") { output.removeLast() }
        return output
    }
}

/// Collects the last few standard-error lines of a quiet command, for its error message.
private final class ErrorLines: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) {
        lines.withLock { current in
            current.append(line)
            if current.count > 20 { current.removeFirst() }
        }
    }
    var text: String { lines.withLock { $0.suffix(5).joined(separator: " ") } }
}

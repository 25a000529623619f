import Foundation
import ReleaseArtifacts
import ReleaseSupport

/// `dsym.upload`: sends dSYMs to a crash reporter with its own uploader, and lists the UUIDs it sent.
///
/// `provider: sentry` runs `sentry-cli debug-files upload --org ORG --project PROJECT PATH` with the auth token in
/// its environment (`SENTRY_AUTH_TOKEN`, never on a command line other users can read); `provider: crashlytics` runs
/// Firebase's `upload-symbols -gsp GoogleService-Info.plist -p ios PATH`. The UUIDs are read from the dSYMs
/// themselves (a bundle, a folder of them, a zip of them or an archive) before anything is sent, so an empty
/// folder fails instead of uploading nothing. The uploaders talk to their services directly: a rehearsal, which
/// has no stand-in for them, skips the step.
package struct DsymUploadStep: Step {
    /// The crash reporter.
    package enum Provider: String, OptionChoice, Equatable {
        case sentry
        case crashlytics
    }

    /// The step's `with` object.
    package struct Options: StepOptions {
        @StepOption(help: "'sentry' (sentry-cli debug-files upload) or 'crashlytics' (Firebase's upload-symbols)")
        package var provider: Provider
        @StepOption(.path, must: .notBeEmpty, help: "the dSYMs: a .dSYM bundle, a folder of them, a zip of them (dsym.package's output) or an .xcarchive (its dSYMs/)")
        package var path: String
        @StepOption(.path, help: "the uploader (default: sentry-cli, or upload-symbols, found on PATH)")
        package var tool: String?
        @StepOption(help: "provider 'sentry': the organization slug")
        package var org: String?
        @StepOption(help: "provider 'sentry': the project slug")
        package var project: String?
        @StepOption(
            help:
                "provider 'sentry': an auth token with project:write, normally ${secrets.SENTRY_AUTH_TOKEN}, given to sentry-cli as SENTRY_AUTH_TOKEN (default: sentry-cli's own configuration)"
        )
        package var authToken: String?
        @StepOption(help: "provider 'sentry': a self-hosted Sentry's URL, given as SENTRY_URL")
        package var url: String?
        @StepOption(help: "provider 'sentry': also upload the sources the dSYMs refer to (--include-sources)")
        package var includeSources: Bool = false
        @StepOption(help: "provider 'sentry': wait until Sentry has processed the files, failing if it rejects them (--wait)")
        package var wait: Bool = false
        @StepOption(.path, help: "provider 'crashlytics': the app's GoogleService-Info.plist (-gsp)")
        package var googleServicePlist: String?
        @StepOption(help: "provider 'crashlytics': the platform (-p): \(ApplePlatform.CrashlyticsSpelling.wordList)")
        package var platform: String = "ios"

        package init() {}
    }

    package static let kind = "dsym.upload"
    package static let summary = "Upload dSYMs to Sentry (sentry-cli) or Crashlytics (upload-symbols) and list the UUIDs sent"
    package static let outputs: [StepDocumentation.Output] = [
        .init("uuids", "list", "the UUIDs of every dSYM slice sent, upper-case, in file order"),
        .init("path", "path", "what was given to the uploader"),
    ]
    package static let example = """
        {"id": "sentry", "uses": "dsym.upload", "needs": ["dsyms"],
         "with": {"provider": "sentry", "path": "${steps.dsyms.outputs.path}", "org": "example", "project": "ios-app",
                  "auth_token": "${secrets.SENTRY_AUTH_TOKEN}"}}
        """

    package let options: Options

    package init(options: Options) throws {
        try options.validate()
        switch options.provider {
        case .sentry:
            for (name, value) in [("org", options.org), ("project", options.project)] where (value ?? "").isEmpty {
                throw StepError.invalidOption(name, "provider 'sentry' needs '\(name)'")
            }
            if options.googleServicePlist != nil {
                throw StepError.invalidOption("google_service_plist", "only for provider 'crashlytics'")
            }
        case .crashlytics:
            guard options.googleServicePlist?.isEmpty == false else {
                throw StepError.invalidOption("google_service_plist", "provider 'crashlytics' needs the app's GoogleService-Info.plist")
            }
            let sentryOnly = [
                ("org", options.org != nil), ("project", options.project != nil), ("auth_token", options.authToken != nil),
                ("url", options.url != nil), ("include_sources", options.includeSources), ("wait", options.wait),
            ]
            if let (name, _) = sentryOnly.first(where: { $0.1 }) {
                throw StepError.invalidOption(name, "only for provider 'sentry'")
            }
            // Only crashlytics reads `platform`, so the option stays a string (any word passes with sentry) and is
            // checked here against Crashlytics' words.
            guard ApplePlatform(crashlytics: options.platform) != nil else {
                let words = ApplePlatform.CrashlyticsSpelling.words.joined(separator: ", ")
                throw StepError.invalidOption("platform", "'\(options.platform)' is not one of \(words)")
            }
        }
        self.options = options
    }

    // MARK: Step

    package func verify(in context: StepContext) async throws {
        if let token = options.authToken { context.masker.add(token) }
        try context.requireFile(options.path, option: "path")
        if let plist = options.googleServicePlist { try context.requireFile(plist, option: "google_service_plist") }
        _ = try tool(in: context)
    }

    package func plan(in context: StepContext) async throws -> StepPlan {
        if let token = options.authToken { context.masker.add(token) }
        let target = uploadPath(in: context)
        var effects: [PlannedEffect] = [.command(argv: command(tool: try tool(in: context), path: target, in: context), directory: nil)]
        if context.files.exists(target), let uuids = try? await uuids(at: target) {
            effects.append(.note("would send \(uuids.count) dSYM UUID\(uuids.count == 1 ? "" : "s"): \(uuids.map(\.uuid).joined(separator: ", "))"))
        }
        return StepPlan(effects: effects, outputs: StepOutputs(["path": .path(target)]))
    }

    package func run(in context: StepContext) async throws -> StepOutputs {
        if let token = options.authToken { context.masker.add(token) }
        if context.endpoints.isolated {
            throw StepError.unavailable("\(toolName) talks to \(options.provider == .sentry ? "Sentry" : "Crashlytics") directly and has no local stand-in")
        }
        try context.requireFile(options.path, option: "path")
        let target = uploadPath(in: context)
        let found = try await uuids(at: target)
        guard !found.isEmpty else { throw StepError.failed("no dSYMs in '\(target)'") }
        for entry in found { context.log("\(entry.uuid) (\(entry.arch)) \(entry.binary)") }
        var environment: [String: String] = [:]
        if let token = options.authToken { environment["SENTRY_AUTH_TOKEN"] = token }
        if let url = options.url { environment["SENTRY_URL"] = url }
        let argv = command(tool: try tool(in: context), path: target, in: context)
        let result = try await context.run(argv, environment: environment)
        guard result.succeeded else {
            throw StepError.exitStatus(result.status, command: context.masker.commandLine(argv))
        }
        context.log("sent \(found.count) dSYM UUID\(found.count == 1 ? "" : "s") to \(options.provider == .sentry ? "Sentry" : "Crashlytics")")
        return StepOutputs(["uuids": .list(found.map { .string($0.uuid) }), "path": .path(target)])
    }

    // MARK: Helpers

    private var toolName: String { options.provider == .sentry ? "sentry-cli" : "upload-symbols" }

    /// The uploader's argv for `path`.
    func command(tool: String, path: String, in context: StepContext) -> [String] {
        switch options.provider {
        case .sentry:
            return [tool, "debug-files", "upload", "--org", options.org ?? "", "--project", options.project ?? ""]
                + (options.includeSources ? ["--include-sources"] : []) + (options.wait ? ["--wait"] : []) + [path]
        case .crashlytics:
            return [tool, "-gsp", context.resolvePath(options.googleServicePlist ?? ""), "-p", options.platform, path]
        }
    }

    /// What the uploader is given: the path, absolute; for an archive, its `dSYMs/` folder (not its app binaries).
    func uploadPath(in context: StepContext) -> String {
        let path = context.resolvePath(options.path)
        return path.hasSuffix(".xcarchive") ? path + "/dSYMs" : path
    }

    /// The uploader: `tool`, else `sentry-cli` or `upload-symbols` on PATH.
    /// - Throws: ``StepError`` saying where to get it when it cannot be found.
    func tool(in context: StepContext) throws -> String {
        if let tool = options.tool {
            guard let found = ProcessRunner.resolveExecutable(context.resolvePath(tool), directory: context.workingDirectory, environment: context.environment) else {
                throw StepError.invalidOption("tool", "'\(context.resolvePath(tool))' is not an executable file")
            }
            return found
        }
        if let found = ProcessRunner.resolveExecutable(toolName, directory: context.workingDirectory, environment: context.environment) {
            return found
        }
        switch options.provider {
        case .sentry:
            throw StepError.failed("command not found: 'sentry-cli' (install it: https://docs.sentry.io/cli/installation/, or give its path in 'tool')")
        case .crashlytics:
            throw StepError.failed(
                "command not found: 'upload-symbols' (it comes with FirebaseCrashlytics, as Pods/FirebaseCrashlytics/upload-symbols or in the Swift package's checkout: give its path in 'tool')"
            )
        }
    }

    /// Every dSYM slice at `path`, read with the same reader as `dsym.package` and `release dsym`.
    func uuids(at path: String) async throws -> [DsymManifest.Entry] {
        let inspection: DsymInspection
        do {
            inspection = try await DsymInspector.inspect(path)
        } catch {
            throw StepError.failed("cannot read the dSYMs in '\(path)': \(error)")
        }
        return DsymManifest(describing: inspection.dsyms).dsyms
    }
}

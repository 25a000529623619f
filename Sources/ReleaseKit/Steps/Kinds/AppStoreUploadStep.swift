import Foundation
import ReleaseAppStoreConnect
import ReleaseArtifacts
import ReleaseSupport
import ReleaseVersioning

/// `appstore.upload`: uploads the `.ipa` to App Store Connect through the Build Upload API, from any OS, over libcurl.
///
/// Bundle id, version, build and platform are read from the `.ipa`'s Info.plist. Running it again converges: an
/// upload of the same file that Apple already has sends 0 bytes; one interrupted before its commit is reused, and
/// only the parts not yet sent are sent (``UploadPartRecord``). A
/// build number App Store Connect already has for another file is an error naming the next free number. See
/// ``AppStoreConnectUploader``. The API key signs a short-lived token that goes only to the API host; the upload URLs
/// get exactly the headers Apple lists and no token.
package struct AppStoreUploadStep: Step {
    package struct Options: StepOptions {
        @StepOption(.path, must: .notBeEmpty, help: "the .ipa to upload, e.g. ${steps.export.outputs.path}")
        package var ipa: String
        @StepOptionGroup
        package var appStoreConnect: AppStoreConnectOptions
        @StepOption(
            help:
                "how far to follow the upload: none (return after the commit), uploaded (Apple has the build), processed (the build is VALID), each within the default budget (5m in CI, until done elsewhere); or a budget for processing: a duration (30s, 5m, 2h, 1d) or until-done. A budget that runs out ends the step waiting, not failed: the run exits 0 and running it again continues"
        )
        package var wait: WaitBudget = .state("uploaded")
        @StepOption(
            .path,
            help:
                "AppStoreInfo.plist to attach as the upload's asset description, e.g. ${steps.export.outputs.app_store_info} (default: AppStoreInfo.plist beside the .ipa when there is one)"
        )
        package var appStoreInfo: String?
        @StepOption(help: "the app's bundle id: lets preflight find the app before the .ipa exists; must match the .ipa's")
        package var bundleID: String?
        @StepOption(range: 1...16, help: "parts sent at once")
        package var concurrency: Int = 4
        @StepOptionGroup
        package var waiting: AppStoreConnectPollingOptions
        @StepOption(
            help:
                "when App Store Connect already has this version and build from another file: fail (naming the next free build number), or keep its build and send nothing (for a re-run of a release whose bump kept the build number)"
        )
        package var existing: AppStoreConnectUploader.Existing = .fail

        package init() {}
    }

    package static let kind = "appstore.upload"
    package static let exportTraits = ExportTraits(waitsOnApple: true)
    package static let summary = "Upload the .ipa to App Store Connect through the Build Upload API (any OS; resumable; a re-run sends nothing) and optionally wait for processing"
    package static let outputs: [StepDocumentation.Output] = [
        .init("upload_id", "string", "the buildUploads resource's id"),
        .init("build_id", "string", "the builds resource's id, once App Store Connect has it (empty with wait: none)"),
        .init("bundle_id", "string", "CFBundleIdentifier of the .ipa"),
        .init("version", "string", "CFBundleShortVersionString of the .ipa"),
        .init("build", "string", "CFBundleVersion of the .ipa"),
        .init("state", "string", "the upload's last state seen: AWAITING_UPLOAD (committed, wait: none), COMPLETE"),
        .init("bytes_sent", "number", "bytes of the .ipa sent by this run (0 when App Store Connect had it already)"),
    ]
    package static let example = """
        {"id": "upload", "uses": "appstore.upload", "needs": ["export"],
         "with": {"ipa": "${steps.export.outputs.path}", "wait": "processed",
                  \(AppStoreConnectOptions.example)}}
        """

    package let options: Options
    let access: AppStoreConnectAccess

    package init(options: Options) throws {
        try options.validate()
        try options.wait.check(states: AppStoreConnectUploader.Wait.allCases.map(\.rawValue))
        access = AppStoreConnectAccess(options.appStoreConnect)
        self.options = options
    }

    /// The state the upload is followed to: the one `wait` names, else (a budget) the last, processed.
    var waitedState: AppStoreConnectUploader.Wait {
        options.wait.namedState.flatMap(AppStoreConnectUploader.Wait.init(rawValue:)) ?? .processed
    }

    /// What the .ipa says it is.
    struct Identity: Sendable {
        var bundleID: String
        var version: String
        var build: String
        var platform: ApplePlatform
    }

    /// Reads the identity from the .ipa's Info.plist.
    func identity(ofIPA path: String) async throws -> Identity {
        let contents: IPAContents
        do {
            contents = try await BlockingWork.run { _ in try IPAContents.read(path) }
        } catch {
            throw StepError.failed("'\(path)' is not a readable ipa: \(error)")
        }
        var missing: [String] = []
        func value(_ key: String) -> String {
            if let text = contents.string(key) { return text }
            missing.append(key)
            return ""
        }
        let identity = Identity(
            bundleID: value("CFBundleIdentifier"), version: value("CFBundleShortVersionString"),
            build: value("CFBundleVersion"), platform: contents.platform)
        guard contents.infoPlist != nil else { throw StepError.failed("'\(path)' has no Payload/*.app/Info.plist") }
        guard missing.isEmpty else {
            throw StepError.failed("'\(path)': the app's Info.plist has no \(missing.map { "'\($0)'" }.joined(separator: ", "))")
        }
        for (key, value) in [("CFBundleShortVersionString", identity.version), ("CFBundleVersion", identity.build)]
        where !BuildNumberStrategy.isAppStoreBundleVersion(value) {
            throw StepError.failed(
                "the .ipa's \(key) '\(Echo.text(value))' is not one App Store Connect accepts: "
                    + "one to four period-separated integers, such as 4321, 1.4.2 or 7.75.0.3")
        }
        if let expected = options.bundleID, expected != identity.bundleID {
            throw StepError.invalidOption("bundle_id", "'\(expected)' but the .ipa's CFBundleIdentifier is '\(identity.bundleID)'")
        }
        return identity
    }

    /// The key parses; the .ipa exists or an earlier step promises it; when the bundle id is known (from the .ipa or
    /// `bundle_id`), App Store Connect is asked whether it has the app, so a missing app fails before the build.
    package func verify(in context: StepContext) async throws {
        let client = try access.client(in: context)
        try context.requireFile(options.ipa, option: "ipa")
        var bundleID = options.bundleID
        if case .exists = context.fileState(options.ipa) {
            bundleID = try await identity(ofIPA: context.resolvePath(options.ipa)).bundleID
        }
        guard let bundleID else { return }
        do {
            let app = try await AppStoreConnectCatalog(client: client).app(bundleID: bundleID)
            context.log("App Store Connect has \(bundleID) (app \(app.id)\(app.attributes?.name.map { ", '\($0)'" } ?? ""))")
        } catch {
            throw AppStoreConnectAccess.stepError(error)
        }
    }

    package func plan(in context: StepContext) async throws -> StepPlan {
        let api = try access.apiURL(in: context)
        var what = "the .ipa"
        var outputs = StepOutputs(["upload_id": .string(""), "build_id": .string(""), "state": .string(""), "bytes_sent": .number(0)])
        if case .exists = context.fileState(options.ipa) {
            let path = context.resolvePath(options.ipa)
            let identity = try await identity(ofIPA: path)
            let size = context.files.size(path).map { " (\(ByteFormat.size($0)))" } ?? ""
            what = "\(identity.bundleID) \(identity.version) (\(identity.build)) for \(identity.platform.appStoreConnect)\(size)"
            outputs["bundle_id"] = .string(identity.bundleID)
            outputs["version"] = .string(identity.version)
            outputs["build"] = .string(identity.build)
        }
        let state = waitedState
        var effects: [PlannedEffect] = [
            .request(method: "GET", url: api + "/v1/apps?filter[bundleId]=…", detail: "find the app"),
            .request(method: "GET", url: api + "/v1/apps/{id}/buildUploads?filter[cfBundleVersion]=…", detail: "look for an earlier upload of \(what)"),
            .request(method: "POST", url: api + "/v1/buildUploads", detail: "create the upload of \(what) unless App Store Connect has it"),
            .request(method: "POST", url: api + "/v1/buildUploadFiles", detail: "reserve '\(context.resolvePath(options.ipa))' and get its upload operations"),
            .note("send the file's parts to the upload operations' URLs, \(options.concurrency) at a time, with Apple's headers and no token"),
            .request(method: "PATCH", url: api + "/v1/buildUploadFiles/{id}", detail: "commit with the file's SHA-256"),
        ]
        if let info = options.appStoreInfo, !info.isEmpty {
            effects.insert(
                .request(
                    method: "POST", url: api + "/v1/buildUploadFiles",
                    detail: "attach '\(context.resolvePath(info))' as the asset description (ASSET_DESCRIPTION) before the commit"), at: 4)
        }
        switch state {
        case .none: break
        case .uploaded: effects.append(.request(method: "GET", url: api + "/v1/buildUploads/{id}", detail: "wait until the upload is COMPLETE"))
        case .processed:
            effects.append(.request(method: "GET", url: api + "/v1/buildUploads/{id}", detail: "wait until the upload is COMPLETE"))
            effects.append(.request(method: "GET", url: api + "/v1/builds/{id}", detail: "wait until the build is VALID"))
        }
        if state != .none { effects.append(.note("wait \(options.wait.describe(in: context.environment))")) }
        return StepPlan(effects: effects, outputs: outputs)
    }

    /// The AppStoreInfo.plist to attach: `app_store_info` (which must exist when given and not empty), else the one
    /// beside the .ipa. Without one, and without Xcode on this machine, a warning: Apple documents the file as
    /// required by its upload tools off macOS, so App Store Connect may not process the build.
    func assetDescription(ipa: String, in context: StepContext) throws -> String? {
        if let given = options.appStoreInfo, !given.isEmpty { return try context.requireFile(given, option: "app_store_info") }
        let beside = ((ipa as NSString).deletingLastPathComponent as NSString).appendingPathComponent("AppStoreInfo.plist")
        if context.files.exists(beside) { return beside }
        if ProcessRunner.resolveExecutable("xcodebuild", directory: context.workingDirectory, environment: context.environment) == nil {
            context.warn(
                "uploading without AppStoreInfo.plist from a machine without Xcode: Apple's upload tools need it off macOS, "
                    + "and App Store Connect may not process the build (export with xcode.export's method app-store-connect, which makes it, "
                    + "and pass app_store_info: ${steps.export.outputs.app_store_info})")
        }
        return nil
    }

    package func run(in context: StepContext) async throws -> StepOutputs {
        let session = try access.session(in: context)
        let path = try context.requireFile(options.ipa, option: "ipa")
        let identity = try await identity(ofIPA: path)
        let description = try assetDescription(ipa: path, in: context)
        let throttle = ProgressThrottle(context: context)
        let uploader = AppStoreConnectUploader(session: session, progress: { throttle.report(done: $0, total: $1) })
        var request = AppStoreConnectUploader.Request(
            ipa: path, bundleID: identity.bundleID, version: identity.version, build: identity.build, platform: identity.platform,
            concurrency: options.concurrency, wait: waitedState, pollInterval: options.waiting.polling.interval,
            waitTimeout: options.waiting.polling.timeout, existing: options.existing, assetDescription: description)
        request.waitBudget = options.wait.seconds(in: context.environment)
        let result: AppStoreConnectUploader.Result
        do {
            result = try await uploader.upload(request)
        } catch {
            throw AppStoreConnectAccess.stepError(error)
        }
        context.log(
            result.bytesSent == 0
                ? "sent 0 bytes: App Store Connect already had \(identity.version) (\(identity.build))"
                : "sent \(ByteFormat.size(result.bytesSent)) of '\((path as NSString).lastPathComponent)'")
        return StepOutputs([
            "upload_id": .string(result.uploadID), "build_id": .string(result.buildID ?? ""),
            "bundle_id": .string(identity.bundleID), "version": .string(identity.version), "build": .string(identity.build),
            "state": .string(result.state), "bytes_sent": .number(Double(result.bytesSent)),
        ])
    }
}

extension AppStoreConnectUploader.Wait: OptionChoice {}
extension AppStoreConnectUploader.Existing: OptionChoice {}

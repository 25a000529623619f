import Foundation
import ReleaseSupport

/// What went wrong talking to App Store Connect, with Apple's own words.
package enum AppStoreConnectError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The API answered with a JSON:API `ErrorResponse`: one line per entry of `errors[]`.
    case api(method: String, path: String, status: Int, errors: [Entry])
    /// 401: the key, issuer or token was not accepted.
    case unauthorized(errors: [Entry])
    /// The answer could not be read as what the operation returns.
    case invalidResponse(path: String, reason: String)
    /// The team has no app with this bundle id.
    case noApp(bundleID: String)
    /// App Store Connect already has this build number for the version (409 on creating the upload).
    case buildTaken(version: String, build: String, next: String)
    /// Processing ended in `FAILED` (or `INVALID` for a build), with Apple's codes and descriptions.
    case processingFailed(what: String, state: String, errors: [StateDetail])
    /// The upload operations cannot be followed (a URL missing, a range outside the file).
    case badUploadOperation(String)
    /// A beta group name the app does not have.
    case noBetaGroup(name: String, available: [String])
    /// No build with this version and build number appeared in time.
    case noBuild(version: String, build: String)
    /// Waiting for a state took longer than allowed.
    case timedOut(what: String, seconds: Double, lastState: String)
    /// The wait budget ran out while App Store Connect was still at it (not a failure: the step ends *waiting*, and
    /// running it again continues from App Store Connect's state).
    case stillWaiting(what: String, seconds: Double, lastState: String)
    /// The build number exists, but in other marketing versions than the one asked for.
    case buildOfOtherVersion(build: String, version: String, actual: [String])
    /// The App Store version is in a state in which it can no longer be changed or submitted.
    case versionNotEditable(version: String, state: String)
    /// App Review left a submission with unresolved issues (a rejection), naming what it rejected.
    case unresolvedIssues(submissionID: String, rejected: [String])
    /// Another review submission of the app on this platform is in progress and does not hold this version.
    case submissionInProgress(submissionID: String, state: String, items: [String])
    /// The app has no App Store version with this version string.
    case noVersion(version: String, platform: ApplePlatform, existing: [String])
    /// A rollout action that the version's state does not allow.
    case rolloutRefused(action: String, version: String, reason: String)
    /// A value a request would carry that Apple's contract does not allow there (a platform or certificate type
    /// outside its enumeration): refused before anything is sent.
    case notInContract(what: String, value: String, allowed: [String])

    /// One entry of `errors[]` (Apple's `ErrorResponse.errors.items`: status, code, title, detail and a source
    /// pointer or parameter).
    package struct Entry: Sendable, Equatable, Decodable {
        package var status: String
        package var code: String
        package var title: String
        package var detail: String
        package var source: Source?

        /// Where in the request the problem is.
        package struct Source: Sendable, Equatable, Decodable {
            package var pointer: String?
            package var parameter: String?
        }

        package init(status: String, code: String, title: String, detail: String, source: Source? = nil) {
            self.status = status
            self.code = code
            self.title = title
            self.detail = detail
            self.source = source
        }

        /// `409 ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE: The provided entity … (detail) at /data/attributes/cfBundleVersion`
        package var line: String {
            var text = "\(status) \(code): \(title)"
            if !detail.isEmpty && detail != title { text += " (\(detail))" }
            if let pointer = source?.pointer { text += " at \(pointer)" } else if let parameter = source?.parameter { text += " (parameter \(parameter))" }
            return Echo.text(text, limit: 1000)
        }
    }

    /// The `errors[]` of an error body, or nil when it is not a JSON:API error document.
    package static func entries(in body: Data) -> [Entry]? {
        struct Document: Decodable { var errors: [Entry] }
        return try? JSONDecoder().decode(Document.self, from: body).errors
    }

    package var description: String {
        switch self {
        case .api(let method, let path, let status, let errors):
            let lines = errors.map(\.line)
            let head = "App Store Connect answered \(method) \(path) with HTTP \(status)"
            return lines.isEmpty ? head : head + ":\n" + lines.map { "  " + $0 }.joined(separator: "\n")
        case .unauthorized(let errors):
            let reasons = errors.map(\.line).joined(separator: "; ")
            return "App Store Connect did not accept the API key (check key_id, issuer_id and key; the key must not be revoked)"
                + (reasons.isEmpty ? "" : ": " + reasons)
        case .invalidResponse(let path, let reason):
            return "App Store Connect sent an answer to \(path) that cannot be read: \(reason)"
        case .noApp(let bundleID):
            return "App Store Connect has no app with bundle id '\(Echo.text(bundleID))' for this key's team (create the app on App Store Connect's Apps page first)"
        case .buildTaken(let version, let build, let next):
            return
                "build \(build) of version \(version) is already in App Store Connect; the next free build number is \(next) (run 'release bump --build appstore' or set CURRENT_PROJECT_VERSION to \(next))"
        case .processingFailed(let what, let state, let errors):
            let head = "\(what) ended \(state) in App Store Connect"
            return errors.isEmpty ? head : head + ":\n" + errors.map { "  " + Echo.text($0.line, limit: 2000) }.joined(separator: "\n")
        case .badUploadOperation(let reason):
            return "App Store Connect's upload operations cannot be followed: \(reason)"
        case .noBetaGroup(let name, let available):
            return "the app has no beta group named '\(Echo.text(name))'"
                + (available.isEmpty ? " (it has no beta groups)" : "; it has: " + available.map { "'\(Echo.text($0))'" }.joined(separator: ", "))
        case .noBuild(let version, let build):
            return "App Store Connect has no build \(build) of version \(version) (upload it first with appstore.upload)"
        case .timedOut(let what, let seconds, let lastState):
            return "\(what) was still \(lastState) after \(DurationFormat.string(seconds: seconds))"
        case .stillWaiting(let what, let seconds, let lastState):
            return "\(what): still \(lastState) after \(DurationFormat.string(seconds: seconds)), the step's wait budget"
        case .buildOfOtherVersion(let build, let version, let actual):
            return "build \(build) is not a build of version \(version) in App Store Connect: it belongs to "
                + actual.map { "'\(Echo.text($0))'" }.joined(separator: ", ")
                + " (set 'version' to the build's CFBundleShortVersionString, or upload a build of \(version))"
        case .versionNotEditable(let version, let state):
            return "App Store version \(version) is \(state) and can no longer be changed or submitted"
                + " (create the next version with a higher version string, or wait until App Store Connect lets it be edited)"
        case .unresolvedIssues(let submissionID, let rejected):
            return "App Review left review submission \(submissionID) with unresolved issues (UNRESOLVED_ISSUES)"
                + (rejected.isEmpty ? "" : ": " + rejected.joined(separator: ", "))
                + "; read App Review's message in App Store Connect (App Review, Resolution Center) and fix what it asks,"
                + " then either reply there, or re-run with 'cancel_open_submission: true' to cancel that submission and submit again"
        case .submissionInProgress(let submissionID, let state, let items):
            return "another review submission of this app (\(submissionID)) is \(state)"
                + (items.isEmpty ? "" : " with " + items.joined(separator: ", "))
                + "; App Store Connect allows one at a time per platform (wait for App Review, or cancel it in App Store Connect)"
        case .noVersion(let version, let platform, let existing):
            return "the app has no App Store version \(Echo.text(version)) on \(platform.appStoreConnect)"
                + (existing.isEmpty ? " (it has none)" : "; it has " + existing.map { "'\(Echo.text($0))'" }.joined(separator: ", "))
                + " (submit it first with appstore.submit)"
        case .rolloutRefused(let action, let version, let reason):
            return "cannot \(action) App Store version \(Echo.text(version)): \(reason)"
        case .notInContract(let what, let value, let allowed):
            return "'\(Echo.text(value))' is not a value App Store Connect takes as \(what) (one of \(allowed.joined(separator: ", ")))"
        }
    }
}

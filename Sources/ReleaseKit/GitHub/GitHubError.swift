/// Everything that can go wrong talking to GitHub's Releases API or publishing a release.
///
/// Messages name URLs without credentials and never contain the token.
package enum GitHubError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 401: the token is missing, expired or wrong.
    case badCredentials(api: String, message: String)
    /// The API answered with an error status; `message` is GitHub's `message` plus any `errors[].code`.
    case api(method: String, url: String, status: Int, message: String)
    /// A response could not be decoded.
    case invalidResponse(url: String, reason: String)
    /// An option or input is wrong before anything is sent.
    case invalidInput(String)
    /// Preflight found problems; all of them are listed.
    case preflight([String])
    /// A remote asset with this name has different content and `replace` is `fail`.
    case assetConflict(name: String, detail: String)
    /// The release is immutable and an asset would have to change.
    case immutableRelease(tag: String, detail: String)
    /// An upload failed every attempt.
    case uploadFailed(name: String, attempts: Int, reason: String)
    /// After uploading, the release does not hold what was uploaded.
    case verificationFailed([String])

    package var description: String {
        switch self {
        case .badCredentials(let api, let message):
            return "GitHub rejected the token at \(api) (401 \(message)): check that it is set, not expired, and has the 'contents: write' permission"
        case .api(let method, let url, let status, let message):
            return "\(method) \(url) returned HTTP \(status)" + (message.isEmpty ? "" : ": \(message)")
        case .invalidResponse(let url, let reason):
            return "unexpected response from \(url): \(reason)"
        case .invalidInput(let message):
            return message
        case .preflight(let problems):
            return problems.count == 1 ? problems[0] : "preflight found \(problems.count) problems:\n" + problems.map { "- \($0)" }.joined(separator: "\n")
        case .assetConflict(let name, let detail):
            return "asset '\(name)' already exists with different content (\(detail)); set \"replace\": \"replace\" to overwrite it or \"skip\" to keep it"
        case .immutableRelease(let tag, let detail):
            return "release '\(tag)' is immutable: \(detail)"
        case .uploadFailed(let name, let attempts, let reason):
            return "upload of asset '\(name)' failed after \(attempts) attempt\(attempts == 1 ? "" : "s"): \(reason); the release was left as a draft"
        case .verificationFailed(let problems):
            return "the release does not hold the expected assets: " + problems.joined(separator: "; ")
        }
    }

    /// Whether this is a 422 whose `errors` include `already_exists`.
    package var isAlreadyExists: Bool {
        if case .api(_, _, 422, let message) = self { return message.contains("already_exists") }
        return false
    }
}

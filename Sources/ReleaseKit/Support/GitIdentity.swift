import Foundation

/// Who git records as the author and committer of a commit and the tagger of an annotated tag.
///
/// A hosted CI runner has no git identity (no `user.name`, no `user.email`, and a host name git cannot make an
/// address of), so `git commit` and `git tag -a` fail there with `unable to auto-detect email address`. The release
/// never writes git configuration to fix that: it passes `-c user.name=… -c user.email=…` to the one command, with
/// the pipeline's `author`, else (only for what git has not configured) the CI's actor in the host's no-reply form,
/// else `release <release@localhost>`.
package struct GitIdentity: Sendable, Equatable, CustomStringConvertible {
    /// A value git would refuse, or that would change the meaning of `Name <email>`.
    package struct Problem: Error, Equatable, CustomStringConvertible {
        package var description: String
    }

    package var name: String
    package var email: String

    /// `release <release@localhost>`: the identity of last resort.
    package static let standard = GitIdentity(checkedName: "release", email: "release@localhost")

    private init(checkedName name: String, email: String) {
        self.name = name
        self.email = email
    }

    /// An identity from its parts.
    /// - Throws: ``Problem`` for an empty part, a line break, a control character or `<`/`>` in either part.
    package init(name: String, email: String) throws(Problem) {
        let name = name.trimmingCharacters(in: .whitespaces)
        let email = email.trimmingCharacters(in: .whitespaces)
        if let problem = Self.problem(name, "name") ?? Self.problem(email, "email") { throw problem }
        if email.contains(" ") { throw Problem(description: "the email '\(Echo.text(email))' contains a space") }
        self.init(checkedName: name, email: email)
    }

    /// An identity written as git writes one: `Name <email>`.
    /// - Throws: ``Problem`` for any other shape, or a part ``init(name:email:)`` refuses.
    package init(parsing text: String) throws(Problem) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasSuffix(">"), let open = trimmed.firstIndex(of: "<") else {
            throw Problem(description: "'\(Echo.text(text))' is not 'Name <email>'")
        }
        let email = trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]
        try self.init(name: String(trimmed[..<open]), email: String(email))
    }

    /// `Name <email>`.
    package var description: String { "\(name) <\(email)>" }

    private static func problem(_ value: String, _ part: String) -> Problem? {
        if value.isEmpty { return Problem(description: "the \(part) is empty") }
        if value.contains(where: { $0.isNewline }) { return Problem(description: "the \(part) '\(Echo.text(value))' contains a line break") }
        if value.unicodeScalars.contains(where: { $0.value < 32 || $0.value == 127 }) {
            return Problem(description: "the \(part) '\(Echo.text(value))' contains a control character")
        }
        if value.contains("<") || value.contains(">") { return Problem(description: "the \(part) '\(Echo.text(value))' contains '<' or '>'") }
        return nil
    }

    /// The identity of whoever started the CI job, in the host's no-reply form, else ``standard``, with where it came
    /// from for the log.
    ///
    /// GitHub Actions: `GITHUB_ACTOR` and `GITHUB_ACTOR_ID` give `login <ID+login@users.noreply.github.com>`.
    /// GitLab CI: `GITLAB_USER_NAME` and `GITLAB_USER_EMAIL` where set, else the login and GitLab's private commit
    /// address `ID-login@users.noreply.HOST` from `GITLAB_USER_ID`, `GITLAB_USER_LOGIN` and `CI_SERVER_HOST`. A value
    /// git would refuse is passed over, never sent.
    package static func fallback(environment: [String: String]) -> (identity: GitIdentity, source: String) {
        func value(_ name: String) -> String? {
            guard let value = environment[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
            return value
        }
        if let login = value("GITHUB_ACTOR"), let id = value("GITHUB_ACTOR_ID"), isLogin(login), isNumber(id),
            let identity = try? GitIdentity(name: login, email: "\(id)+\(login)@users.noreply.github.com")
        {
            return (identity, "the GitHub Actions actor (GITHUB_ACTOR)")
        }
        if let login = value("GITLAB_USER_LOGIN"), isLogin(login) {
            let name = value("GITLAB_USER_NAME").flatMap { try? GitIdentity(name: $0, email: "x").name } ?? login
            var email = value("GITLAB_USER_EMAIL").flatMap { try? GitIdentity(name: "x", email: $0).email }
            if email == nil, let id = value("GITLAB_USER_ID"), isNumber(id) {
                let host = value("CI_SERVER_HOST").flatMap { isHost($0) ? $0 : nil } ?? "gitlab.com"
                email = "\(id)-\(login)@users.noreply.\(host)"
            }
            if let email, let identity = try? GitIdentity(name: name, email: email) {
                return (identity, "the GitLab CI user (GITLAB_USER_LOGIN)")
            }
        }
        return (standard, "the default")
    }

    /// A login as GitHub and GitLab allow them: letters, digits, `-`, `_` and `.`.
    private static func isLogin(_ value: String) -> Bool {
        !value.isEmpty && value.allSatisfy { ($0.isASCII && ($0.isLetter || $0.isNumber)) || "-_.".contains($0) }
    }

    private static func isNumber(_ value: String) -> Bool {
        value.allSatisfy { $0.isASCII && $0.isNumber }
    }

    private static func isHost(_ value: String) -> Bool {
        value.allSatisfy { ($0.isASCII && ($0.isLetter || $0.isNumber)) || "-.".contains($0) }
    }

    /// The `git -c` options that give one command an identity: the pipeline's `explicit` one whole, else the
    /// ``fallback(environment:)`` for each of `user.name` and `user.email` git has no value for (`isConfigured` asks
    /// git's configuration; `EMAIL` counts for the address, as git reads it). Git's own `GIT_AUTHOR_*` and
    /// `GIT_COMMITTER_*` variables still win over these, as over any configuration.
    /// - Returns: the options, and the identity they give with its source (nil when git's own is used).
    package static func configOptions(
        explicit: GitIdentity?, environment: [String: String], isConfigured: (String) async throws -> Bool
    ) async rethrows -> (options: [String], identity: GitIdentity?, source: String?) {
        if let explicit {
            return (["-c", "user.name=\(explicit.name)", "-c", "user.email=\(explicit.email)"], explicit, "the step's author")
        }
        let needsName = try await !isConfigured("user.name")
        let needsEmail = try await !isConfigured("user.email") && (environment["EMAIL"] ?? "").isEmpty
        guard needsName || needsEmail else { return ([], nil, nil) }
        let (identity, source) = fallback(environment: environment)
        var options: [String] = []
        if needsName { options += ["-c", "user.name=\(identity.name)"] }
        if needsEmail { options += ["-c", "user.email=\(identity.email)"] }
        return (options, identity, source)
    }
}

import Testing

@testable import ReleaseSupport

@Suite struct GitIdentityTests {
    @Test func parsesNameAndEmailAndRefusesWhatGitWouldMisread() throws {
        let parsed = try GitIdentity(parsing: " Jane Doe <jane@example.com> ")
        #expect(parsed.name == "Jane Doe")
        #expect(parsed.email == "jane@example.com")
        #expect(parsed.description == "Jane Doe <jane@example.com>")
        #expect(throws: GitIdentity.Problem(description: "'jane@example.com' is not 'Name <email>'")) {
            try GitIdentity(parsing: "jane@example.com")
        }
        #expect(throws: GitIdentity.Problem(description: "the name is empty")) { try GitIdentity(parsing: "<jane@example.com>") }
        #expect(throws: GitIdentity.Problem(description: "the email is empty")) { try GitIdentity(parsing: "Jane <>") }
        #expect(throws: GitIdentity.Problem(description: "the name 'Jane\\nDoe' contains a line break")) {
            try GitIdentity(parsing: "Jane\nDoe <jane@example.com>")
        }
        #expect(throws: GitIdentity.Problem(description: "the email 'jane@<evil>' contains '<' or '>'")) {
            try GitIdentity(parsing: "Jane <jane@<evil>>")
        }
        #expect(throws: GitIdentity.Problem(description: "the name 'Jane >x' contains '<' or '>'")) {
            try GitIdentity(name: "Jane >x", email: "jane@example.com")
        }
        #expect(throws: GitIdentity.Problem(description: "the email 'jane doe@example.com' contains a space")) {
            try GitIdentity(parsing: "Jane <jane doe@example.com>")
        }
    }

    @Test func theGitHubActorInGitHubsNoReplyForm() {
        let fallback = GitIdentity.fallback(environment: ["GITHUB_ACTOR": "octocat", "GITHUB_ACTOR_ID": "583231"])
        #expect(fallback.identity.description == "octocat <583231+octocat@users.noreply.github.com>")
        #expect(fallback.source == "the GitHub Actions actor (GITHUB_ACTOR)")
        // Without the id (or with a login GitHub would not give) there is no no-reply address to make.
        #expect(GitIdentity.fallback(environment: ["GITHUB_ACTOR": "octocat"]).identity == .standard)
        #expect(GitIdentity.fallback(environment: ["GITHUB_ACTOR": "octo cat", "GITHUB_ACTOR_ID": "1"]).identity == .standard)
        #expect(GitIdentity.fallback(environment: ["GITHUB_ACTOR": "octocat", "GITHUB_ACTOR_ID": "1>2"]).identity == .standard)
    }

    @Test func theGitLabUserAsGitLabNamesThem() {
        let full = GitIdentity.fallback(environment: [
            "GITLAB_USER_LOGIN": "jdoe", "GITLAB_USER_NAME": "Jane Doe", "GITLAB_USER_EMAIL": "jane@example.com", "GITLAB_USER_ID": "42",
        ])
        #expect(full.identity.description == "Jane Doe <jane@example.com>")
        #expect(full.source == "the GitLab CI user (GITLAB_USER_LOGIN)")
        // GitLab's private commit address where the email is not given (or unusable): ID-login@users.noreply.HOST.
        let noreply = GitIdentity.fallback(environment: [
            "GITLAB_USER_LOGIN": "jdoe", "GITLAB_USER_NAME": "Jane\nDoe", "GITLAB_USER_EMAIL": "<x>", "GITLAB_USER_ID": "42",
            "CI_SERVER_HOST": "gitlab.example.com",
        ])
        #expect(noreply.identity.description == "jdoe <42-jdoe@users.noreply.gitlab.example.com>")
        let hosted = GitIdentity.fallback(environment: ["GITLAB_USER_LOGIN": "jdoe", "GITLAB_USER_ID": "42"])
        #expect(hosted.identity.description == "jdoe <42-jdoe@users.noreply.gitlab.com>")
        #expect(GitIdentity.fallback(environment: ["GITLAB_USER_LOGIN": "jdoe"]).identity == .standard)
    }

    @Test func nothingKnownGivesReleaseAtLocalhost() {
        let fallback = GitIdentity.fallback(environment: [:])
        #expect(fallback.identity.description == "release <release@localhost>")
        #expect(fallback.source == "the default")
    }

    @Test func onlyWhatGitHasNotConfiguredIsFilledIn() async throws {
        let actor = ["GITHUB_ACTOR": "octocat", "GITHUB_ACTOR_ID": "583231"]
        let nothing = try await GitIdentity.configOptions(explicit: nil, environment: actor) { _ in false }
        #expect(nothing.options == ["-c", "user.name=octocat", "-c", "user.email=583231+octocat@users.noreply.github.com"])
        let everything = try await GitIdentity.configOptions(explicit: nil, environment: actor) { _ in true }
        #expect(everything.options == [])
        #expect(everything.identity == nil)
        let emailOnly = try await GitIdentity.configOptions(explicit: nil, environment: actor) { $0 == "user.email" }
        #expect(emailOnly.options == ["-c", "user.name=octocat"])
        // git reads EMAIL when user.email is not set: it counts as configured.
        let email = try await GitIdentity.configOptions(explicit: nil, environment: ["EMAIL": "me@example.com"]) { _ in false }
        #expect(email.options == ["-c", "user.name=release"])
        // The step's author wins over any configuration.
        let explicit = try GitIdentity(parsing: "Bot <bot@example.com>")
        let chosen = try await GitIdentity.configOptions(explicit: explicit, environment: actor) { _ in true }
        #expect(chosen.options == ["-c", "user.name=Bot", "-c", "user.email=bot@example.com"])
    }
}

import Testing

@testable import ReleaseGitHub

@Suite struct GitHubRemoteTests {
    @Test(arguments: [
        ("https://github.com/octo/app.git", "octo/app"),
        ("https://github.com/octo/app/", "octo/app"),
        ("git@github.com:octo/app.git", "octo/app"),
        ("ssh://git@github.com/octo/app", "octo/app"),
    ])
    func githubRemotesNameTheirRepository(url: String, repository: String) {
        #expect(GitHubRemote.repository(fromURL: url) == repository)
    }

    @Test(arguments: ["https://gitlab.com/octo/app.git", "git@github.com:octo.git", "/opt/mirrors/octo/app.git"])
    func otherRemotesNameNone(url: String) {
        #expect(GitHubRemote.repository(fromURL: url) == nil)
    }
}

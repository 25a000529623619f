import Foundation
import Testing

/// Issue 34 item 9: `release run` names every missing secret and environment variable before its first step, and
/// each step names its own, so one run is enough to learn what to set.
@Suite struct MissingValuesCommandTests {
    @Test func oneRunNamesEverythingMissing() throws {
        let directory = try ReleaseBinary.gitRepository(branch: "release/3.0.0")
        let pipeline = #"""
            {"version": 1, "name": "missing",
             "steps": [
               {"id": "upload", "uses": "print", "with": {"message": "${secrets.REL34E_KEY} ${env.REL34E_KEY_ID} ${env.REL34E_ISSUER}"}},
               {"id": "publish", "uses": "print", "with": {"message": "${secrets.REL34E_TOKEN}"}}
             ]}
            """#
        try pipeline.write(toFile: directory + "/missing.json", atomically: true, encoding: .utf8)
        let outcome = try ReleaseBinary.run(["run", "missing.json"], in: directory)
        #expect(outcome.status == 1, "\(outcome.stderr)")
        let header =
            "not set for this run: secrets 'REL34E_KEY', 'REL34E_TOKEN' are not set: export each in the environment (on GitHub Actions a repository secret, on GitLab CI a masked CI/CD variable); environment variables 'REL34E_KEY_ID', 'REL34E_ISSUER' are not set: export each (on GitHub Actions a repository variable, on GitLab CI a CI/CD variable), or write ${env.NAME:-fallback} for a fallback\n"
        #expect(outcome.stderr.hasPrefix(header), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("'REL34E_KEY_ID', 'REL34E_ISSUER'"))
        #expect(outcome.stderr.contains("secret 'REL34E_TOKEN' is not set: export REL34E_TOKEN in the environment"), "\(outcome.stderr)")
    }
}

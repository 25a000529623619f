import Foundation
import Testing

@testable import ReleaseExecution
@testable import ReleasePipeline
@testable import ReleasePlanning
@testable import ReleaseSupport

/// Issue 34 item 9: preflight names every secret and environment variable a step lacks in one run, with where to
/// set each, instead of one per run.
@Suite struct PreflightMissingValuesTests {
    static let secrets = "export each in the environment (on GitHub Actions a repository secret, on GitLab CI a masked CI/CD variable)"
    static let secret = "export it in the environment (on GitHub Actions a repository secret, on GitLab CI a masked CI/CD variable)"
    static let variables =
        "export each (on GitHub Actions a repository variable, on GitLab CI a CI/CD variable), or write ${env.NAME:-fallback} for a fallback"

    @Test func aStepWithThreeMissingValuesNamesAllThree() async throws {
        let text = #"""
            {"version": 1, "variables": {"key": "${secrets.REL34_KEY}"},
             "steps": [
               {"id": "upload", "uses": "print", "with": {"message": "${key} ${env.REL34_KEY_ID} ${env.REL34_ISSUER} ${env.REL34_SET} ${env.REL34_FALLBACK:-x} ${secrets.REL34_KEY}"}},
               {"id": "publish", "uses": "print", "with": {"message": "${secrets.REL34_TOKEN} ${key}"}},
               {"id": "again", "uses": "print", "with": {"message": "${secrets.REL34_TOKEN} ${secrets.REL34_KEY}"}},
               {"id": "single", "uses": "print", "with": {"message": "${secrets.REL34_ALONE}"}}
             ]}
            """#
        let (result, reporter) = try await TestPipelines.run(text, environment: ["REL34_SET": "yes"])
        #expect(result.exitCode == 1)
        #expect(
            result.step("upload")?.message
                == "secret 'REL34_KEY' is not set: \(Self.secret); environment variables 'REL34_KEY_ID', 'REL34_ISSUER' are not set: \(Self.variables)")
        #expect(result.step("publish")?.message == "secrets 'REL34_TOKEN', 'REL34_KEY' are not set: \(Self.secrets)")
        // The same problem as an earlier step is said once.
        #expect(result.step("again")?.message == "not started: the same problem as 'publish' (reported above)")
        // One missing value reads as it always has.
        #expect(result.step("single")?.message == "secret 'REL34_ALONE' is not set: export REL34_ALONE in the environment")
        let failed = reporter.events.compactMap { event -> String? in
            if case .preflightFailed(let step, _) = event { return step }
            return nil
        }
        #expect(failed == ["upload", "publish", "single"])
    }

    @Test func theInterpolatorFindsEveryUnsetValueThroughVariables() throws {
        var interpolator = Interpolator(
            variables: ["a": "${b}", "b": "${secrets.S2} ${a}"], environment: ["SET": "1", "EMPTY_SECRET": ""], profile: nil,
            git: GitInfo(branch: nil, sha: nil, commitCount: nil), now: Date(), masker: SecretMasker())
        let node = try JSONParser.parse(#"{"x": ["${secrets.S1}", "${env.E1}", "${env.SET}", "${env.E2:-d}"], "y": {"z": "${a} ${secrets.EMPTY_SECRET} ${secrets.S1}"}}"#)
        #expect(
            interpolator.unsetValues(in: node)
                == [.secretNotSet("S1"), .environmentNotSet("E1"), .secretNotSet("S2"), .secretNotSet("EMPTY_SECRET")])
        // Fingerprints never read secrets: nothing is missing then.
        interpolator.secretsAsNames = true
        #expect(interpolator.unsetValues(in: node) == [.environmentNotSet("E1")])
    }
}

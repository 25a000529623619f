import Foundation
import Testing

@testable import ReleasePipeline
@testable import ReleasePlanning
@testable import ReleaseSteps
@testable import ReleaseSupport

@Suite struct InterpolatorTests {
    func interpolator(
        variables: [String: String] = [:], environment: [String: String] = [:], profile: String? = "release",
        outputs: [String: [String: OutputValue]] = [:], masker: SecretMasker = SecretMasker()
    ) -> Interpolator {
        var result = Interpolator(
            variables: variables, environment: environment, profile: profile, git: TestPipelines.fixedGit,
            now: Date(timeIntervalSince1970: 1_413_957_678), masker: masker)
        result.outputs = outputs
        return result
    }

    @Test func resolvesNestedVariables() throws {
        let subject = interpolator(variables: ["app": "Demo", "dir": "build", "archive": "${dir}/${app}.xcarchive"])
        #expect(try subject.string("${archive}.zip") == "build/Demo.xcarchive.zip")
    }

    @Test func escapesWithDoubleDollar() throws {
        #expect(try interpolator().string("cost: $${HOME} and $$ and $x") == "cost: ${HOME} and $$ and $x")
    }

    @Test func readsEnvironmentWithFallback() throws {
        let subject = interpolator(environment: ["BUILD_NUMBER": "4321"])
        #expect(try subject.string("${env.BUILD_NUMBER}-${env.MISSING:-0}") == "4321-0")
        #expect(throws: ResolutionError.environmentNotSet("MISSING")) { try subject.string("${env.MISSING}") }
    }

    @Test func registersSecretsWithTheMasker() throws {
        let masker = SecretMasker()
        let subject = interpolator(environment: ["GITHUB_TOKEN": "ghp_abcdef123456"], masker: masker)
        #expect(try subject.string("token ${secrets.GITHUB_TOKEN}") == "token ghp_abcdef123456")
        #expect(masker.mask("Authorization: token ghp_abcdef123456") == "Authorization: token ***")
        #expect(throws: ResolutionError.secretNotSet("NOPE")) { try subject.string("${secrets.NOPE}") }
    }

    @Test func formatsTheRunsClockInUTC() throws {
        let subject = interpolator()
        #expect(try subject.string("v3.0.0-4321_${now:yyyy-MM-dd'T'HH-mm-ss'Z'}") == "v3.0.0-4321_2014-10-22T06-01-18Z")
        #expect(try subject.string("Uploaded: ${now:yyyy/MM/dd HH:mm:ss}") == "Uploaded: 2014/10/22 06:01:18")
        #expect(try subject.string("${now}") == "2014-10-22T06:01:18Z")
    }

    @Test func readsGitAndProfile() throws {
        let subject = interpolator()
        #expect(try subject.string("${git.branch} ${git.short_sha} ${git.commit_count} ${profile}") == "release/3.0.0 0123456 4321 release")
        let none = Interpolator(
            variables: [:], environment: [:], profile: nil, git: GitInfo(branch: nil, sha: nil, commitCount: nil, problem: "not a repository"),
            now: Date(), masker: SecretMasker())
        #expect(throws: ResolutionError.git(field: "sha", problem: "not a repository")) { try none.string("${git.sha}") }
        #expect(throws: ResolutionError.noProfile) { try none.string("${profile}") }
    }

    @Test func wholeReferencesKeepTheirType() throws {
        let subject = interpolator(outputs: ["dsyms": ["paths": .list([.path("a.zip"), .path("b.zip")]), "count": .number(2)]])
        let node = try JSONParser.parse(#"{"assets": "${steps.dsyms.outputs.paths}", "n": "${steps.dsyms.outputs.count}", "text": "n=${steps.dsyms.outputs.count}"}"#)
        let resolved = try subject.node(node)
        #expect(resolved.jsonText == #"{"assets":["a.zip","b.zip"],"n":2,"text":"n=2"}"#)
    }

    @Test func distinguishesPendingFromMissingOutputs() throws {
        var subject = interpolator(outputs: ["zip": ["path": .path("x.zip")]])
        #expect(throws: ResolutionError.missingOutput(step: "zip", key: "sha256", available: ["path"])) { try subject.string("${steps.zip.outputs.sha256}") }
        subject.promisedSteps = ["zip"]
        #expect(throws: ResolutionError.pendingOutput(step: "zip", key: "sha256")) { try subject.string("${steps.zip.outputs.sha256}") }
        #expect(throws: ResolutionError.pendingOutput(step: "bump", key: "version")) { try subject.string("${steps.bump.outputs.version}") }
    }

    @Test func detectsVariableCyclesAtRunTime() {
        let subject = interpolator(variables: ["a": "${b}", "b": "${a}"])
        #expect(throws: ResolutionError.variableCycle(["a", "b", "a"])) { try subject.string("${a}") }
    }
}

@Suite struct ConditionTests {
    let facts = Condition.Facts(profile: "release", branch: "release/3.0.0", environment: ["CI": "true", "EMPTY": ""], os: "linux")

    @Test func evaluatesEachForm() {
        #expect(Condition.profile(["release"]).evaluate(facts))
        #expect(!Condition.profile(["adhoc"]).evaluate(facts))
        #expect(Condition.branch(["release*"]).evaluate(facts))
        #expect(!Condition.branch(["main", "develop"]).evaluate(facts))
        #expect(Condition.env(["CI": "true"]).evaluate(facts))
        #expect(!Condition.env(["EMPTY": "*"]).evaluate(facts))
        #expect(!Condition.env(["MISSING": "*"]).evaluate(facts))
        #expect(Condition.os(["linux"]).evaluate(facts))
        #expect(!Condition.os(["macos"]).evaluate(facts))
        #expect(Condition.all([.os(["linux"]), .branch(["release/*"])]).evaluate(facts))
        #expect(Condition.any([.os(["macos"]), .profile(["rel*"])]).evaluate(facts))
        #expect(Condition.not(.os(["macos"])).evaluate(facts))
    }

    @Test func anObjectWithSeveralKeysMeansAll() throws {
        var diagnostics = DiagnosticList(file: "t.json")
        let node = try JSONParser.parse(#"{"profile": "release", "os": ["macos", "linux"], "not": {"env": {"SKIP": "1"}}}"#)
        let condition = Condition.parse(node, at: .root, into: &diagnostics)
        #expect(diagnostics.isEmpty)
        #expect(condition == .all([.profile(["release"]), .os(["macos", "linux"]), .not(.env(["SKIP": "1"]))]))
        #expect(condition?.evaluate(facts) == true)
    }
}

import Foundation
import Testing

@testable import ReleasePipeline
@testable import ReleaseSteps

/// What an option must be beyond its type (``OptionConstraint``) and which options go together one at a time
/// (``OptionExclusion``) are declared with the options, checked by ``StepOptions/validate()`` (at `validate` for
/// values written out, once resolved for `${…}`), and shown by `release steps` and `release schema`.
@Suite struct OptionConstraintTests {
    /// A constraint on a type it cannot read would never be checked: every declaration of every kind reads its texts.
    @Test func everyConstraintCanReadItsOptionsValue() throws {
        var constrained = 0
        for kind in try StepRegistry.builtIn.kinds where kind.plugin == nil {
            for option in kind.optionsType.declaredOptions {
                #expect(option.declaration.canCheckConstraints, "\(kind.kind): '\(option.key)' declares a constraint on a value it cannot read")
                if option.declaration.documentation(key: option.key).constraints != nil { constrained += 1 }
            }
        }
        #expect(constrained >= 40)
    }

    @Test(
        arguments: [
            // text
            (OptionConstraint.notBeEmpty, ["a"], false, nil),
            (OptionConstraint.notBeEmpty, [""], false, "must not be empty"),
            (OptionConstraint.notBeEmpty, [" "], false, nil),
            (OptionConstraint.notBeEmpty(trimmed: true, "the tag is empty"), [" \n"], false, "the tag is empty"),
            // lists: empty is no item, an empty item is the other rule's
            (OptionConstraint.notBeEmpty("must list at least one file"), [], true, "must list at least one file"),
            (OptionConstraint.notBeEmpty, [""], true, nil),
            (OptionConstraint.haveNoEmptyItem("pattern"), ["*.a", ""], true, "pattern 2 is empty"),
            (OptionConstraint.haveNoEmptyItem(trimmed: true), [" "], true, "item 1 is empty"),
            (OptionConstraint.haveNoEmptyItem(saying: "an argument is empty"), ["-x", ""], true, "an argument is empty"),
            // shapes
            (OptionConstraint.beGitHubRepository, ["acme/app"], false, nil),
            (OptionConstraint.beGitHubRepository, ["acme/app/x"], false, "'acme/app/x' is not of the form 'owner/name'"),
            (OptionConstraint.beGitHubRepository, ["/app"], false, "'/app' is not of the form 'owner/name'"),
            (OptionConstraint.beKeyID, [" 2X9R4HXF34 "], false, nil),
            (OptionConstraint.beKeyID, ["${env.KEY_ID}"], false, nil),
            (OptionConstraint.beKeyID, ["2X9R-4HXF34"], false, "'2X9R-4HXF34' is not a key ID (letters and digits, for example 2X9R4HXF34)"),
            (OptionConstraint.beHTTPURL(), ["https://api.example.com/v1"], false, nil),
            (OptionConstraint.beHTTPURL(), ["ftp://example.com"], false, "'ftp://example.com' is not an http(s) URL without credentials"),
            (OptionConstraint.beHTTPURL(credentials: "no"), ["https://example.com"], false, nil),
            (OptionConstraint.beHTTPURL(credentials: "no"), ["example.com"], false, "'example.com' is not an http(s) URL"),
            (OptionConstraint.beHTTPURL(credentials: "no"), ["https://u:p@example.com"], false, "no"),
        ] as [(OptionConstraint, [String], Bool, String?)])
    func aConstraintNamesWhatIsWrong(constraint: OptionConstraint, texts: [String], isList: Bool, problem: String?) {
        #expect(constraint.problem(texts, isList) == problem)
    }

    /// A URL with credentials is echoed without them.
    @Test func aRefusedURLIsEchoedRedacted() throws {
        let problem = try #require(OptionConstraint.beHTTPURL().problem(["ftp://user:hunter2@example.com"], false))
        #expect(!problem.contains("hunter2"), "\(problem)")
    }

    @Test func anExclusionRefusesTwoAndARequiredOneRefusesNone() {
        let atMostOne = OptionExclusion.atMostOne(["project", "file"], "set 'project' or 'file', not both")
        #expect(atMostOne.problem(given: []) == nil)
        #expect(atMostOne.problem(given: ["file"]) == nil)
        #expect(atMostOne.problem(given: ["file", "project"])! == ("file", "set 'project' or 'file', not both"))
        let named = OptionExclusion.atMostOne(["app", "targets"], at: "app", "not both")
        #expect(named.problem(given: ["app", "targets"])! == ("app", "not both"))
        let exactlyOne = OptionExclusion.exactlyOne(["project", "workspace"], "not both", missing: "give one")
        #expect(exactlyOne.problem(given: [])! == ("project", "give one"))
        #expect(exactlyOne.problem(given: ["workspace"]) == nil)
        #expect(exactlyOne.problem(given: ["project", "workspace"])! == ("workspace", "not both"))
    }

    /// An option counts as given when it holds a value: `nil` and an empty list do not count.
    @Test func anEmptyListIsNotGiven() throws {
        var options = VersionBumpStep.Options()
        options.part = .patch
        options.app = "App"
        options.targets = []
        _ = try VersionBumpStep(options: options)
        options.targets = ["App"]
        #expect(throws: StepError.invalidOption("app", "set 'app' (the app and what follows it) or 'targets' (exactly those), not both")) {
            try VersionBumpStep(options: options)
        }
    }

    /// A group checks itself wherever it is used: the Xcode steps' API key options are all three or none.
    @Test func aGroupChecksItselfInEveryStepThatUsesIt() {
        var archive = XcodeArchiveStep.Options()
        (archive.project, archive.scheme) = ("App.xcodeproj", "App")
        archive.authentication.authenticationKeyID = "2X9R4HXF34"
        var export = XcodeExportStep.Options()
        (export.archive, export.method, export.exportPath) = ("build/App.xcarchive", .appStore, "build/export")
        export.authentication.authenticationKeyID = "2X9R4HXF34"
        let missing = StepError.invalidOption(
            "authentication_key",
            "missing or empty: give the API key's .p8 (${secrets.APP_STORE_CONNECT_KEY}) with authentication_key_id and authentication_key_issuer_id")
        #expect(throws: missing) { try XcodeArchiveStep(options: archive) }
        #expect(throws: missing) { try XcodeExportStep(options: export) }
    }

    /// A value written out is judged at `validate`, with the step and the option; a `${…}` waits for its value.
    @Test func aWrittenValueIsJudgedAtValidateAndAReferenceWhenKnown() {
        let problems = TestPipelines.problems(
            """
            {"version": 1, "variables": {"repo": "acme"}, "steps": [
              {"id": "gh", "uses": "github.release", "with": {"repo": "acme", "token": "t", "tag": "v1"}},
              {"id": "later", "uses": "github.release", "with": {"repo": "${repo}", "token": "t", "tag": "v1"}},
              {"id": "both", "uses": "xcode.archive", "with": {"project": "A.xcodeproj", "workspace": "A.xcworkspace", "scheme": "A",
                "archive_path": "build/A.xcarchive"}}
            ]}
            """)
        #expect(problems.count == 2, "\(problems)")
        #expect(problems.first?.contains("'acme' is not of the form 'owner/name'") == true, "\(problems)")
        #expect(problems.last?.contains("give 'project' or 'workspace', not both") == true, "\(problems)")
    }

    @Test func stepsAndSchemaShowTheConstraints() throws {
        let registry = try StepRegistry.builtIn
        let text = StepCatalog.text(registry)
        #expect(text.contains("\n    repo              string (owner/name, required): the repository, 'owner/name'\n"), "\(text)")
        #expect(text.contains("\n  one at a time: project | workspace (exactly one)\n"))
        #expect(text.contains("\n  one at a time: body | body_file (one at the most)\n"))
        let json = StepCatalog.json(registry)
        let release = try #require(json.first { $0["kind"] as? String == "github.release" })
        let repo = try #require((release["options"] as? [[String: Any]])?.first { $0["name"] as? String == "repo" })
        #expect(repo["constraints"] as? [String] == ["owner/name"])
        #expect(release["exclusions"] as? [String] == ["body | body_file (one at the most)"])

        let schema = try #require(PipelineSchema.object(registry: registry)["$defs"] as? [String: Any])
        let with = try #require(schema["with:github.release"] as? [String: Any])
        let repoSchema = try #require((with["properties"] as? [String: Any])?["repo"] as? [String: Any])
        let alternatives = try #require(repoSchema["anyOf"] as? [[String: Any]])
        #expect(alternatives.first?["pattern"] as? String == "^[^/]+/[^/]+$")
        #expect(alternatives.first?["$ref"] as? String == "#/$defs/scalar")
        #expect(alternatives.last?["$ref"] as? String == "#/$defs/template")
    }
}

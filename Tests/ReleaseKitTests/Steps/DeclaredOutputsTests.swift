import Foundation
import Testing

@testable import ReleaseExecution
@testable import ReleaseSteps

/// Every step returns only the outputs its kind declares. `TestPipelines.run` checks this after every run of the unit
/// tests; these tests check the check, and run the kinds that need no outside service side by side.
@Suite struct DeclaredOutputsTests {
    static func kind(_ name: String) throws -> StepKind {
        try #require(try StepRegistry(StepRegistry.builtInTypes)[name])
    }

    @Test func aKeyOutsideTheDeclarationIsReported() throws {
        #expect(DeclaredOutputs.undeclared(["message"], kind: try Self.kind("print")) == [])
        #expect(DeclaredOutputs.undeclared(["message", "text", "extra"], kind: try Self.kind("print")) == ["extra", "text"])
        #expect(DeclaredOutputs.undeclared(["anything"], kind: try Self.kind("noop")) == ["anything"])
    }

    /// `github.release` declares `asset_url_NAME`: any asset's key is declared, other keys are not.
    @Test func aPlaceholderNameDeclaresAPrefix() throws {
        let kind = try Self.kind("github.release")
        #expect(kind.documentation.dynamicOutputs)
        #expect(DeclaredOutputs.undeclared(["id", "url", "asset_url_Demo_app_dSYM_zip"], kind: kind) == [])
        #expect(DeclaredOutputs.undeclared(["asset_url", "asset_count"], kind: kind) == ["asset_count", "asset_url"])
    }

    /// `shell` returns what the command writes to `$RELEASE_OUTPUT`: any key.
    @Test func aDynamicKindWithoutAPatternMayReturnAnyKey() throws {
        #expect(DeclaredOutputs.undeclared(["VERSION", "whatever"], kind: try Self.kind("shell")) == [])
    }

    @Test func theLocalKindsReturnOnlyWhatTheyDeclare() async throws {
        let text = #"""
            {"version": 1, "steps": [
              {"id": "say", "uses": "print", "with": {"message": "hello"}},
              {"id": "files", "uses": "shell", "with": {"run": ["sh", "-c", "mkdir -p in && echo a > in/a.txt && echo KEY=value >> \"$RELEASE_OUTPUT\""], "creates": ["in"]}},
              {"id": "zip", "uses": "archive.zip", "needs": ["files"], "with": {"source": "in", "output": "out/in.zip"}},
              {"id": "sums", "uses": "checksum", "with": {"files": ["${steps.zip.outputs.path}"], "output": "out/SHA256SUMS"}},
              {"id": "check-assets", "uses": "gate.assets", "gate": true, "with": {"files": ["${steps.zip.outputs.path}"]}},
              {"id": "check", "uses": "gate.command", "gate": true, "needs": ["zip"], "with": {"run": ["sh", "-c", "echo checked"]}},
              {"id": "joined", "uses": "noop", "needs": ["sums", "check", "check-assets"]}
            ]}
            """#
        let (result, _) = try await TestPipelines.run(text)
        #expect(result.statuses == ["say=ok", "files=ok", "zip=ok", "sums=ok", "check-assets=ok", "check=ok", "joined=ok"])
        #expect(result.step("files")?.outputs["KEY"] == .string("value"))
        #expect(result.steps.filter { !$0.outputs.isEmpty }.count >= 5, "the kinds that declare outputs returned some")
        #expect(DeclaredOutputs.problems(result, registry: try StepRegistry(StepRegistry.builtInTypes)) == [])
    }
}

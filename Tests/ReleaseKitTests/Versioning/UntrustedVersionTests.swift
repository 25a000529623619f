import Foundation
import Testing

@testable import ReleaseExecution
@testable import ReleasePlanning
@testable import ReleaseVersioning

extension VersioningTests {
    /// Issue 22 item 7: a version read from a project is data a stranger may have written (a pull request, a
    /// vendored project). One that is not a version (a quote, `;`, `$`, a space) is refused where the project is read,
    /// naming the file and line, before it reaches a step's outputs, a branch name, a tag or a script.
    @Suite struct UntrustedVersionTests {
        static let hostile = #"3.0.0\"; touch pwned; \""#

        /// The `pbxproj-per-target` fixture with the app's Release MARKETING_VERSION (line 256) set to `value`, as
        /// the pbxproj spells it.
        static func project(_ value: String) throws -> String {
            let folder = try XcodeFixture(name: "pbxproj-per-target").copy()
            let path = folder + "/Demo.xcodeproj/project.pbxproj"
            var lines = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\n")
            #expect(lines[255] == "\t\t\t\tMARKETING_VERSION = 3.0.0;")
            lines[255] = "\t\t\t\tMARKETING_VERSION = \(value);"
            try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
            return folder
        }

        static let message =
            #"Demo.xcodeproj/project.pbxproj:256: version (MARKETING_VERSION) '3.0.0"; touch pwned; "' is not a version: a version or build number has only letters, digits and '.', '-', '+', '_'"#

        @Test func theReaderRefusesAVersionThatIsNotOne() throws {
            let folder = try Self.project(#""\#(Self.hostile)""#)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            #expect(throws: VersioningError.notAVersion(#"3.0.0"; touch pwned; ""#, key: "version (MARKETING_VERSION)", context: "Demo.xcodeproj/project.pbxproj:256")) {
                try VersionReader.read(in: folder)
            }
            do {
                _ = try VersionReader.read(in: folder)
            } catch {
                #expect("\(error)" == Self.message)
            }
        }

        @Test(arguments: ["3.0.0", "7.1.3b5", "26.07.5", "2.0.0-rc.1+42", "7.75.0.3", "4321", "1.0_beta"])
        func realVersionsPass(version: String) {
            #expect(ProjectVersions.isVersionText(version))
        }

        @Test(arguments: ["3.0 beta", "3.0;", "$(X)", "`x`", "'1'", "\"1\"", "1\n2", "", "-1", ".1", String(repeating: "1", count: 65), "١.٠"])
        func whatIsNotAVersionFails(text: String) {
            #expect(!ProjectVersions.isVersionText(text))
        }

        /// `version.read` fails with the message and the shell step that would have used the value never runs.
        @Test func versionReadFailsBeforeTheValueReachesAScript() async throws {
            let folder = try Self.project(#""\#(Self.hostile)""#)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let text = """
                {"version": 1, "steps": [
                  {"id": "current", "uses": "version.read", "with": {"project": "Demo.xcodeproj", "configuration": "Release"}},
                  {"id": "use", "uses": "shell", "with": {"shell": true, "run": "echo v${steps.current.outputs.version}"}}]}
                """
            let (result, _) = try await TestPipelines.run(text, configure: { $0.workingDirectory = folder })
            #expect(result.step("current")?.status == .failed)
            #expect(result.step("current")?.message == Self.message)
            #expect(result.step("use")?.status != .succeeded)
            #expect(!FileManager.default.fileExists(atPath: folder + "/pwned"))
        }

        /// `release bump` reads through the same door: nothing is planned or written.
        @Test func aBumpRefusesIt() async throws {
            let folder = try Self.project(#""\#(Self.hostile)""#)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let before = XcodeFixture.files(in: folder)
            do {
                _ = try await BumpSession.prepare(
                    project: nil, file: nil, in: folder, strategy: .keep, environment: [:],
                    now: Date(), commitCount: { _ in 1 })
                Issue.record("the bump must be refused")
            } catch {
                #expect("\(error)" == Self.message)
            }
            #expect(XcodeFixture.files(in: folder) == before)
        }
    }
}

import Testing

@testable import ReleaseVersioning

extension VersioningTests {
    @Suite struct BumpPromptTests {
        private let menu = """
            Select new version [current: 3.0.0 (4146)]:
            1. 4.0.0 (4321)  major
            2. 3.1.0 (4321)  minor
            3. 3.0.1 (4321)  patch
            4. 3.0.0 (4321)  build only
            ?
            """

        private func run(_ lines: [String?]) throws -> (BumpPrompt.Item?, String) {
            let prompt = BumpPrompt(current: try #require(SemanticVersion("3.0.0")), currentBuild: "4146", newBuild: "4321")
            var input = lines[...]
            var output = ""
            let option = prompt.run(readLine: { input.popFirst() ?? nil }, write: { output += $0 })
            return (option, output)
        }

        /// The seed's menu, each line saying what it is.
        @Test func menuIsTheSeedsWithKinds() throws {
            let prompt = BumpPrompt(current: try #require(SemanticVersion("3.0.0")), currentBuild: "4146", newBuild: "4321")
            #expect(prompt.menu == menu)
        }

        @Test func validChoice() throws {
            let (option, output) = try run(["3"])
            #expect(option?.choice == .part(.patch))
            #expect(option?.version.description == "3.0.1")
            #expect(output == menu)
        }

        @Test func fourKeepsTheVersion() throws {
            let (option, _) = try run([" 4 "])
            #expect(option?.choice == .keep)
            #expect(option?.version.description == "3.0.0")
        }

        @Test func invalidThenValidAsksAgain() throws {
            let (option, output) = try run(["5", "minor", "2"])
            #expect(option?.choice == .part(.minor))
            #expect(
                output == menu
                    + "'5' is not a choice: type a number from 1 to 4\n?"
                    + "'minor' is not a choice: type a number from 1 to 4\n?")
        }

        /// An empty answer takes patch, the line a terminal menu highlights first.
        @Test func emptyAnswerTakesPatch() throws {
            let (option, _) = try run([" "])
            #expect(option?.choice == .part(.patch))
        }

        @Test func endOfInputChoosesNothing() throws {
            let (option, output) = try run(["x", nil])
            #expect(option == nil)
            #expect(output.hasSuffix("?\n"))
        }

        @Test func withoutBuildNumbers() throws {
            let prompt = BumpPrompt(current: try #require(SemanticVersion("7.1.3b5")), currentBuild: nil, newBuild: nil)
            #expect(prompt.menu == "Select new version [current: 7.1.3b5]:\n1. 8.0.0    major\n2. 7.2.0    minor\n3. 7.1.3    patch\n4. 7.1.3b5  build only\n?")
        }
    }
}

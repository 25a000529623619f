import Testing
@testable import ReleaseKit

extension VersioningTests {
    @Suite struct BumpPromptEditorTests {
        private func editor() throws -> BumpPromptEditor {
            BumpPromptEditor(prompt: BumpPrompt(current: try #require(SemanticVersion("3.0.0")), currentBuild: "4146", newBuild: "4321"))
        }

        /// Feeds `bytes` and returns everything written and the last outcome.
        private func feed(_ text: String, to editor: inout BumpPromptEditor) -> (String, BumpPromptEditor.Outcome) {
            var output = ""
            var outcome = BumpPromptEditor.Outcome.pending
            for key in BumpPromptEditor.keys(from: Array(text.utf8)) {
                let (written, result) = editor.handle(key)
                output += written
                outcome = result
                if result != .pending { break }
            }
            return (output, outcome)
        }

        @Test func decodesKeys() {
            #expect(BumpPromptEditor.keys(from: Array("3\r\u{1B}[A\u{1B}OB\u{7F}\u{03}\u{04}\n\u{01}".utf8))
                == [.character("3"), .enter, .up, .down, .backspace, .interrupt, .endOfInput, .enter])
        }

        @Test func typingANumberWorksLikeALineTerminal() throws {
            var editor = try editor()
            // A hint line says the arrow keys work, then the menu as the line-based prompt shows it.
            #expect(editor.start == BumpPromptEditor.hint + "\n" + BumpPrompt(current: try #require(SemanticVersion("3.0.0")), currentBuild: "4146", newBuild: "4321").menu)
            let (output, outcome) = feed("x\u{7F}9\n3\n", to: &editor)
            #expect(output == "x\u{8} \u{8}9\n'9' is not a choice: type a number from 1 to 4\n?3\n")
            #expect(outcome == .chosen(editor.prompt.options[2]))
        }

        @Test func arrowsHighlightAndType() throws {
            var editor = try editor()
            let (output, outcome) = feed("\u{1B}[A", to: &editor)
            #expect(outcome == .pending)
            // From the `?` line, three lines up to option 1; option 4 highlighted; the answer typed for you.
            #expect(output == "\r\u{1B}[4A"
                + "\r\u{1B}[2K1. 4.0.0 (4321)\n\r\u{1B}[2K2. 3.1.0 (4321)\n\r\u{1B}[2K3. 3.0.1 (4321)\n"
                + "\r\u{1B}[2K\u{1B}[7m4. 3.0.0 (4321)\u{1B}[0m\n\u{1B}[J?4")
            let (_, chosen) = feed("\u{1B}[B\u{1B}[B\r", to: &editor)
            #expect(chosen == .chosen(editor.prompt.options[1]))
        }

        @Test func redrawAfterAnInvalidAnswerReachesTheOptions() throws {
            var editor = try editor()
            _ = feed("7\n", to: &editor)
            let (output, _) = feed("\u{1B}[B", to: &editor)
            #expect(output.hasPrefix("\r\u{1B}[6A"))
        }

        @Test func endOfInputAndInterrupt() throws {
            var first = try editor()
            #expect(feed("1\u{04}", to: &first).1 == .cancelled)
            var second = try editor()
            #expect(feed("\u{03}", to: &second).1 == .interrupted)
        }
    }
}

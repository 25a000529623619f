import Testing

@testable import ReleaseVersioning

extension VersioningTests {
    /// The terminal menu as a state machine: keys in, the bytes to write, the highlighted line and the outcome out.
    @Suite struct BumpPromptEditorTests {
        private func editor(reverseVideo: Bool = true) throws -> BumpPromptEditor {
            BumpPromptEditor(
                prompt: BumpPrompt(current: try #require(SemanticVersion("3.0.0")), currentBuild: "4146", newBuild: "4321"),
                reverseVideo: reverseVideo)
        }

        /// Feeds the keys `text` decodes to and returns everything written and the last outcome.
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

        /// The four option lines, the one at `highlighted` (0-based) marked and in reverse video.
        private func redraw(highlighted: Int?, answer: String) -> String {
            let lines = ["1. 4.0.0 (4321)  major", "2. 3.1.0 (4321)  minor", "3. 3.0.1 (4321)  patch", "4. 3.0.0 (4321)  build only"]
            var text = "\r\u{1B}[4A"
            for (index, line) in lines.enumerated() {
                text += "\r\u{1B}[2K" + (index == highlighted ? "\u{1B}[7m> \(line)\u{1B}[0m" : "  " + line) + "\n"
            }
            return text + "\r\u{1B}[2K?" + answer
        }

        @Test func decodesKeys() {
            #expect(
                BumpPromptEditor.keys(from: Array("3\r\u{1B}[A\u{1B}OB\u{7F}\u{03}\u{04}\n\u{01}q\u{1B}[1;5B\u{1B}".utf8))
                    == [.character("3"), .enter, .up, .down, .backspace, .interrupt, .endOfInput, .enter, .character("q"), .down, .escape])
            // Esc followed by something that starts no sequence is the Esc key, then that key.
            #expect(BumpPromptEditor.keys(from: [0x1B, UInt8(ascii: "q")]) == [.escape, .character("q")])
        }

        @Test func anEscapeSequenceCutBetweenReadsIsWaitedFor() {
            #expect(BumpPromptEditor.endsInsideEscapeSequence([0x1B]))
            #expect(BumpPromptEditor.endsInsideEscapeSequence(Array("3\u{1B}[".utf8)))
            #expect(BumpPromptEditor.endsInsideEscapeSequence(Array("\u{1B}[1;5".utf8)))
            #expect(!BumpPromptEditor.endsInsideEscapeSequence(Array("\u{1B}[A".utf8)))
            #expect(!BumpPromptEditor.endsInsideEscapeSequence(Array("\u{1B}q".utf8)))
            #expect(!BumpPromptEditor.endsInsideEscapeSequence(Array("3".utf8)))
        }

        @Test func theFirstScreenHighlightsPatchAndSaysWhatEachLineIs() throws {
            let editor = try editor()
            #expect(editor.highlighted == 2)
            #expect(
                editor.start == """
                    (↑/↓ or 1-4 to move, Enter to choose, q or Esc to cancel)
                    Select new version [current: 3.0.0 (4146)]:
                      1. 4.0.0 (4321)  major
                      2. 3.1.0 (4321)  minor
                    \u{1B}[7m> 3. 3.0.1 (4321)  patch\u{1B}[0m
                      4. 3.0.0 (4321)  build only
                    ?3
                    """)
            // With NO_COLOR the marker alone shows the highlight.
            #expect(try self.editor(reverseVideo: false).optionLines[2] == "> 3. 3.0.1 (4321)  patch")
        }

        @Test func enterTakesTheHighlightedLine() throws {
            var editor = try editor()
            let (output, outcome) = feed("\r", to: &editor)
            #expect(output == "\n")
            #expect(outcome == .chosen(editor.prompt.options[2]))
            #expect(editor.prompt.options[2].choice == .part(.patch))
        }

        @Test func digitsMoveTheHighlightAndOnlyEnterTakesIt() throws {
            var editor = try editor()
            let (output, outcome) = feed("1", to: &editor)
            #expect(outcome == .pending)
            #expect(editor.highlighted == 0)
            #expect(output == redraw(highlighted: 0, answer: "1"))
            // Another digit moves again; one that names no line rings the bell and moves nothing.
            #expect(feed("4", to: &editor) == (redraw(highlighted: 3, answer: "4"), .pending))
            #expect(feed("9", to: &editor) == ("\u{7}", .pending))
            #expect(feed("x", to: &editor) == ("\u{7}", .pending))
            #expect(editor.highlighted == 3)
            #expect(feed("\r", to: &editor) == ("\n", .chosen(editor.prompt.options[3])))
            #expect(editor.prompt.options[3].choice == .keep)
        }

        @Test func arrowsMoveTheHighlightAndWrapAround() throws {
            var editor = try editor()
            #expect(feed("\u{1B}[A", to: &editor) == (redraw(highlighted: 1, answer: "2"), .pending))
            _ = feed("\u{1B}[A\u{1B}[A", to: &editor)
            #expect(editor.highlighted == 3)
            _ = feed("\u{1B}OB\u{1B}[B", to: &editor)
            #expect(editor.highlighted == 1)
            #expect(feed("\n", to: &editor).1 == .chosen(editor.prompt.options[1]))
        }

        @Test(arguments: ["q", "Q", "\u{1B}", "\u{04}"])
        func qEscAndEndOfInputCancelWithoutAHighlightOnAFreshLine(key: String) throws {
            var editor = try editor()
            _ = feed("\u{1B}[B", to: &editor)
            let (output, outcome) = feed(key, to: &editor)
            #expect(outcome == .cancelled)
            #expect(output == redraw(highlighted: nil, answer: "") + "\u{1B}[0m\n")
            #expect(editor.highlighted == nil)
            // Nothing is taken after leaving.
            #expect(feed("\r", to: &editor).1 == .cancelled)
        }

        @Test func ctrlCInterruptsAndLeavesTheCursorOnAFreshLine() throws {
            var editor = try editor()
            let (output, outcome) = feed("\u{03}", to: &editor)
            #expect(outcome == .interrupted)
            #expect(output == redraw(highlighted: nil, answer: "") + "\u{1B}[0m\n")
        }
    }
}

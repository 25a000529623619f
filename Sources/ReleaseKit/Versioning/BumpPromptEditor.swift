import Foundation

/// The ``BumpPrompt`` driven key by key, for a terminal in non-canonical mode: one line is highlighted (patch
/// first), the arrow keys and the digits move the highlight, Enter takes the highlighted line, `q` or Esc cancel.
/// It only computes the text to write; the caller owns the terminal, so tests feed keys and read the screen.
///
/// ```
/// (↑/↓ or 1-4 to move, Enter to choose, q or Esc to cancel)
/// Select new version [current: 3.0.0 (4146)]:
///   1. 4.0.0 (4321)  major
///   2. 3.1.0 (4321)  minor
/// > 3. 3.0.1 (4321)  patch          (in reverse video)
///   4. 3.0.0 (4321)  build only
/// ?3
/// ```
/// The cursor stays after the `?N` line, which shows the number of the highlighted line.
package struct BumpPromptEditor: Sendable {
    /// A decoded key press.
    package enum Key: Sendable, Equatable {
        case character(Character)
        case enter
        case backspace
        case up
        case down
        /// Esc alone (not the start of an arrow key's sequence).
        case escape
        /// Ctrl-D.
        case endOfInput
        /// Ctrl-C.
        case interrupt
    }

    /// Where the prompt stands after a key.
    package enum Outcome: Sendable, Equatable {
        case pending
        case chosen(BumpPrompt.Item)
        /// `q`, Esc or the end of input: nothing is chosen.
        case cancelled
        /// Ctrl-C: nothing is chosen.
        case interrupted
    }

    package let prompt: BumpPrompt
    /// Whether the highlighted line is also drawn in reverse video (not with `NO_COLOR`); the `>` marks it always.
    package let reverseVideo: Bool
    /// The index of the highlighted option; `nil` once the menu was left without a choice.
    package private(set) var highlighted: Int?

    /// An editor for `prompt`, with the prompt's default (patch) highlighted.
    package init(prompt: BumpPrompt, reverseVideo: Bool = true) {
        self.prompt = prompt
        self.reverseVideo = reverseVideo
        self.highlighted = prompt.defaultIndex
    }

    /// The line that says how to answer.
    package var hint: String { "(↑/↓ or 1-\(prompt.options.count) to move, Enter to choose, q or Esc to cancel)" }

    /// The text to write first: the hint, the title, the option lines and the `?N` line (no newline after it).
    package var start: String {
        hint + "\n" + prompt.title + "\n" + optionLines.joined(separator: "\n") + "\n" + answerLine
    }

    /// The option lines as drawn now: the highlighted one marked with `>` (and in reverse video), the others
    /// indented by as much.
    package var optionLines: [String] {
        prompt.options.enumerated().map { index, option in
            let line = prompt.line(for: option, number: index + 1)
            guard index == highlighted else { return "  " + line }
            return reverseVideo ? "\u{1B}[7m> \(line)\u{1B}[0m" : "> " + line
        }
    }

    /// The line under the options: `?` and the highlighted line's number.
    package var answerLine: String { "?" + (highlighted.map { String($0 + 1) } ?? "") }

    /// Handles one key: the text to write and the outcome.
    package mutating func handle(_ key: Key) -> (output: String, outcome: Outcome) {
        let count = prompt.options.count
        guard let current = highlighted else { return ("", .cancelled) }
        switch key {
        case .character(let character):
            if let digit = character.wholeNumberValue, character.isASCII, (1...count).contains(digit) {
                return (move(to: digit - 1), .pending)
            }
            if character == "q" || character == "Q" {
                return (leave(), .cancelled)
            }
            // Anything else is not an answer: the bell says so, and nothing moves.
            return ("\u{7}", .pending)
        case .up:
            return (move(to: (current + count - 1) % count), .pending)
        case .down:
            return (move(to: (current + 1) % count), .pending)
        case .backspace:
            return ("\u{7}", .pending)
        case .enter:
            return ("\n", .chosen(prompt.options[current]))
        case .escape, .endOfInput:
            return (leave(), .cancelled)
        case .interrupt:
            return (leave(), .interrupted)
        }
    }

    private mutating func move(to index: Int) -> String {
        highlighted = index
        return redraw()
    }

    /// Leaving without a choice: the options drawn again without the highlight (so the screen does not show a
    /// choice that was not made), every attribute reset, and the cursor on a fresh line.
    private mutating func leave() -> String {
        highlighted = nil
        return redraw() + "\u{1B}[0m\n"
    }

    /// Goes up from the `?N` line to the first option line, rewrites every option line and the `?N` line.
    private func redraw() -> String {
        var text = "\r\u{1B}[\(prompt.options.count)A"
        for line in optionLines {
            text += "\r\u{1B}[2K" + line + "\n"
        }
        return text + "\r\u{1B}[2K" + answerLine
    }

    /// Decodes bytes read from a terminal in non-canonical mode into keys (arrow keys in both cursor modes).
    /// An Esc that starts a sequence is read with it; an Esc at the end of `bytes` or before anything else is
    /// the Esc key (the caller waits a moment for the rest of a sequence before calling this).
    package static func keys(from bytes: [UInt8]) -> [Key] {
        var keys: [Key] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x1B {
                guard index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "[") || bytes[index + 1] == UInt8(ascii: "O") else {
                    keys.append(.escape)
                    index += 1
                    continue
                }
                // CSI/SS3: parameters (digits, ';') then one final byte, as in ESC [ 1 ; 5 A.
                var end = index + 2
                while end < bytes.count, (0x30...0x3F).contains(bytes[end]) { end += 1 }
                if end < bytes.count {
                    switch bytes[end] {
                    case UInt8(ascii: "A"): keys.append(.up)
                    case UInt8(ascii: "B"): keys.append(.down)
                    default: break
                    }
                }
                index = end + 1
                continue
            }
            switch byte {
            case 0x03: keys.append(.interrupt)
            case 0x04: keys.append(.endOfInput)
            case 0x08, 0x7F: keys.append(.backspace)
            case UInt8(ascii: "\r"), UInt8(ascii: "\n"): keys.append(.enter)
            case 0x20..<0x7F: keys.append(.character(Character(Unicode.Scalar(byte))))
            default: break
            }
            index += 1
        }
        return keys
    }

    /// Whether `bytes` end in the middle of an escape sequence (a lone Esc, or Esc `[` without its final byte), so
    /// the caller should wait a moment for the rest before decoding.
    package static func endsInsideEscapeSequence(_ bytes: [UInt8]) -> Bool {
        guard let escape = bytes.lastIndex(of: 0x1B) else { return false }
        let rest = bytes[(escape + 1)...]
        guard let first = rest.first else { return true }
        guard first == UInt8(ascii: "[") || first == UInt8(ascii: "O") else { return false }
        return rest.dropFirst().allSatisfy { (0x30...0x3F).contains($0) }
    }
}

import Foundation

/// The ``BumpPrompt`` driven key by key, for a terminal in non-canonical mode: typing a number and Enter works
/// as on a line-based terminal, and the up and down arrows move a highlighted choice (its number is typed for
/// you). It only computes the text to write; the caller owns the terminal, so tests feed keys directly.
///
/// The first screen is exactly ``BumpPrompt/menu``; highlighting appears only once an arrow is pressed.
public struct BumpPromptEditor: Sendable {
    /// A decoded key press.
    public enum Key: Sendable, Equatable {
        case character(Character)
        case enter
        case backspace
        case up
        case down
        /// Ctrl-D on an empty answer.
        case endOfInput
        /// Ctrl-C.
        case interrupt
    }

    /// Where the prompt stands after a key.
    public enum Outcome: Sendable, Equatable {
        case pending
        case chosen(BumpPrompt.Option)
        /// The input ended: nothing is chosen.
        case cancelled
        /// Ctrl-C: nothing is chosen.
        case interrupted
    }

    public let prompt: BumpPrompt
    private var answer = ""
    private var highlighted: Int?
    /// Newlines written since the last option line (the cursor's distance below it).
    private var linesBelowOptions = 1

    /// An editor for `prompt`.
    public init(prompt: BumpPrompt) {
        self.prompt = prompt
    }

    /// The line that says how to answer: arrow keys work here (not in the line-based menu).
    public static let hint = "(↑/↓ to move, Enter to choose, or type a number; Ctrl-C cancels)"

    /// The text to write first: the hint, then the menu.
    public var start: String { Self.hint + "\n" + prompt.menu }

    /// Handles one key: the text to write and the outcome.
    public mutating func handle(_ key: Key) -> (output: String, outcome: Outcome) {
        switch key {
        case .character(let character):
            guard character.isASCII, !character.isNewline, let value = character.asciiValue, value >= 32, value < 127 else {
                return ("", .pending)
            }
            answer.append(character)
            return (String(character), .pending)
        case .backspace:
            guard !answer.isEmpty else { return ("", .pending) }
            answer.removeLast()
            return ("\u{8} \u{8}", .pending)
        case .up, .down:
            let count = prompt.options.count
            let next: Int
            if let current = highlighted {
                next = (current + (key == .down ? 1 : count - 1)) % count
            } else {
                next = key == .down ? 0 : count - 1
            }
            highlighted = next
            answer = String(next + 1)
            let output = redraw()
            linesBelowOptions = 1
            return (output, .pending)
        case .enter:
            let typed = answer.trimmingCharacters(in: .whitespaces)
            answer = ""
            if let number = Int(typed), (1...prompt.options.count).contains(number) {
                return ("\n", .chosen(prompt.options[number - 1]))
            }
            linesBelowOptions += 2
            return ("\n'\(typed)' is not a choice: type a number from 1 to \(prompt.options.count)\n?", .pending)
        case .endOfInput:
            return (clearHighlight() + "\n", .cancelled)
        case .interrupt:
            return (clearHighlight() + "\n", .interrupted)
        }
    }

    /// Leaving without a choice: the options drawn again without the highlight, and every attribute reset, so
    /// the screen does not show a choice that was not made.
    private mutating func clearHighlight() -> String {
        guard highlighted != nil else { return "" }
        highlighted = nil
        return redraw() + "\u{1B}[0m"
    }

    /// Rewrites the option lines with the highlighted one in reverse video, then a fresh `?` line.
    private func redraw() -> String {
        let count = prompt.options.count
        var text = "\r\u{1B}[\(linesBelowOptions + count - 1)A"
        for (index, option) in prompt.options.enumerated() {
            let line = prompt.line(for: option, number: index + 1)
            text += "\r\u{1B}[2K" + (index == highlighted ? "\u{1B}[7m\(line)\u{1B}[0m" : line) + "\n"
        }
        return text + "\u{1B}[J?" + answer
    }

    /// Decodes bytes read from a terminal in non-canonical mode into keys (arrow keys in both cursor modes).
    public static func keys(from bytes: [UInt8]) -> [Key] {
        var keys: [Key] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x1B, index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "[") || bytes[index + 1] == UInt8(ascii: "O") {
                switch bytes[index + 2] {
                case UInt8(ascii: "A"): keys.append(.up)
                case UInt8(ascii: "B"): keys.append(.down)
                default: break
                }
                index += 3
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
}

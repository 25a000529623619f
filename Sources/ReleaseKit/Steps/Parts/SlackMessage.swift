import Foundation

/// A Slack message in Block Kit as an incoming webhook takes it: a notification `text` and the `blocks` shown
/// (https://docs.slack.dev/reference/block-kit/blocks). Encoded with sorted keys, so one message is always the same
/// bytes.
struct SlackMessage: Encodable, Equatable {
    /// One block. Slack's limits are applied when a block is made (header 150 characters, text 3,000).
    enum Block: Encodable, Equatable {
        /// Large bold plain text.
        case header(String)
        /// A paragraph of `mrkdwn`.
        case section(String)
        /// Small grey `mrkdwn` lines.
        case context([String])

        private enum Keys: String, CodingKey { case type, text, elements, emoji }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            switch self {
            case .header(let text):
                try container.encode("header", forKey: .type)
                try container.encode(Text(type: "plain_text", text: SlackMessage.limited(text, 150), emoji: true), forKey: .text)
            case .section(let text):
                try container.encode("section", forKey: .type)
                try container.encode(Text(type: "mrkdwn", text: SlackMessage.limited(text, 3000)), forKey: .text)
            case .context(let lines):
                try container.encode("context", forKey: .type)
                try container.encode(lines.map { Text(type: "mrkdwn", text: SlackMessage.limited($0, 3000)) }, forKey: .elements)
            }
        }
    }

    /// A text object.
    private struct Text: Encodable {
        var type: String
        var text: String
        var emoji: Bool?
    }

    /// What notifications show where blocks are not shown.
    var text: String
    var blocks: [Block]

    /// The request body.
    func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// `text` escaped for `mrkdwn`, where `&`, `<` and `>` are markup (Slack's "escaping text"): escaped, a value
    /// such as `<!channel>` or `<https://evil|Release>` shows as typed instead of notifying the channel or linking.
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }

    /// `url` made safe inside a `<URL|label>` link: escaped like text, and `|` (which would end the URL and start
    /// the label) percent-encoded, so the link's target is the whole value and nothing after it becomes markup.
    static func linkTarget(_ url: String) -> String {
        escaped(url).replacingOccurrences(of: "|", with: "%7C")
    }

    /// At most `limit` characters, the last one `…` when cut.
    static func limited(_ text: String, _ limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }
}

import Foundation
import Testing
import Yams

@testable import ReleaseSupport

/// ``YAMLWriter`` read back with a real YAML parser (Yams, the one the version engine reads XcodeGen specs with),
/// under its default YAML 1.1 resolver, the stricter of the two GitHub's and GitLab's parsers follow: whatever a value
/// holds, it reads back as the same string, and a comment adds no key.
@Suite struct YAMLWriterTests {
    /// Pieces YAML gives a meaning to, glued at random into values.
    static let pieces = [
        "a", "Z", "0", "1.5", "-", ":", ": ", " #", "#", "'", "\"", "\\", "{", "}", "[", "]", ",", "&", "*",
        "!", "|", ">", "%", "@", "`", "?", " ", "\t", "\n", "\r", "\u{85}", "\u{2028}", "\u{1B}", "\0",
        // Never first: Yams reads `"\uFEFF"` (the writer's escape) as the empty string, though the
        // escape is YAML's and PyYAML reads it back as U+FEFF; in the middle of a value Yams keeps it.
        "x\u{FEFF}", "on", "yes", "No", "null", "~", "true", "0x1F", "1e3", ".inf", "é", "🚀", "${{ x }}",
    ]

    @Test func randomValuesReadBackAsTheSameStrings() throws {
        var generator = SplitMix64(seed: 28)
        for round in 0..<300 {
            let value = (0..<Int(generator.next() % 5)).map { _ in
                Self.pieces[Int(generator.next() % UInt64(Self.pieces.count))]
            }.joined()
            var writer = YAMLWriter()
            writer.comment("value \(round): \(value)")
            writer.line(0, "outer:")
            writer.line(1, "key: " + YAMLWriter.scalar(value))
            writer.line(1, "list:")
            writer.line(2, "- " + YAMLWriter.scalar(value))
            let object = try #require(try Yams.load(yaml: writer.text) as? [String: Any], "\(writer.text)")
            #expect(Array(object.keys) == ["outer"], "\(writer.text)")
            let outer = try #require(object["outer"] as? [String: Any], "\(writer.text)")
            #expect(outer["key"] as? String == value, "round \(round): \(writer.text)")
            #expect(outer["list"] as? [String] == [value], "round \(round): \(writer.text)")
        }
    }
}

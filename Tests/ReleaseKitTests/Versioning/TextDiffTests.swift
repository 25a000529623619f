import Testing

@testable import ReleaseSupport

extension VersioningTests {
    @Suite struct TextDiffTests {
        /// Applies a unified diff produced by ``TextDiff`` to `old` (files ending with a newline).
        private func apply(_ diff: String, to old: String) throws -> String {
            var source = old.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            source.removeLast()
            var result: [String] = []
            var position = 0
            for line in diff.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(2).map(String.init) where !line.isEmpty {
                if line.hasPrefix("@@") {
                    let oldPart = line.split(separator: " ")[1].dropFirst()
                    let fields = oldPart.split(separator: ",")
                    let start = try #require(Int(fields[0]))
                    let count = fields.count > 1 ? try #require(Int(fields[1])) : 1
                    let target = count == 0 ? start : start - 1
                    result += source[position..<target]
                    position = target
                } else if line.hasPrefix(" ") {
                    #expect(source[position] == String(line.dropFirst()))
                    result.append(source[position])
                    position += 1
                } else if line.hasPrefix("-") {
                    #expect(source[position] == String(line.dropFirst()))
                    position += 1
                } else if line.hasPrefix("+") {
                    result.append(String(line.dropFirst()))
                }
            }
            result += source[position...]
            return result.map { $0 + "\n" }.joined()
        }

        @Test func randomEditsRoundTrip() throws {
            var generator = SplitMix64(seed: 42)
            for round in 0..<200 {
                let alphabet = ["a", "b", "c", "{", "}", "x = 1;", ""]
                var lines = (0..<Int(generator.next() % 60)).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }
                let old = lines.map { $0 + "\n" }.joined()
                for _ in 0..<Int(generator.next() % 6) {
                    let choice = generator.next() % 3
                    let index = lines.isEmpty ? 0 : Int(generator.next() % UInt64(lines.count))
                    if choice == 0 || lines.isEmpty {
                        lines.insert("new \(round)", at: index)
                    } else if choice == 1 {
                        lines.remove(at: index)
                    } else {
                        lines[index] = "changed \(round)"
                    }
                }
                let new = lines.map { $0 + "\n" }.joined()
                let diff = TextDiff.unified(old: old, new: new, path: "f", context: Int(generator.next() % 4))
                #expect(try apply(diff, to: old) == new, "round \(round):\n\(diff)")
                #expect(diff.isEmpty == (old == new))
            }
        }

        @Test func largeFilesWithDistantChangesGiveSmallHunks() {
            let old = (0..<40_000).map { "\t\t\t\tKEY_\($0 % 97) = value;\n" }.joined()
            var lines = old.split(separator: "\n").map(String.init)
            lines[10] = "changed first"
            lines[39_990] = "changed last"
            let new = lines.map { $0 + "\n" }.joined()
            let diff = TextDiff.unified(old: old, new: new, path: "big")
            #expect(diff.components(separatedBy: "\n@@").count == 3)
            #expect(diff.split(separator: "\n").filter { $0.hasPrefix("-") && !$0.hasPrefix("---") }.count == 2)
            #expect(diff.split(separator: "\n").count == 2 + 2 * 9)
        }
    }
}

/// Unified diffs of text, as `diff -u` and `git diff` print them, for dry runs.
package enum TextDiff {
    /// The unified diff turning `old` into `new`, with `context` unchanged lines around each change, or the
    /// empty string when they are equal. Lines keep their `\r` (CRLF files show it, as `git diff` does); a last
    /// line without a newline gets `\ No newline at end of file`.
    package static func unified(old: String, new: String, path: String, context: Int = 3) -> String {
        if old == new { return "" }
        let a = lines(old), b = lines(new)
        let operations = diff(a.lines, b.lines)
        var output = "--- a/\(path)\n+++ b/\(path)\n"
        for hunk in hunks(operations, context: max(0, context)) {
            let oldStart = hunk.oldCount == 0 ? hunk.oldStart : hunk.oldStart + 1
            let newStart = hunk.newCount == 0 ? hunk.newStart : hunk.newStart + 1
            output += "@@ -\(range(oldStart, hunk.oldCount)) +\(range(newStart, hunk.newCount)) @@\n"
            for operation in operations[hunk.range] {
                switch operation {
                case .same(let oldIndex, _):
                    output += " " + a.lines[oldIndex] + "\n"
                    if oldIndex == a.lines.count - 1, !a.endsWithNewline { output += "\\ No newline at end of file\n" }
                case .delete(let oldIndex):
                    output += "-" + a.lines[oldIndex] + "\n"
                    if oldIndex == a.lines.count - 1, !a.endsWithNewline { output += "\\ No newline at end of file\n" }
                case .insert(let newIndex):
                    output += "+" + b.lines[newIndex] + "\n"
                    if newIndex == b.lines.count - 1, !b.endsWithNewline { output += "\\ No newline at end of file\n" }
                }
            }
        }
        return output
    }

    private enum Operation {
        case same(Int, Int)
        case delete(Int)
        case insert(Int)
    }

    private struct Hunk {
        var range: Range<Int>
        var oldStart: Int
        var oldCount: Int
        var newStart: Int
        var newCount: Int
    }

    private static func range(_ start: Int, _ count: Int) -> String {
        count == 1 ? "\(start)" : "\(start),\(count)"
    }

    /// Splits on `\n` bytes: `\r\n` is one `Character` in Swift, so splitting the `String` would not see CRLF lines.
    private static func lines(_ text: String) -> (lines: [String], endsWithNewline: Bool) {
        let bytes = Array(text.utf8)
        if bytes.isEmpty { return ([], true) }
        var parts = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        let endsWithNewline = bytes.last == UInt8(ascii: "\n")
        if endsWithNewline { parts.removeLast() }
        return (parts, endsWithNewline)
    }

    /// A shortest edit script: common prefix and suffix first, then the standard library's
    /// `difference(from:)` (Myers' O((N+M)·D) algorithm) on the rest, deletions before insertions at each change.
    /// It remembers about D²/2 positions and cannot be stopped, so it runs only when an edit script of at most
    /// 8,000 lines is known to exist (``editBound(_:_:)``: a version bump changes a few lines of a long file);
    /// otherwise the middle is replaced wholesale, which is still a correct diff.
    private static func diff(_ a: [String], _ b: [String]) -> [Operation] {
        var prefix = 0
        while prefix < a.count, prefix < b.count, a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix, suffix < b.count - prefix, a[a.count - 1 - suffix] == b[b.count - 1 - suffix] {
            suffix += 1
        }
        var operations: [Operation] = (0..<prefix).map { .same($0, $0) }
        let oldMiddle = a[prefix..<(a.count - suffix)], newMiddle = b[prefix..<(b.count - suffix)]
        var removed = Set<Int>(), inserted = Set<Int>()
        if editBound(oldMiddle, newMiddle) <= 8_000 {
            for change in newMiddle.difference(from: oldMiddle) {
                switch change {
                case .remove(let offset, _, _): removed.insert(prefix + offset)
                case .insert(let offset, _, _): inserted.insert(prefix + offset)
                }
            }
        } else {
            removed = Set(oldMiddle.indices)
            inserted = Set(newMiddle.indices)
        }
        var x = prefix, y = prefix
        while x < a.count - suffix || y < b.count - suffix {
            if removed.contains(x) {
                operations.append(.delete(x))
                x += 1
            } else if inserted.contains(y) {
                operations.append(.insert(y))
                y += 1
            } else {
                operations.append(.same(x, y))
                x += 1
                y += 1
            }
        }
        operations += (0..<suffix).map { .same(a.count - suffix + $0, b.count - suffix + $0) }
        return operations
    }

    /// The length of some edit script from `a` to `b`, so at least the shortest one's: equal lines kept, a
    /// mismatch resynchronised by deleting or inserting up to 64 lines when that meets an equal line, else one
    /// line replaced. Linear time; exact enough to tell a few edits from a rewrite.
    private static func editBound(_ a: ArraySlice<String>, _ b: ArraySlice<String>) -> Int {
        var x = a.startIndex, y = b.startIndex, edits = 0
        while x < a.endIndex, y < b.endIndex {
            if a[x] == b[y] {
                x += 1
                y += 1
                continue
            }
            var skip = 0
            for distance in 1...64 {
                if x + distance < a.endIndex, a[x + distance] == b[y] { skip = distance; x += distance; break }
                if y + distance < b.endIndex, a[x] == b[y + distance] { skip = distance; y += distance; break }
            }
            if skip == 0 {
                edits += 2
                x += 1
                y += 1
            } else {
                edits += skip
            }
        }
        return edits + (a.endIndex - x) + (b.endIndex - y)
    }

    private static func hunks(_ operations: [Operation], context: Int) -> [Hunk] {
        let changes = operations.indices.filter {
            if case .same = operations[$0] { return false }
            return true
        }
        guard !changes.isEmpty else { return [] }
        var groups: [Range<Int>] = []
        var start = max(0, changes[0] - context)
        var end = min(operations.count, changes[0] + context + 1)
        for index in changes.dropFirst() {
            if index - context <= end {
                end = min(operations.count, index + context + 1)
            } else {
                groups.append(start..<end)
                start = max(0, index - context)
                end = min(operations.count, index + context + 1)
            }
        }
        groups.append(start..<end)

        return groups.map { range in
            // Positions before the hunk: count old and new lines consumed by earlier operations.
            var oldStart = 0, newStart = 0
            for operation in operations[..<range.lowerBound] {
                switch operation {
                case .same: oldStart += 1; newStart += 1
                case .delete: oldStart += 1
                case .insert: newStart += 1
                }
            }
            var oldCount = 0, newCount = 0
            for operation in operations[range] {
                switch operation {
                case .same: oldCount += 1; newCount += 1
                case .delete: oldCount += 1
                case .insert: newCount += 1
                }
            }
            return Hunk(range: range, oldStart: oldStart, oldCount: oldCount, newStart: newStart, newCount: newCount)
        }
    }
}

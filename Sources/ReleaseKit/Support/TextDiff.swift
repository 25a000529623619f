/// Unified diffs of text, as `diff -u` and `git diff` print them, for dry runs.
public enum TextDiff {
    /// The unified diff turning `old` into `new`, with `context` unchanged lines around each change, or the
    /// empty string when they are equal. Lines keep their `\r` (CRLF files show it, as `git diff` does); a last
    /// line without a newline gets `\ No newline at end of file`.
    public static func unified(old: String, new: String, path: String, context: Int = 3) -> String {
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

    /// A shortest edit script: common prefix and suffix first, then Myers' O((N+M)·D) algorithm on the rest
    /// (a version bump changes a few lines of a long file, so D is small). Past a size limit the middle is
    /// replaced wholesale, which is still a correct diff.
    private static func diff(_ a: [String], _ b: [String]) -> [Operation] {
        var prefix = 0
        while prefix < a.count, prefix < b.count, a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix, suffix < b.count - prefix, a[a.count - 1 - suffix] == b[b.count - 1 - suffix] {
            suffix += 1
        }
        var operations: [Operation] = (0..<prefix).map { .same($0, $0) }
        let oldMiddle = Array(a[prefix..<(a.count - suffix)]), newMiddle = Array(b[prefix..<(b.count - suffix)])
        if let middle = myers(oldMiddle, newMiddle) {
            operations += middle.map { operation in
                switch operation {
                case .same(let x, let y): return .same(prefix + x, prefix + y)
                case .delete(let x): return .delete(prefix + x)
                case .insert(let y): return .insert(prefix + y)
                }
            }
        } else {
            operations += oldMiddle.indices.map { .delete(prefix + $0) }
            operations += newMiddle.indices.map { .insert(prefix + $0) }
        }
        operations += (0..<suffix).map { .same(a.count - suffix + $0, b.count - suffix + $0) }
        return operations
    }

    /// Myers' greedy shortest edit script, deletions before insertions; `nil` when it would need more than
    /// about 32 million remembered positions.
    private static func myers(_ a: [String], _ b: [String]) -> [Operation]? {
        let n = a.count, m = b.count
        if n == 0 { return (0..<m).map { .insert($0) } }
        if m == 0 { return (0..<n).map { .delete($0) } }
        let limit = n + m
        let offset = limit + 1
        var v = [Int](repeating: 0, count: 2 * limit + 3)
        var trace: [[Int]] = []
        var remembered = 0
        var found: Int?
        search: for d in 0...limit {
            trace.append(v)
            remembered += v.count
            if remembered > 32_000_000 { return nil }
            for k in stride(from: -d, through: d, by: 2) {
                var x = (k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]))
                    ? v[offset + k + 1]
                    : v[offset + k - 1] + 1
                var y = x - k
                while x < n, y < m, a[x] == b[y] {
                    x += 1
                    y += 1
                }
                v[offset + k] = x
                if x >= n, y >= m {
                    found = d
                    break search
                }
            }
        }
        guard let distance = found else { return nil }
        var operations: [Operation] = []
        var x = n, y = m
        for d in stride(from: distance, to: 0, by: -1) {
            let previous = trace[d]
            let k = x - y
            let previousK = (k == -d || (k != d && previous[offset + k - 1] < previous[offset + k + 1])) ? k + 1 : k - 1
            let previousX = previous[offset + previousK]
            let previousY = previousX - previousK
            while x > previousX, y > previousY {
                operations.append(.same(x - 1, y - 1))
                x -= 1
                y -= 1
            }
            if x == previousX {
                operations.append(.insert(y - 1))
                y -= 1
            } else {
                operations.append(.delete(x - 1))
                x -= 1
            }
        }
        while x > 0, y > 0 {
            operations.append(.same(x - 1, y - 1))
            x -= 1
            y -= 1
        }
        return operations.reversed()
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

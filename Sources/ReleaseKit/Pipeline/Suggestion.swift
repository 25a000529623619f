/// "Did you mean" suggestions by edit distance.
package enum Suggestion {
    /// The candidate closest to `word`, if it is close enough to be a likely typo.
    package static func closest(to word: String, in candidates: some Sequence<String>) -> String? {
        // The distance is at least the difference in length: a name much longer than every candidate (a
        // 60,000-character variable) is never compared, so a suggestion costs at most candidate-sized work.
        let length = word.count
        guard length <= maximumLength else { return nil }
        var lowered: String?
        var best: (String, Int)?
        for candidate in candidates {
            let limit = max(1, min(3, candidate.count / 3))
            guard abs(length - candidate.count) <= limit, candidate.count <= maximumLength else { continue }
            if lowered == nil { lowered = word.lowercased() }
            let distance = editDistance(lowered!, candidate.lowercased())
            if distance <= limit, distance < (best?.1 ?? Int.max) { best = (candidate, distance) }
        }
        return best?.0
    }

    /// Names longer than this get no suggestion: nobody mistypes a 100-character name, and comparing two long
    /// names costs the product of their lengths.
    static let maximumLength = 100

    /// ` (did you mean 'x'?)` or the empty string.
    package static func hint(for word: String, in candidates: some Sequence<String>) -> String {
        closest(to: word, in: candidates).map { " (did you mean '\($0)'?)" } ?? ""
    }

    /// Damerau–Levenshtein (optimal string alignment) distance: a swapped pair of letters costs one.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}

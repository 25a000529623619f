/// Splits a child process's output stream into lines, in time linear in its length and with bounded memory.
///
/// Bytes arrive in chunks of any size; a line is delivered when its line break arrives, so a line a child writes
/// in several pieces (a secret among them) is still one line for the masker. Each byte is looked at once: the search
/// for the next line break starts where the previous one ended, not at the start of the pending line (which made one
/// 80 MB line cost 14 seconds).
///
/// A line longer than ``maximumLineLength`` is delivered in pieces, so a child that never writes a line break cannot
/// fill the memory. With a masker, a piece ends where no secret spans the cut: the bytes around the cut mask the same
/// whole and in two parts. That holds for any secret of up to ``secretWindow`` bytes, which are kept back until more
/// output (or the end of the stream) shows what follows them.
struct LineSplitter {
    /// The longest line kept whole.
    static let maximumLineLength = 1 << 20
    /// The longest secret a cut in a long line is guaranteed not to split.
    static let secretWindow = 16 << 10

    private let limit: Int
    private let window: Int
    private let masker: SecretMasker?
    /// The start of the current line, not yet delivered.
    private var pending: [UInt8] = []
    /// How many bytes of `pending` are known to hold no line break.
    private var scanned = 0

    /// - Parameters:
    ///   - masker: The secrets a cut in a long line must not split; nil cuts anywhere.
    ///   - limit: The longest line kept whole (smaller in tests).
    ///   - window: The longest secret a cut is guaranteed not to split.
    init(masker: SecretMasker? = nil, limit: Int = maximumLineLength, window: Int = secretWindow) {
        self.masker = masker
        self.limit = max(limit, 2 * window + 4)
        self.window = window
    }

    /// Takes more output and delivers every line it completes (without its line break), and the pieces of any line
    /// longer than the limit.
    mutating func append(_ bytes: UnsafeRawBufferPointer, deliver: (ArraySlice<UInt8>) -> Void) {
        pending.append(contentsOf: bytes)
        var start = 0
        var index = scanned
        while true {
            let newline = pending[index...].firstIndex(of: 0x0A)
            let end = newline ?? pending.count
            // Past the limit, the line (or the line so far) goes out in pieces first.
            while end - start > limit {
                let cut = cutPoint(from: start, before: end)
                deliver(pending[start..<cut])
                start = cut
            }
            guard let newline else { break }
            deliver(pending[start..<newline])
            start = newline + 1
            index = start
        }
        // Left: at most the limit, the end of a line that has no line break yet.
        if start > 0 { pending.removeFirst(start) }
        scanned = pending.count
    }

    /// Delivers what is left at the end of the stream, if anything.
    mutating func finish(deliver: (ArraySlice<UInt8>) -> Void) {
        if !pending.isEmpty { deliver(pending[...]) }
        pending = []
        scanned = 0
    }

    /// Where to cut the line `pending[start..<end]`: a character boundary at most the limit after `start` and at
    /// least ``secretWindow`` bytes before `end` (whose bytes are all known), moved back while a secret spans it.
    private func cutPoint(from start: Int, before end: Int) -> Int {
        let first = boundary(atOrBefore: min(start + limit, end - window), after: start)
        guard let masker, !masker.isEmpty else { return first }
        var candidate = first
        var step = 1
        // A secret spanning the cut starts less than `window` bytes before it: steps of 1, 2, 4, … reach its start.
        while first - candidate < window {
            if !spansSecret(at: candidate, from: start, before: end, masker) { return candidate }
            candidate = boundary(atOrBefore: first - step, after: start)
            step *= 2
        }
        return first
    }

    /// Whether a secret spans byte `cut` of the line `pending[start..<end]`: the bytes around it mask differently
    /// whole and cut in two.
    private func spansSecret(at cut: Int, from start: Int, before end: Int, _ masker: SecretMasker) -> Bool {
        let lower = max(start, cut - window), upper = min(end, cut + window)
        let before = String(decoding: pending[lower..<cut], as: UTF8.self)
        let after = String(decoding: pending[cut..<upper], as: UTF8.self)
        return masker.mask(before) + masker.mask(after) != masker.mask(before + after)
    }

    /// `offset`, or the start of the UTF-8 character it falls in, but past `start`, so a cut never splits a character
    /// and always delivers something.
    private func boundary(atOrBefore offset: Int, after start: Int) -> Int {
        var index = max(start + 1, offset)
        while index > start + 1, pending[index] & 0xC0 == 0x80 { index -= 1 }
        return index
    }
}

import Foundation
import Synchronization

/// Replaces every known secret with `***` in any text that leaves the process.
///
/// Each secret is masked in the forms it travels in (see ``forms(of:)``): as is, JSON-escaped, percent-encoded
/// (URLs, form bodies) and base64 (Basic authentication), so a token cannot leak through an encoding either.
/// A secret of several lines (a PEM key) is also masked line by line, as GitHub Actions does, because output is
/// split into lines before it is masked. Matching works on UTF-8 bytes, not on `Character`s: a secret followed
/// by a combining mark (which joins the secret's last character into another grapheme) is still found.
package final class SecretMasker: Sendable {
    /// The replacement text.
    package static let mask = "***"

    /// The fewest characters a line of a multi-line secret must have (blanks around it not counted) to be masked
    /// on its own: shorter lines (a PEM body's last `==`, a lone `}` of a JSON key) would mask common text
    /// everywhere and tell little about the secret.
    package static let minimumLineLength = 4

    private let patterns = Mutex<Patterns>(Patterns())

    /// Every form of every secret as UTF-8, bucketed by first byte, longest first in each bucket.
    private struct Patterns {
        var all: Set<[UInt8]> = []
        var buckets: [[[UInt8]]] = Array(repeating: [], count: 256)
        /// Whether any pattern starts with the byte: checked for every byte of the text before its bucket is.
        var starts = [Bool](repeating: false, count: 256)

        mutating func insert(_ forms: Set<String>) {
            var changed = false
            for form in forms where !form.isEmpty { changed = all.insert(Array(form.utf8)).inserted || changed }
            guard changed else { return }
            buckets = Array(repeating: [], count: 256)
            for pattern in all {
                buckets[Int(pattern[0])].append(pattern)
                starts[Int(pattern[0])] = true
            }
            for index in buckets.indices where buckets[index].count > 1 {
                buckets[index].sort { $0.count != $1.count ? $0.count > $1.count : $0.lexicographicallyPrecedes($1) }
            }
        }
    }

    package init(secrets: [String] = []) {
        for secret in secrets { add(secret) }
    }

    /// Registers a secret. Trailing line breaks are dropped first (a pasted token often ends in `\n` or `\r\n`).
    /// Empty and whitespace-only values are ignored: masking them would mask everything. A value of several lines
    /// is registered whole and each of its lines on its own (see ``lines(of:)``).
    package func add(_ secret: String) {
        var scalars = Substring(secret).unicodeScalars
        while let last = scalars.last, last == "\n" || last == "\r" { scalars.removeLast() }
        let value = String(Substring(scalars))
        guard !value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return }
        var forms = Self.forms(of: value)
        for line in Self.lines(of: value) { forms.formUnion(Self.forms(of: line)) }
        // A secret URL's host on its own: a transport error names it alone ("Could not resolve host: …").
        if let host = Self.urlHost(of: value) { forms.formUnion(Self.forms(of: host)) }
        patterns.withLock { $0.insert(forms) }
    }

    /// The lines of a multi-line value that are masked on their own: split at `\n`, `\r\n` and `\r`, blanks around
    /// each line trimmed, lines shorter than ``minimumLineLength`` left out. Empty for a value of one line.
    static func lines(of value: String) -> [String] {
        let parts = value.unicodeScalars.split(whereSeparator: { $0 == "\n" || $0 == "\r" })
        guard parts.count > 1 else { return [] }
        return parts.compactMap { part in
            let line = String(Substring(part)).trimmingCharacters(in: .whitespaces)
            return line.unicodeScalars.count >= minimumLineLength ? line : nil
        }
    }

    /// The spellings a secret takes on its way out: as is; JSON-escaped (reports, JSON logs); percent-encoded
    /// with upper- and lower-case hex, for RFC 3986's unreserved set, for query strings and for forms (space as
    /// `+`); base64 alone and inside a longer base64 text such as `user:secret` in a Basic-auth header.
    static func forms(of secret: String) -> Set<String> {
        var forms: Set<String> = [secret, JSONEscape.string(secret), JSONEscape.string(secret, slash: true)]
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        for allowed in [CharacterSet.alphanumerics, unreserved, .urlQueryAllowed, .urlPathAllowed] {
            guard let encoded = secret.addingPercentEncoding(withAllowedCharacters: allowed) else { continue }
            forms.insert(encoded)
            forms.insert(lowercasingPercentEscapes(encoded))
            if secret.contains(" ") {
                let form = encoded.replacingOccurrences(of: "%20", with: "+")
                forms.insert(form)
                forms.insert(lowercasingPercentEscapes(form))
            }
        }
        forms.formUnion(base64Forms(of: Array(secret.utf8)))
        return forms.filter { !$0.isEmpty }
    }

    /// Base64 of the secret at each of the three byte alignments it can have inside a longer encoded text (after
    /// `user:` in `user:secret`, say): only the characters that depend on the secret's bytes alone, which is
    /// what appears whatever surrounds it. Also the whole padded encoding of the secret by itself.
    static func base64Forms(of bytes: [UInt8]) -> Set<String> {
        var forms: Set<String> = [Data(bytes).base64EncodedString()]
        for offset in 0..<3 {
            let encoded = Array(Data([UInt8](repeating: 0, count: offset) + bytes).base64EncodedString().utf8)
            // Character i covers bits 6i..<6i+6 of the input; keep those inside the secret's bits.
            let first = (8 * offset + 5) / 6
            let end = (8 * (offset + bytes.count)) / 6
            guard end - first >= 8 else { continue }  // too short to be safe to mask everywhere
            forms.insert(String(decoding: encoded[first..<end], as: UTF8.self))
        }
        return forms
    }

    private static func lowercasingPercentEscapes(_ text: String) -> String {
        var out = ""
        var escape = 0
        for character in text {
            if character == "%" { escape = 2; out.append(character); continue }
            if escape > 0 { escape -= 1; out += character.lowercased(); continue }
            out.append(character)
        }
        return out
    }

    /// Whether any secret is registered.
    package var isEmpty: Bool { patterns.withLock { $0.all.isEmpty } }

    /// The host of a secret that is an http(s) URL (a webhook), when it is long enough to be masked on its own and can
    /// carry a token: an IP address or `localhost` names a machine, not a secret, and masking it would hide every URL
    /// of that machine (every local stand-in of a rehearsal).
    static func urlHost(of value: String) -> String? {
        guard !value.contains(where: \.isWhitespace), let components = URLComponents(string: value),
            ["http", "https"].contains(components.scheme?.lowercased() ?? ""), let host = components.host,
            host.count >= minimumLineLength, host.lowercased() != "localhost",
            !host.contains(":"), !host.allSatisfy({ $0.isNumber || $0 == "." })
        else { return nil }
        return host
    }

    /// `text` with every secret replaced by `***`.
    ///
    /// One pass over the UTF-8 bytes: at each position the longest form starting there is found, and overlapping
    /// matches (two secrets sharing characters) are masked as one run, so no part of either is left. Matches that
    /// merely touch each get their own `***`.
    package func mask(_ text: String) -> String {
        mask(text, shortest: 0)
    }

    /// `text` masked with the forms of at least `shortest` bytes only.
    private func mask(_ text: String, shortest: Int) -> String {
        let current = patterns.withLock { $0 }
        guard !current.all.isEmpty else { return text }
        var text = text
        return text.withUTF8 { bytes -> String? in
            let count = bytes.count
            var out: [UInt8] = []
            var copied = 0  // bytes before this index are in `out`, or masked
            var end = 0  // end of the masked run
            var masked = false
            for index in 0..<count where current.starts[Int(bytes[index])] {
                for pattern in current.buckets[Int(bytes[index])]
                where pattern.count >= shortest && pattern.count <= count - index && Self.matches(pattern, bytes, at: index) {
                    if index >= end {
                        if !masked { out.reserveCapacity(count); masked = true }
                        out.append(contentsOf: bytes[copied..<index])
                        out.append(contentsOf: Self.mask.utf8)
                    }
                    end = max(end, index + pattern.count)
                    copied = end
                    break
                }
            }
            guard masked else { return nil }
            out.append(contentsOf: bytes[copied..<count])
            return String(decoding: out, as: UTF8.self)
        } ?? text
    }

    private static func matches(_ pattern: [UInt8], _ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        pattern.withUnsafeBufferPointer { pattern in
            var offset = 1  // the bucket already matched the first byte
            while offset < pattern.count {
                if pattern[offset] != bytes[index + offset] { return false }
                offset += 1
            }
            return true
        }
    }

    /// `text` masked, then cut to its first `limit` characters. In that order: cut first, a secret straddling the
    /// cut would lose its last characters, no longer be recognised, and leave the rest in clear.
    package func mask(_ text: String, limit: Int) -> String {
        String(mask(text).prefix(max(0, limit)))
    }

    /// `arguments` as a shell command line (``ShellQuoting``) with every secret masked: each argument is masked
    /// before it is quoted, since quoting changes how a secret with a quote or a space in it is spelled. The `***`
    /// placeholder itself is not a reason to quote a word (`--token=***`, not `'--token=***'`).
    package func commandLine(_ arguments: [String]) -> String {
        let words = arguments.map { argument -> String in
            let masked = mask(argument)
            guard masked != argument else { return ShellQuoting.quote(argument) }
            let pieces = masked.components(separatedBy: Self.mask)
            let plain = pieces.allSatisfy { $0.isEmpty || ShellQuoting.quote($0) == $0 }
            return plain ? masked : ShellQuoting.quote(masked)
        }
        return mask(words.joined(separator: " "))
    }

    /// A JSON object tree (of the kind ``JSONWriter`` writes) with every string in it masked.
    ///
    /// Masking acts on string values, never on the JSON text: a secret such as `false` or `1` would otherwise be
    /// replaced inside the document's syntax and make it invalid. Numbers, booleans and null stay as they are. Keys
    /// are masked only by secrets of at least ``minimumLineLength`` bytes: a one-letter secret turned the report's
    /// `pipeline` into `pip***lin***` (and keys that mask alike would collide), while a key holding a real token (an
    /// output a step named after one) is still masked.
    package func maskStrings(in object: Any) -> Any {
        guard !isEmpty else { return object }
        switch object {
        case let text as String:
            return mask(text)
        case let dictionary as [String: Any]:
            var masked: [String: Any] = [:]
            masked.reserveCapacity(dictionary.count)
            for (key, value) in dictionary { masked[mask(key, shortest: Self.minimumLineLength)] = maskStrings(in: value) }
            return masked
        case let array as [Any]:
            return array.map { maskStrings(in: $0) }
        default:
            return object
        }
    }
}

import Foundation

/// One change as release notes list it: a commit, or the merge commit of a pull request, read the way
/// Conventional Commits 1.0 reads a message (`type(scope)!: description`, a `BREAKING CHANGE:` footer) and with the
/// pull request number and `Co-authored-by:` trailers picked out.
struct NotesCommit: Sendable, Equatable {
    /// The full commit id.
    var sha: String
    /// The Conventional Commit type, lower-case (`feat`, `fix`); nil when the subject is not of that form.
    var type: String?
    /// The scope in parentheses, when there is one.
    var scope: String?
    /// What changed: the subject without its type, scope and pull request suffix. For a commit that is not
    /// conventional, the whole subject.
    var description: String
    /// `feat!:` or a `BREAKING CHANGE:` footer.
    var breaking: Bool
    /// The text of the `BREAKING CHANGE:` footer, which says what breaks better than the subject does.
    var breakingNote: String?
    /// `(#123)` at the end of a squashed subject, or `Merge pull request #123 from …`.
    var pullRequest: Int?
    /// Names from `Co-authored-by: Name <email>` trailers (the addresses are left out of public notes).
    var coAuthors: [String]

    /// Reads a commit message. A merged pull request (`Merge pull request #12 from owner/branch`) is described by
    /// the pull request's title, which GitHub puts in the merge commit's body.
    init(sha: String, message: String) {
        self.sha = sha
        let lines = message.split(separator: "\n", omittingEmptySubsequences: false).map {
            String($0).trimmingCharacters(in: .whitespaces)
        }
        var subject = lines.first ?? ""
        var body = Array(lines.dropFirst())
        pullRequest = nil
        if let number = Self.mergedPullRequest(subject) {
            pullRequest = number
            if let index = body.firstIndex(where: { !$0.isEmpty && !Self.isTrailer($0) }) {
                subject = body[index]
                body.remove(at: index)
            }
        }
        if pullRequest == nil, let (rest, number) = Self.pullRequestSuffix(subject) {
            subject = rest
            pullRequest = number
        }
        type = nil
        scope = nil
        description = subject
        breaking = false
        if let header = Self.conventionalHeader(subject) {
            type = header.type
            scope = header.scope
            description = header.description
            breaking = header.breaking
        }
        breakingNote = nil
        coAuthors = []
        var index = 0
        while index < body.count {
            let line = body[index]
            if let note = Self.value(of: line, keys: ["BREAKING CHANGE:", "BREAKING-CHANGE:"], caseSensitive: true) {
                var text = note
                while index + 1 < body.count, !body[index + 1].isEmpty, !Self.isTrailer(body[index + 1]) {
                    index += 1
                    text += " " + body[index]
                }
                breaking = true
                if !text.isEmpty { breakingNote = text }
            } else if let author = Self.value(of: line, keys: ["Co-authored-by:"], caseSensitive: false) {
                let name = author.split(separator: "<").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? author
                if !name.isEmpty, !coAuthors.contains(name) { coAuthors.append(name) }
            }
            index += 1
        }
    }

    /// The number in `Merge pull request #12 from owner/branch`.
    static func mergedPullRequest(_ subject: String) -> Int? {
        let prefix = "Merge pull request #"
        guard subject.hasPrefix(prefix) else { return nil }
        return Int(subject.dropFirst(prefix.count).prefix { $0.isNumber })
    }

    /// A subject ending in `(#123)` (GitHub's squash merges) without it, and the number.
    static func pullRequestSuffix(_ subject: String) -> (String, Int)? {
        guard subject.hasSuffix(")"), let open = subject.range(of: "(#", options: .backwards) else { return nil }
        let digits = subject[open.upperBound..<subject.index(before: subject.endIndex)]
        guard !digits.isEmpty, digits.allSatisfy(\.isNumber), let number = Int(digits) else { return nil }
        return (subject[..<open.lowerBound].trimmingCharacters(in: .whitespaces), number)
    }

    /// `type(scope)!: description` split up; nil when the subject is not of that form.
    static func conventionalHeader(_ subject: String) -> (type: String, scope: String?, breaking: Bool, description: String)? {
        guard let colon = subject.range(of: ": ") else { return nil }
        var head = Substring(subject[..<colon.lowerBound])
        let description = subject[colon.upperBound...].trimmingCharacters(in: .whitespaces)
        let breaking = head.hasSuffix("!")
        if breaking { head = head.dropLast() }
        var scope: String?
        if head.hasSuffix(")"), let open = head.firstIndex(of: "(") {
            scope = String(head[head.index(after: open)..<head.index(before: head.endIndex)])
            head = head[..<open]
        }
        guard !head.isEmpty, head.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }), !description.isEmpty,
            scope.map({ !$0.isEmpty && !$0.contains("(") }) ?? true
        else { return nil }
        return (head.lowercased(), scope, breaking, description)
    }

    /// Whether a body line is a git trailer this reader knows (they end a pull request's title search).
    static func isTrailer(_ line: String) -> Bool {
        value(of: line, keys: ["Co-authored-by:", "Signed-off-by:"], caseSensitive: false) != nil
    }

    private static func value(of line: String, keys: [String], caseSensitive: Bool) -> String? {
        for key in keys {
            let matches = caseSensitive ? line.hasPrefix(key) : line.lowercased().hasPrefix(key.lowercased())
            if matches { return String(line.dropFirst(key.count)).trimmingCharacters(in: .whitespaces) }
        }
        return nil
    }
}

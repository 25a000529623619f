import Foundation

/// Release notes from the changes since the previous release, as Markdown (a GitHub Release body) and as plain text
/// (TestFlight's "What to Test", at most 4,000 characters).
///
/// When most changes follow Conventional Commits, they are grouped: breaking changes first, then features, bug
/// fixes, performance, and everything else; otherwise they are one list, newest first. Pull request numbers link to
/// the pull request when the repository is known.
struct ReleaseNotes: Sendable, Equatable {
    /// The changes, newest first.
    var commits: [NotesCommit]
    /// `owner/name` on GitHub, for pull request links; nil writes `#123` without a link.
    var repository: String?
    /// The web host of `repository`.
    var webURL = "https://github.com"
    /// The tag the changes start after; nil when there was none (the notes cover the whole history).
    var previousTag: String?

    /// The sections in the order they appear, with the Conventional Commit types each takes.
    static let sections: [(title: String, types: Set<String>)] = [
        ("Features", ["feat"]),
        ("Bug fixes", ["fix"]),
        ("Performance", ["perf"]),
    ]

    /// Whether the changes are grouped: at least half of them are Conventional Commits.
    var isGrouped: Bool {
        !commits.isEmpty && commits.filter { $0.type != nil }.count * 2 >= commits.count
    }

    /// The notes as sections of entries: grouped by kind of change, or one untitled section.
    func groups() -> [(title: String?, entries: [NotesCommit])] {
        guard isGrouped else { return commits.isEmpty ? [] : [(nil, commits)] }
        var groups: [(title: String?, entries: [NotesCommit])] = [("Breaking changes", commits.filter(\.breaking))]
        var listed = Set(commits.filter(\.breaking).map(\.sha))
        for section in Self.sections {
            let entries = commits.filter { !listed.contains($0.sha) && section.types.contains($0.type ?? "") }
            listed.formUnion(entries.map(\.sha))
            groups.append((section.title, entries))
        }
        groups.append(("Other changes", commits.filter { !listed.contains($0.sha) }))
        return groups.filter { !$0.entries.isEmpty }
    }

    /// What is said when there is nothing to list.
    var emptyText: String {
        previousTag.map { "No changes since \($0)." } ?? "No changes."
    }

    // MARK: Markdown

    /// The notes as Markdown: `### Section` headings and `- ` entries, pull requests linked.
    func markdown() -> String {
        let groups = groups()
        guard !groups.isEmpty else { return emptyText + "\n" }
        var blocks: [String] = []
        for group in groups {
            let entries = group.entries.map { "- " + entry($0, grouped: group.title != nil, markdown: true) }.joined(separator: "\n")
            blocks.append((group.title.map { "### \($0)\n" } ?? "") + entries)
        }
        return blocks.joined(separator: "\n\n") + "\n"
    }

    /// One entry's text. In a grouped list the type goes (its section says it) except under "Other changes", where
    /// it is all there is to say what kind of change it was; the scope stays, in bold in Markdown.
    func entry(_ commit: NotesCommit, grouped: Bool, markdown: Bool) -> String {
        var text: String
        if grouped, commit.type != nil {
            let isOther = !commit.breaking && !Self.sections.contains { $0.types.contains(commit.type ?? "") }
            text = commit.breaking ? (commit.breakingNote ?? commit.description) : commit.description
            if let scope = commit.scope { text = (markdown ? "**\(scope):** " : "\(scope): ") + text }
            if isOther, let type = commit.type { text = "\(type): " + text }
        } else {
            text = Self.subject(commit)
        }
        if let number = commit.pullRequest {
            if markdown, let repository {
                text += " ([#\(number)](\(webURL)/\(repository)/pull/\(number)))"
            } else {
                text += " (#\(number))"
            }
        }
        if !commit.coAuthors.isEmpty {
            text += ", co-authored by " + commit.coAuthors.joined(separator: ", ")
        }
        return text
    }

    /// The subject as written (type and scope included), for an ungrouped list.
    static func subject(_ commit: NotesCommit) -> String {
        guard let type = commit.type else { return commit.description }
        return type + (commit.scope.map { "(\($0))" } ?? "") + (commit.breaking ? "!" : "") + ": " + commit.description
    }

    // MARK: Plain text

    /// The notes as plain text (`Section:` lines and `- ` entries), cut to `limit` characters at a whole entry with a
    /// note saying how many were left out.
    func text(limit: Int) -> String {
        let groups = groups()
        guard !groups.isEmpty else { return emptyText }
        var lines: [String] = []
        for group in groups {
            if !lines.isEmpty { lines.append("") }
            if let title = group.title { lines.append(title + ":") }
            lines += group.entries.map { "- " + entry($0, grouped: group.title != nil, markdown: false) }
        }
        return Self.fit(lines, limit: limit)
    }

    /// Plain text from Markdown (GitHub's generated notes): headings become `Heading:`, `*` bullets `-`, links their
    /// text, bold and code marks go. Then cut to `limit` like ``text(limit:)``.
    static func plainText(fromMarkdown markdown: String, limit: Int) -> String {
        var lines: [String] = []
        for raw in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = String(raw).trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("#") {
                line = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
                if !line.isEmpty, !line.hasSuffix(":") { line += ":" }
            } else if line.hasPrefix("* ") || line.hasPrefix("+ ") {
                line = "- " + line.dropFirst(2)
            }
            line = Self.unlinked(line).replacingOccurrences(of: "**", with: "").replacingOccurrences(of: "`", with: "")
            if line.isEmpty, lines.last?.isEmpty ?? true { continue }
            lines.append(line)
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return fit(lines, limit: limit)
    }

    /// `[text](url)` → `text`.
    static func unlinked(_ line: String) -> String {
        var result = ""
        var rest = Substring(line)
        while let open = rest.firstIndex(of: "["), let close = rest[open...].range(of: "]("),
            let end = rest[close.upperBound...].firstIndex(of: ")")
        {
            result += rest[..<open] + rest[rest.index(after: open)..<close.lowerBound]
            rest = rest[rest.index(after: end)...]
        }
        return result + rest
    }

    /// The lines joined, within `limit` UTF-16 units (how Apple counts): when they do not fit, entries (`- ` lines)
    /// are left out from the end, headings left without entries with them, and a last line says how many went.
    static func fit(_ lines: [String], limit: Int) -> String {
        let whole = lines.joined(separator: "\n")
        guard whole.utf16.count > limit else { return whole }
        var kept = lines
        var dropped = 0
        func note() -> String { "… and \(dropped) more change\(dropped == 1 ? "" : "s"), left out to stay within \(limit) characters." }
        func total() -> Int { kept.joined(separator: "\n").utf16.count + 2 + note().utf16.count }
        while !kept.isEmpty, total() > limit {
            let line = kept.removeLast()
            if line.hasPrefix("- ") { dropped += 1 }
            // A heading or blank line left at the end has nothing under it any more.
            while let last = kept.last, last.isEmpty || last.hasSuffix(":") && !last.hasPrefix("- ") { kept.removeLast() }
        }
        if kept.isEmpty {
            // Not even one entry fits: the first one, cut.
            let room = max(0, limit - 1)
            return String(String(lines.first { $0.hasPrefix("- ") } ?? whole).utf16.prefix(room)).map { $0 + "…" } ?? "…"
        }
        return kept.joined(separator: "\n") + "\n\n" + note()
    }
}

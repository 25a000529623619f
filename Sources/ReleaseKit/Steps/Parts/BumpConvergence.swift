import Foundation
import ReleaseSupport
import ReleaseVersioning

/// How `version.bump` recognises that the checkout already carries this release's bump, so that running the
/// same release again keeps it instead of bumping a second time (7.1.3 → 7.1.4 → 7.1.5).
///
/// The value the bump moves is the primary target's version (`part` major, minor or patch), its build number
/// (`part: build`), or either one with `version`. The bump is kept, in this order, when:
/// 1. the working tree changed that value since `HEAD` (an uncommitted bump a failed run left behind);
/// 2. else `HEAD`'s own commit changed it (the bump commit `git.commit` wrote, or the cut `release bump` made).
/// A commit that carries no bump is a new build, whatever its branch is called: the same commit is the same build.
/// The change must be this bump: `part` applied to the value before it gives the value now. With
/// `version`, the project must already be at that version. Kept values are the project's, so downstream steps
/// see the outputs the first run gave them.
struct BumpConvergence: Sendable {
    /// What a kept bump reports.
    struct Kept: Sendable, Equatable {
        /// Why it is kept, for the log line: `on release/7.1.4`.
        var reason: String
        /// The values before the bump, when the change shows them; else the current ones.
        var previousVersion: String?
        var previousBuild: String?
        /// The files holding the kept change (uncommitted, or changed by HEAD's commit); empty for the branch rule.
        var files: [String]
    }

    /// A changed definition line.
    struct Change: Sendable, Equatable {
        /// The value the line held before, when the line shows it.
        var old: String?
    }

    let versions: ProjectVersions
    let choice: VersionChoice
    /// The app being released, when not the project's main app.
    var app: String? = nil

    /// Looks for this release's bump in the checkout; `nil` when the bump should run.
    func detect(in context: StepContext) async throws -> Kept? {
        guard let primary = Self.primary(in: versions, app: app) else { return nil }
        let current = versions.current(.version, of: app)
        if case .exact(let wanted) = choice {
            guard let current, SemanticVersion(current) == wanted else { return nil }
        }
        // The values whose change shows this bump: the version for a part, the build for `part: build`, either for
        // an exact version (the project is already at it, so only the build may have moved).
        let versionSite = primary.versionOrigin.flatMap { $0.editable ? $0.site : nil }
        let buildSite = primary.buildOrigin.flatMap { $0.editable ? $0.site : nil }
        let moving: [ValueSite]
        switch choice {
        case .part: moving = [versionSite].compactMap { $0 }
        case .keep: moving = [buildSite].compactMap { $0 }
        case .exact: moving = [versionSite, buildSite].compactMap { $0 }
        }
        guard !moving.isEmpty else { return nil }
        let base = versions.baseDirectory
        guard try await context.gitSucceeds(GitCommand.isRepository, directory: base) else { return nil }

        let files = Self.definitionFiles(versions)
        // 1. An uncommitted bump.
        var dirty: [String: String] = [:]
        for file in files {
            let diff = await Self.diff(file, revisions: ["HEAD"], context: context)
            if !diff.isEmpty { dirty[file] = diff }
        }
        if let kept = keep(
            moving: moving, primary: primary, diffs: dirty, order: files,
            reason: "in the working tree (not committed yet)")
        {
            return kept
        }
        // 2. HEAD's commit is the bump; its line numbers are the working tree's only where nothing is uncommitted.
        if try await context.gitSucceeds(["git", "rev-parse", "--verify", "--quiet", "HEAD^"], directory: base) {
            var committed: [String: String] = [:]
            for file in files where dirty[file] == nil {
                let diff = await Self.diff(file, revisions: ["HEAD^", "HEAD"], context: context)
                if !diff.isEmpty { committed[file] = diff }
            }
            let head = try await context.capture(GitCommand.head, directory: base)
            if let kept = keep(
                moving: moving, primary: primary, diffs: committed, order: files,
                reason: "in HEAD's commit \(head.prefix(12))")
            {
                return kept
            }
        }
        // A branch that names the version (`release/7.1.4`) keeps nothing by itself: a commit on it that carries no
        // bump is a new build (VersionBumpStep.releaseChoice).
        return nil
    }

    /// The kept bump when `diffs` change one of the moving values the way this bump would.
    private func keep(moving: [ValueSite], primary: ProjectVersions.Tracked, diffs: [String: String], order: [String], reason: String) -> Kept? {
        func change(_ site: ValueSite?) -> Change? {
            guard let site, let diff = diffs[site.path], let change = Self.change(at: site, in: diff), change.old != site.rawValue else { return nil }
            return change
        }
        guard let site = moving.first(where: { change($0) != nil }) else { return nil }
        if case .part = choice, let before = change(site)?.old.flatMap(SemanticVersion.init), let now = SemanticVersion(site.rawValue),
            choice.apply(to: before) != now
        {
            return nil
        }
        let versionSite = primary.versionOrigin?.site
        let buildSite = primary.buildOrigin?.site
        return Kept(
            reason: reason,
            previousVersion: change(versionSite)?.old ?? versions.current(.version, of: app),
            previousBuild: change(buildSite)?.old ?? versions.current(.build, of: app),
            files: order.filter { diffs[$0] != nil })
    }

    /// The row of the app being released (`app`, else the primary target) in the primary configuration.
    static func primary(in versions: ProjectVersions, app: String? = nil) -> ProjectVersions.Tracked? {
        let rows = versions.tracked.filter { $0.entry.target == (app ?? versions.report.primaryTarget) }
        return rows.first { $0.entry.configuration == versions.report.primaryConfiguration } ?? rows.first ?? versions.tracked.first
    }

    /// Every file that defines a version or build number a bump edits, in the order first met.
    static func definitionFiles(_ versions: ProjectVersions) -> [String] {
        var files: [String] = []
        for item in versions.tracked {
            let origins = [item.versionOrigin, item.buildOrigin, item.versionMirror?.origin, item.buildMirror?.origin]
            for origin in origins.compactMap({ $0 }) where origin.editable && !files.contains(origin.site.path) {
                files.append(origin.site.path)
            }
        }
        return files
    }

    /// `git diff -U0` of one file between `revisions` (one: against the working tree); empty when unchanged, or when
    /// git cannot tell (a definition file outside the repository: it carries no bump git could show).
    /// Run from the file's folder with its name, so a checkout reached through a symbolic link works.
    static func diff(_ file: String, revisions: [String], context: StepContext) async -> String {
        let name = String(file.split(separator: "/").last ?? Substring(file))
        return
            (try? await context.capture(
                ["git", "diff", "-U0", "--no-color", "--no-ext-diff", "--no-textconv"] + revisions + ["--", name],
                directory: FilePath.parent(of: file)
            )) ?? ""
    }

    /// The version in a branch's last path component: `release/7.1.4` and `release/v7.1.4` name 7.1.4.
    static func versionNamed(byBranch branch: String) -> SemanticVersion? {
        guard let last = branch.split(separator: "/").last, branch.contains("/") else { return nil }
        let text = last.hasPrefix("v") ? last.dropFirst() : last
        guard text.first?.isNumber == true, text.contains(".") else { return nil }
        return SemanticVersion(String(text))
    }

    /// Whether the diff changes the line holding `site`, and the value the line had before when it shows it.
    /// A binary property list has no lines: any change to it counts, with the value before unknown.
    static func change(at site: ValueSite, in diff: String) -> Change? {
        guard let line = site.line else { return diff.isEmpty ? nil : Change(old: nil) }
        var removed: [Substring] = []
        var added: [Substring] = []
        var start = 0
        var count = 0
        func result() -> Change? {
            guard line >= start, line < start + count else { return nil }
            let index = line - start
            guard index < removed.count, index < added.count else { return Change(old: nil) }
            let prefix = linePrefix(of: site).map { Substring($0) } ?? added[index].range(of: site.rawValue).map { added[index][..<$0.lowerBound] }
            return Change(old: prefix.flatMap { oldValue(old: removed[index], after: $0) })
        }
        for text in diff.split(separator: "\n", omittingEmptySubsequences: false) {
            if text.hasPrefix("@@ ") {
                if let found = result() { return found }
                removed = []
                added = []
                (start, count) = hunkRange(text) ?? (0, 0)
            } else if text.hasPrefix("-"), !text.hasPrefix("--- ") {
                removed.append(text.dropFirst())
            } else if text.hasPrefix("+"), !text.hasPrefix("+++ ") {
                added.append(text.dropFirst())
            }
        }
        return result()
    }

    /// The new side of a hunk header `@@ -a,b +c,d @@`: first line and count.
    static func hunkRange(_ header: Substring) -> (Int, Int)? {
        guard let plus = header.split(separator: " ").first(where: { $0.hasPrefix("+") }) else { return nil }
        let parts = plus.dropFirst().split(separator: ",", omittingEmptySubsequences: false)
        guard let first = parts.first.flatMap({ Int($0) }) else { return nil }
        return (first, parts.count > 1 ? Int(parts[1]) ?? 0 : 1)
    }

    /// The text of the site's line before its value (an opening quote included), read from the file as it is now.
    static func linePrefix(of site: ValueSite) -> String? {
        guard let range = site.range, let data = LocalFiles().contents(site.path), range.lowerBound <= data.count else { return nil }
        let bytes = Array(data)
        var start = range.lowerBound
        while start > 0, bytes[start - 1] != UInt8(ascii: "\n") { start -= 1 }
        return String(decoding: bytes[start..<range.lowerBound], as: UTF8.self) + (site.quoted ? "\"" : "")
    }

    /// The value the old line held after `prefix`: the token made of the characters versions and build numbers use.
    static func oldValue(old: Substring, after prefix: Substring) -> String? {
        guard old.hasPrefix(prefix) else { return nil }
        let value = old.dropFirst(prefix.count).prefix { $0.isLetter || $0.isNumber || $0 == "." || $0 == "_" || $0 == "-" }
        return value.isEmpty ? nil : String(value)
    }
}

/// Which targets a bump moves, decided the way release managers bump by hand.
///
/// - The app the version belongs to (the report's primary target) always moves.
/// - Every other target that is not an app moves when it was in step with the app before the bump: the same version
///   (or build) in the same configuration. Test bundles at the app's build and framework targets that follow the
///   app therefore move; a test bundle at `1.0` or a framework with its own numbering does not, and a note says so.
///   A target still at Xcode's template values `1.0 (1)` never counts as in step by value: an app at build `1` does
///   not make every untouched test bundle follow it.
/// - An app of another platform (a Mac or tvOS app beside the iOS one) is a release of its own: it keeps its version even
///   when it was in step, unless it is named or shares a definition with the app. Apps of the app's own platform in
///   step with it (preview apps) follow it, as teams bump them.
/// - Extensions, watch apps and App Clips move with the app that embeds them even when they had drifted
///   (App Store Connect wants them at their app's version); a note names the ones that were out of step.
/// - Targets that share a definition with a moving target move with it: there is one value to edit.
///
/// With explicit targets (`--target`), exactly those targets move, plus whatever shares their definitions (a team may
/// move the app alone). `app` names the app being released instead of the project's main one; the rules above apply
/// around it.
/// Version and build are decided separately: a test bundle can follow the app's build and keep its `1.0`.
package struct BumpScope: Sendable {
    /// Which value of an entry.
    package enum Value: String, Sendable, CaseIterable {
        case version
        case build
    }

    /// Indices into ``ProjectVersions/tracked`` whose version moves.
    package var versionEntries: [Int]
    /// Indices into ``ProjectVersions/tracked`` whose build moves.
    package var buildEntries: [Int]
    /// The target whose version names the release.
    package var primaryTarget: String?
    /// Targets left alone and targets moved although they were out of step, one line each.
    package var notes: [String]

    /// The entries whose `value` moves.
    package func entries(_ value: Value) -> [Int] {
        value == .version ? versionEntries : buildEntries
    }

    /// Decides the scope of a bump of `versions`; `targets` (empty: automatic) names the targets to move, `app` the app
    /// the automatic choice moves around (nil: the project's main app).
    /// - Throws: ``VersioningError/unknownTarget(_:available:)`` for a name the project does not have.
    package init(_ versions: ProjectVersions, targets: [String] = [], app: String? = nil) throws {
        let tracked = versions.tracked
        let names = tracked.map(\.entry.target)
        for name in targets + (app.map { [$0] } ?? []) where !names.contains(name) {
            var available: [String] = []
            for name in names where !available.contains(name) { available.append(name) }
            throw VersioningError.unknownTarget(name, available: available)
        }
        let primary = targets.first ?? app ?? versions.report.primaryTarget
        primaryTarget = primary
        var notes: [String] = []

        func value(_ entry: VersionEntry, _ kind: Value) -> String? { kind == .version ? entry.version : entry.build }
        func origin(_ item: ProjectVersions.Tracked, _ kind: Value) -> ValueOrigin? {
            kind == .version ? item.versionOrigin : item.buildOrigin
        }
        /// The value `target` has in `configuration`, else in the report's primary configuration.
        func value(of target: String?, in configuration: String?, _ kind: Value) -> String? {
            let rows = tracked.filter { $0.entry.target == target }
            let row =
                rows.first { $0.entry.configuration == configuration }
                ?? rows.first { $0.entry.configuration == versions.report.primaryConfiguration } ?? rows.first
            return row.flatMap { value($0.entry, kind) }
        }

        var chosen: [Value: [Int]] = [:]
        for kind in Value.allCases {
            var moving: Set<Int> = []
            var sites: Set<ValueSite> = []
            func move(_ index: Int) {
                moving.insert(index)
                if let site = origin(tracked[index], kind)?.site { sites.insert(site) }
            }
            var hosted: [Int] = []
            for (index, item) in tracked.enumerated() where origin(item, kind) != nil {
                if !targets.isEmpty {
                    if targets.contains(item.entry.target) { move(index) }
                } else if item.entry.target == primary || versions.report.kind == .file {
                    move(index)
                } else if item.mustMatchHost {
                    hosted.append(index)
                } else if Self.isApplication(item.entry), Self.platform(of: item, in: tracked) != Self.platform(of: primary, in: tracked) {
                    continue
                } else if let current = value(item.entry, kind),
                    current == value(of: primary, in: item.entry.configuration, kind),
                    !(item.entry.version == "1.0" && item.entry.build == "1")
                {
                    move(index)
                }
            }
            // Extensions and watch apps follow the app that ships them, in step or not.
            for index in hosted {
                let item = tracked[index]
                guard
                    tracked.indices.contains(where: {
                        moving.contains($0) && tracked[$0].entry.target == item.entry.host
                            && tracked[$0].entry.configuration == item.entry.configuration
                    })
                else { continue }
                move(index)
            }
            // Whatever shares a definition with a moving target moves with it.
            for (index, item) in tracked.enumerated() where !moving.contains(index) {
                if let site = origin(item, kind)?.site, sites.contains(site) { moving.insert(index) }
            }
            chosen[kind] = moving.sorted()
        }
        versionEntries = chosen[.version] ?? []
        buildEntries = chosen[.build] ?? []

        // Notes, one per target: what stays, and what moved although it had drifted.
        var order: [String] = []
        for name in names where !order.contains(name) { order.append(name) }
        let primaryVersion = value(of: primary, in: versions.report.primaryConfiguration, .version)
        let primaryBuild = value(of: primary, in: versions.report.primaryConfiguration, .build)
        for name in order where name != primary {
            let rows = tracked.indices.filter { tracked[$0].entry.target == name }
            let sample = tracked[rows.first { tracked[$0].entry.configuration == versions.report.primaryConfiguration } ?? rows[0]]
            var kept: [String] = []
            for kind in Value.allCases {
                let moving = Set(kind == .version ? versionEntries : buildEntries)
                let defined = rows.filter { origin(tracked[$0], kind) != nil }
                guard !defined.isEmpty else { continue }
                if !defined.contains(where: moving.contains) {
                    kept.append("\(kind.rawValue) \(value(sample.entry, kind) ?? "-")")
                } else if targets.isEmpty, sample.mustMatchHost, let host = sample.entry.host,
                    value(sample.entry, kind) != value(of: host, in: sample.entry.configuration, kind)
                {
                    notes.append(
                        "'\(name)' moves with its app '\(host)' although its \(kind.rawValue) \(value(sample.entry, kind) ?? "-") was not in step: an extension carries its app's version"
                    )
                }
            }
            guard !kept.isEmpty else { continue }
            let reason =
                targets.isEmpty
                ? (Self.isApplication(sample.entry) && Self.platform(of: sample, in: tracked) != Self.platform(of: primary, in: tracked)
                    ? "another app of the project, released on its own (name it in 'targets' to move it too)"
                    : "not in step with '\(primary ?? "-")' at \(primaryVersion ?? "-") (\(primaryBuild ?? "-"))")
                : "not a chosen target and shares no definition with one"
            notes.append("'\(name)' keeps \(kept.joined(separator: " and ")): \(reason)")
        }
        self.notes = notes
    }

    /// Whether the entry is an app of its own (iOS, macOS, tvOS or visionOS application): not embedded by another.
    static func isApplication(_ entry: VersionEntry) -> Bool {
        entry.host == nil && entry.productType == "com.apple.product-type.application"
    }

    /// The platform (`SDKROOT`) a target builds for, from any of its rows that says; nil when none does.
    static func platform(of item: ProjectVersions.Tracked, in tracked: [ProjectVersions.Tracked]) -> String? {
        item.sdk ?? tracked.first { $0.entry.target == item.entry.target && $0.sdk != nil }?.sdk
    }

    /// The platform of the target named `target`.
    static func platform(of target: String?, in tracked: [ProjectVersions.Tracked]) -> String? {
        tracked.first { $0.entry.target == target && $0.sdk != nil }?.sdk
    }
}

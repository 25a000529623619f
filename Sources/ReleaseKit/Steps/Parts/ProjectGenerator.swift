import Foundation
import ReleaseSupport
import ReleaseVersioning

/// A tool that makes the Xcode project or workspace before a build (`project.generate`'s `tool`), with what it reads,
/// how it runs and what it writes, and the Bundler facts about it (`release init` reads them too, so the starter and
/// the step agree on when a tool runs through `bundle exec`).
package enum ProjectGenerator: String, Sendable, Equatable, CaseIterable, OptionChoice {
    /// `xcodegen generate --spec project.yml`: writes `<name>.xcodeproj` beside the spec.
    case xcodegen
    /// `tuist generate --no-open` in the manifest's folder: writes `<name>.xcworkspace` there.
    case tuist
    /// `pod install` in the Podfile's folder: writes `Pods/` and the workspace holding the app's project and the pods.
    case cocoapods

    /// The executable.
    package var executable: String {
        switch self {
        case .xcodegen: "xcodegen"
        case .tuist: "tuist"
        case .cocoapods: "pod"
        }
    }

    /// The gem a Gemfile pins it with; nil for Tuist, which is not a gem.
    package var gem: String? {
        switch self {
        case .xcodegen: "xcodegen"
        case .tuist: nil
        case .cocoapods: "cocoapods"
        }
    }

    /// The input files it looks for, in its folder, first found wins.
    package var specNames: [String] {
        switch self {
        case .xcodegen: ["project.yml"]
        case .tuist: ["Workspace.swift", "Project.swift"]
        case .cocoapods: ["Podfile"]
        }
    }

    /// What the input file is called in messages.
    var specDescription: String {
        switch self {
        case .xcodegen: "XcodeGen spec"
        case .tuist: "Tuist manifest"
        case .cocoapods: "Podfile"
        }
    }

    /// The command (before Bundler's `bundle exec`), run in the spec's folder; `spec` is relative to that folder.
    func command(spec: String, extra: [String]) -> [String] {
        switch self {
        case .xcodegen: ["xcodegen", "generate", "--spec", spec] + extra
        case .tuist: ["tuist", "generate", "--no-open"] + extra
        case .cocoapods: ["pod", "install"] + extra
        }
    }

    /// The project or workspace the tool writes, read from its input (`spec`, absolute), relative to the spec's
    /// folder; nil when the input does not say (a Podfile beside no project, which a generator before it makes).
    /// - Parameter files: what the step may look at (the Podfile's folder for the project it integrates).
    func writes(spec: String, files: LocalFiles) -> String? {
        let folder = FilePath.parent(of: spec)
        let text = Self.text(spec, files: files) ?? ""
        switch self {
        case .xcodegen:
            return ((try? XcodeGenSpec(contentsOf: spec))?.name ?? "Project") + ".xcodeproj"
        case .tuist:
            // `Workspace(name: "X"` or `Project(name: "X"`: Tuist names the workspace after it.
            guard let match = text.firstMatch(of: /(?:Workspace|Project)\s*\(\s*name\s*:\s*"([^"\\]+)"/) else { return nil }
            return String(match.output.1) + ".xcworkspace"
        case .cocoapods:
            // CocoaPods names the workspace with `workspace 'X'`, else after the user project: `project 'X'`, else the
            // one .xcodeproj beside the Podfile.
            for line in text.split(whereSeparator: \.isNewline) {
                let code = line.trimmingCharacters(in: .whitespaces)
                if let match = code.wholeMatch(of: /workspace\s*\(?\s*['"]([^'"]+)['"]\s*\)?/) {
                    let name = String(match.output.1)
                    return name.hasSuffix(".xcworkspace") ? name : name + ".xcworkspace"
                }
            }
            for line in text.split(whereSeparator: \.isNewline) {
                let code = line.trimmingCharacters(in: .whitespaces)
                if let match = code.firstMatch(of: /^(?:xcodeproj|project)\s*\(?\s*['"]([^'"]+?)(?:\.xcodeproj)?['"]/) {
                    return String(match.output.1) + ".xcworkspace"
                }
            }
            let projects = (files.names(in: folder) ?? []).filter { $0.hasSuffix(".xcodeproj") }.sorted()
            guard projects.count == 1, let project = projects.first else { return nil }
            return (project as NSString).deletingPathExtension + ".xcworkspace"
        }
    }

    /// The most of an input file read: specs are small, and a huge one is not a spec.
    static let specLimit: Int64 = 4 << 20

    /// An input file's text, when it is a file of at most ``specLimit`` bytes.
    static func text(_ path: String, files: LocalFiles) -> String? {
        guard let size = files.size(path), size <= specLimit, let data = files.contents(path) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// The line (from 1) of the Podfile's guard that stops CocoaPods outside `bundle exec` (`raise '…' unless
    /// defined?(Bundler)`, or a `raise`/`abort` within two lines of a test of `BUNDLE_GEMFILE`/`BUNDLE_BIN_PATH`).
    package static func bundlerGuardLine(podfile text: String) -> Int? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() where line.contains("raise") || line.contains("abort") {
            let window = lines[max(0, index - 2)...index].joined(separator: "\n")
            if window.contains("Bundler") || window.contains("BUNDLE_GEMFILE") || window.contains("BUNDLE_BIN_PATH") { return index + 1 }
        }
        return nil
    }

    /// Whether the Gemfile text pins `gem` (`gem 'cocoapods'`, `gem "xcodegen", "~> 2.4"`, `gem('fastlane')`).
    package static func gemfile(_ text: String, pins gem: String) -> Bool {
        text.split(whereSeparator: \.isNewline).contains { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            return ["gem '", "gem \"", "gem('", "gem(\""].contains { trimmed.hasPrefix($0 + gem + String($0.last!)) }
        }
    }
}

import Foundation

/// The `Pipelines/release.json` that `release init` writes: the steps that exist, filled in from a
/// ``RepositoryInspection`` and the answers to its questions.
///
/// Bump first; on macOS archive, export, package the dSYMs, check them and zip the archive; checksums; a GitHub
/// release on the `release` profile (release branches); cleanup always. Steps that need Xcode say
/// `"when": {"os": "macos"}`, so the file validates and dry-runs on Linux too.
public struct StarterPipeline: Sendable, Equatable {
    /// The `.xcodeproj` (or XcodeGen spec) the version lives in.
    public var project: String
    /// `-workspace` for xcodebuild when there is one; else `-project`.
    public var workspace: String?
    public var scheme: String
    /// Used for file names (`build/NAME.xcarchive`).
    public var appName: String
    /// `owner/name`; nil leaves the GitHub release out.
    public var githubRepository: String?
    /// Shown in the pipeline's description.
    public var bundleIdentifier: String?
    /// Where `$schema` points, relative to the pipeline file: the schema lives beside `Pipelines/`, not in it,
    /// since every `Pipelines/*.json` is a pipeline to `release validate`.
    public var schemaPath: String

    public init(project: String, workspace: String? = nil, scheme: String, appName: String, githubRepository: String?,
                bundleIdentifier: String? = nil, schemaPath: String = "../release.schema.json") {
        self.project = project
        self.workspace = workspace
        self.scheme = scheme
        self.appName = appName
        self.githubRepository = githubRepository
        self.bundleIdentifier = bundleIdentifier
        self.schemaPath = schemaPath
    }

    /// Defaults from what the repository holds.
    public init(_ inspection: RepositoryInspection) {
        let project = inspection.project ?? "."
        let app = inspection.appTarget ?? ((project as NSString).lastPathComponent as NSString).deletingPathExtension
        self.init(project: project, workspace: inspection.workspace, scheme: inspection.scheme ?? app, appName: app,
                  githubRepository: inspection.githubRepository, bundleIdentifier: inspection.bundleIdentifier)
    }

    /// The pipeline as JSON text, ending with a newline.
    public var text: String {
        func q(_ text: String) -> String { "\"" + JSONEscape.string(text) + "\"" }
        let container = workspace.map { ["-workspace", $0] } ?? (project.hasSuffix(".xcodeproj") ? ["-project", project] : [])
        let archive = ["xcodebuild"] + container + ["-scheme", scheme, "-configuration", "Release", "-destination", "generic/platform=iOS",
                                                    "archive", "-archivePath", "${build_dir}/${app}.xcarchive"]
        let export = ["xcodebuild", "-exportArchive", "-archivePath", "${build_dir}/${app}.xcarchive", "-exportPath", "${build_dir}/export",
                      "-exportOptionsPlist", "${export_options}"]
        func list(_ items: [String]) -> String { "[" + items.map(q).joined(separator: ", ") + "]" }
        var steps: [String] = [
            #"    {"id": "bump", "uses": "version.bump", "with": {"project": \#(q(project)), "part": "patch", "build": "increment"}}"#,
            #"    {"id": "check-versions", "uses": "gate.versions", "gate": true, "with": {"project": \#(q(project)), "configuration": "Release"}}"#,
            #"    {"id": "archive", "uses": "shell", "needs": ["bump"], "when": {"os": "macos"},"# + "\n" +
            #"     "with": {"run": \#(list(archive)), "creates": ["${build_dir}/${app}.xcarchive"]}}"#,
            #"    {"id": "export", "uses": "shell", "needs": ["archive"], "when": {"os": "macos"},"# + "\n" +
            #"     "with": {"run": \#(list(export)), "creates": ["${build_dir}/export"]}}"#,
            #"    {"id": "dsyms", "uses": "dsym.package", "needs": ["archive"], "when": {"os": "macos"},"# + "\n" +
            #"     "with": {"archive": "${build_dir}/${app}.xcarchive", "output": "${build_dir}/${app}.app.dSYM.zip"}}"#,
            #"    {"id": "check-dsyms", "uses": "gate.dsym", "gate": true, "needs": ["archive"], "when": {"os": "macos"},"# + "\n" +
            #"     "with": {"archive": "${build_dir}/${app}.xcarchive"}}"#,
            #"    {"id": "zip", "uses": "archive.zip", "needs": ["dsyms"], "when": {"os": "macos"},"# + "\n" +
            #"     "with": {"source": "${build_dir}/${app}.xcarchive", "output": "${build_dir}/${app}.xcarchive.zip", "reuse": ["${steps.dsyms.outputs.path}"]}}"#,
            #"    {"id": "checksums", "uses": "checksum", "needs": ["zip", "dsyms"], "when": {"os": "macos"},"# + "\n" +
            #"     "with": {"files": ["${steps.zip.outputs.path}", "${steps.dsyms.outputs.path}"], "output": "${build_dir}/SHA256SUMS"}}"#,
        ]
        if let githubRepository {
            steps.append(
                #"    {"id": "publish", "uses": "github.release", "needs": ["zip", "check-dsyms", "checksums"], "when": {"profile": "release"},"# + "\n" +
                #"     "with": {"repo": \#(q(githubRepository)), "token": "${secrets.GITHUB_TOKEN}","# + "\n" +
                #"              "tag": "v${steps.bump.outputs.version}-${steps.bump.outputs.build}", "draft": true,"# + "\n" +
                #"              "body": "Build: ${steps.bump.outputs.version} (${steps.bump.outputs.build})\n", "generate_notes": true,"# + "\n" +
                #"              "assets": ["${steps.zip.outputs.path}", "${steps.dsyms.outputs.path}", "${steps.checksums.outputs.path}"]}}"#
            )
        }
        steps.append(#"    {"id": "cleanup", "uses": "shell", "always": true, "with": {"run": ["rm", "-rf", "${build_dir}/tmp"]}}"#)
        let about = "Written by 'release init' for \(appName)" + (bundleIdentifier.map { " (\($0))" } ?? "")
            + ": edit freely; 'release validate' checks it, 'release run --dry-run' shows what it would do."
        return """
        {
          "$schema": \(q(schemaPath)),
          "version": 1,
          "name": \(q(appName.lowercased().replacingOccurrences(of: " ", with: "-") + "-release")),
          "description": \(q(about)),
          "variables": {"app": \(q(appName)), "build_dir": "build", "export_options": "ExportOptions.plist"},
          "profiles": {
            "release": {"when": {"branch": "release*"}},
            "adhoc": {"default": true}
          },
          "steps": [
        \(steps.joined(separator: ",\n"))
          ]
        }

        """
    }
}

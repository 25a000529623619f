import Foundation

/// Finds the pipeline file a command names: a path, or a name resolved as `Pipelines/NAME.json`.
package enum PipelineLocator {
    /// The default pipeline, relative to the working directory.
    package static let defaultPath = "Pipelines/release.json"

    /// The file `argument` names, relative to `directory` (`nil`: the default pipeline).
    package static func resolve(_ argument: String?, in directory: String) -> String {
        guard let argument, !argument.isEmpty else { return defaultPath }
        let asPath = argument.hasPrefix("/") ? argument : (directory as NSString).appendingPathComponent(argument)
        if FileManager.default.fileExists(atPath: asPath) || argument.contains("/") || argument.hasSuffix(".json") {
            return argument
        }
        return "Pipelines/\(argument).json"
    }

    /// Every `Pipelines/*.json` under `directory`, sorted.
    package static func all(in directory: String) -> [String] {
        let folder = (directory as NSString).appendingPathComponent("Pipelines")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().map { "Pipelines/\($0)" }
    }
}

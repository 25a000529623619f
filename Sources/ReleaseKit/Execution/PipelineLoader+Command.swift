import Foundation
import ReleasePipeline
import ReleaseSteps

extension PipelineLoader {
    /// Loads and validates the pipeline a command names: `pipeline` is a path, or a name resolved as
    /// `Pipelines/NAME.json` (nil: the default), with the plugins this machine can describe.
    /// - Throws: ``CommandFailure`` (exit 65) with every problem, and a hint to run `release init` when the default
    ///   pipeline does not exist yet.
    package static func load(
        _ pipeline: String?, extraVariables: Set<String> = [], directory: String, environment: [String: String]
    ) async throws(CommandFailure) -> ValidatedPipeline {
        let path = PipelineLocator.resolve(pipeline, in: directory)
        let absolute = path.hasPrefix("/") ? path : (directory as NSString).appendingPathComponent(path)
        do {
            return try await PipelineLoader().load(
                path: absolute, displayPath: path, extraVariables: extraVariables,
                plugins: PluginResolver.describing(directory: directory, environment: environment))
        } catch {
            var hint: String?
            if case .unreadable(_, "no such file") = error, pipeline == nil {
                hint = "hint: no pipeline yet: 'release init' looks at the project and writes a starter \(PipelineLocator.defaultPath)"
            }
            throw .invalidPipeline(error.diagnostics, hint: hint)
        }
    }
}

extension PluginResolver {
    /// Describes external step plugins with answers cached in the user's cache folder.
    package static func describing(directory: String, environment: [String: String]) -> PluginResolver {
        PluginResolver(describer: PluginDescriber(cacheFile: PluginDescriber.userCacheFile, environment: environment), directory: directory)
    }
}

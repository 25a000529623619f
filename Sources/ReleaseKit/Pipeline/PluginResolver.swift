import Foundation
import ReleaseSteps
import ReleaseSupport

/// Finds the external step plugins a pipeline can use (its `plugins` map, then `release-step-KIND` executables on
/// PATH), describes them and builds the registry the pipeline is checked against: built-in kinds first, then
/// plugin kinds.
package struct PluginResolver: Sendable {
    /// The plugins found, and what went wrong with the others.
    package struct Resolution: Sendable {
        /// Nil only when the built-in registry itself is broken (a bug, reported in `diagnostics`).
        package var registry: StepRegistry?
        /// Problems of the `plugins` map, at its entries, and clashes with built-in kinds.
        package var diagnostics: [Diagnostic]
        /// PATH plugins that could not be described, by kind: reported only if a step uses the kind.
        package var unavailable: [String: String]
    }

    package var describer: PluginDescriber
    /// The folder relative plugin paths are resolved against: the pipeline's working directory.
    package var directory: String

    package init(describer: PluginDescriber, directory: String) {
        self.describer = describer
        self.directory = directory
    }

    /// The plugins of the pipeline `root` (nil for PATH plugins only) in `file`.
    package func resolve(_ root: JSONNode?, file: String) async -> Resolution {
        var diagnostics = DiagnosticList(file: file)
        var unavailable: [String: String] = [:]
        var kinds: [StepKind] = []
        var declared: Set<String> = []
        let path = JSONPath.root.appending("plugins")
        for member in root?["plugins"]?.members ?? [] {
            guard let location = member.value.string, !location.isEmpty else { continue }  // the loader reports it
            declared.insert(member.key)
            // A path, relative to the working directory like every path in a pipeline (never looked up on PATH).
            let candidate = FilePath.absolute(location, in: directory)
            guard let executable = ProcessRunner.resolveExecutable(candidate, directory: directory, environment: describer.environment) else {
                diagnostics.add("plugin '\(Echo.text(member.key))': no executable file '\(Echo.text(location))'", at: member.value, path.appending(member.key))
                continue
            }
            do {
                kinds.append(try await kind(member.key, executable: executable))
            } catch {
                diagnostics.add("\(error)", at: member.value, path.appending(member.key))
            }
        }
        for found in describer.pathPlugins() where !declared.contains(found.kind) {
            do {
                kinds.append(try await kind(found.kind, executable: found.path))
            } catch {
                unavailable[found.kind] = "\(error)"
            }
        }
        // Each plugin is added on its own, so one that clashes is reported and the rest still count.
        var registry: StepRegistry?
        do {
            registry = try StepRegistry.builtIn
            for kind in kinds {
                guard let current = registry else { break }
                do {
                    registry = try StepRegistry(kinds: current.kinds + [kind])
                } catch {
                    let node = root?["plugins"]?[kind.kind]
                    diagnostics.add(error.description, at: node?.location, node == nil ? path : path.appending(kind.kind))
                }
            }
        } catch {
            diagnostics.add("internal error: \(error) (please report this)", at: nil, nil)
        }
        return Resolution(registry: registry, diagnostics: diagnostics.sorted, unavailable: unavailable)
    }

    /// The plugin at `executable`, registered as `name` (the `plugins` key or the PATH file's suffix).
    private func kind(_ name: String, executable: String) async throws -> StepKind {
        var description = try await describer.describe(executable, name: name)
        description.kind = name
        return StepKind(plugin: description, executable: executable)
    }
}

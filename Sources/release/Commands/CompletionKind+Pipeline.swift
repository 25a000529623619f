import ArgumentParser
import ReleasePipeline
import ReleaseSupport

extension CompletionKind {
    /// Completions read from the pipeline in the current folder: `candidates` gets the words typed so far, the folder
    /// and the prefix; what it answers is escaped for the shell that asks.
    static func pipeline(_ candidates: @escaping @Sendable (_ words: [String], _ directory: String, _ prefix: String) -> [String]) -> CompletionKind {
        .custom { words, _, prefix in
            PipelineCompletion.escaped(candidates(words, Platform.currentDirectory(), prefix), for: CompletionShell.requesting?.rawValue)
        }
    }

    /// The pipelines of the current folder, by file or name.
    static var pipelineNames: CompletionKind {
        .pipeline { _, directory, prefix in PipelineCompletion.pipelineNames(in: directory, prefix: prefix) }
    }
}

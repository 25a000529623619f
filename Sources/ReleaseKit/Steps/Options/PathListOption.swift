import Foundation
import ReleaseSupport

/// A list of paths or globs as an option: one string, or an array whose items are strings or arrays of strings
/// (a list output of another step, `"${steps.dsyms.outputs.paths}"`, interpolates into a nested array), flattened
/// in order.
package struct PathListOption: OptionValue, Equatable {
    /// The paths and globs, flattened, as written.
    package var items: [String]

    package static func optionTypeName(_ format: OptionFormat) -> String { "[path | glob] | path" }

    /// A list of the given paths and globs.
    package init(_ items: [String]) {
        self.items = items
    }

    /// Decodes one string, or an array of strings and arrays of strings.
    package init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if let text = try? single.decode(String.self) {
            items = [text]
            return
        }
        self.items = try single.decode([Item].self).flatMap(\.paths)
    }

    /// One array item: a path, or a list output of another step (an array of paths).
    private struct Item: Decodable {
        var paths: [String]

        init(from decoder: any Decoder) throws {
            let single = try decoder.singleValueContainer()
            if let text = try? single.decode(String.self) {
                paths = [text]
            } else {
                paths = try single.decode([String].self)
            }
        }
    }

    /// One item expanded: the files it names.
    package struct Expansion: Sendable, Equatable {
        /// The item as written.
        package var item: String
        /// Absolute paths of the regular files it names (a glob's matches sorted); empty when nothing matches.
        package var files: [String]
        /// Whether the item is a glob.
        package var isPattern: Bool
        /// Whether the item, or the folder a glob looks in, is promised by an upstream step (dry runs).
        package var isPromised: Bool
    }

    /// Every item expanded against `context`: literal paths as they are (existing or not), globs to the regular
    /// files they match.
    package func expand(in context: StepContext) -> [Expansion] {
        items.map { item in
            let absolute = context.resolvePath(item)
            if Glob.isPattern(item) {
                let parent = item.lastIndex(of: "/").map { String(item[..<$0]) } ?? "."
                let promised: Bool
                if case .promised = context.fileState(parent.isEmpty ? "/" : parent) { promised = true } else { promised = false }
                return Expansion(item: item, files: Glob.files(matching: absolute), isPattern: true, isPromised: promised)
            }
            let promised: Bool
            if case .promised = context.fileState(item) { promised = true } else { promised = false }
            return Expansion(item: item, files: [absolute], isPattern: false, isPromised: promised)
        }
    }

}

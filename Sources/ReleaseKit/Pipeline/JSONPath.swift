/// Where a value sits in a JSON document, printed as `$.steps[2].with.output`.
package struct JSONPath: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// One step into an object or array.
    package enum Component: Sendable, Equatable, Hashable {
        case key(String)
        case index(Int)
    }

    package var components: [Component]

    package init(_ components: [Component] = []) {
        self.components = components
    }

    package static let root = JSONPath()

    package func appending(_ key: String) -> JSONPath { JSONPath(components + [.key(key)]) }
    package func appending(_ index: Int) -> JSONPath { JSONPath(components + [.index(index)]) }
    /// This path followed by `path`'s components.
    package func appending(_ path: JSONPath) -> JSONPath { JSONPath(components + path.components) }

    package var description: String {
        var text = "$"
        for component in components {
            switch component {
            case .key(let key):
                let plain =
                    !key.isEmpty
                    && key.unicodeScalars.allSatisfy {
                        ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-") && $0.isASCII
                    }
                text += plain ? ".\(key)" : "[\"\(key)\"]"
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }
}

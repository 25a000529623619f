/// Where a value sits in a JSON document, printed as `$.steps[2].with.output`.
public struct JSONPath: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// One step into an object or array.
    public enum Component: Sendable, Equatable, Hashable {
        case key(String)
        case index(Int)
    }

    public var components: [Component]

    public init(_ components: [Component] = []) {
        self.components = components
    }

    public static let root = JSONPath()

    public func appending(_ key: String) -> JSONPath { JSONPath(components + [.key(key)]) }
    public func appending(_ index: Int) -> JSONPath { JSONPath(components + [.index(index)]) }
    /// This path followed by `path`'s components.
    public func appending(_ path: JSONPath) -> JSONPath { JSONPath(components + path.components) }

    public var description: String {
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

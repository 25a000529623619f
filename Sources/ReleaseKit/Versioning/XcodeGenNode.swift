import Foundation
import ReleaseSupport
import Yams

/// A value of an XcodeGen spec, with the file and byte range of every scalar so a bump can rewrite one value
/// and nothing else. Built from Yams' node tree, which keeps each scalar's line, column and quoting style.
package indirect enum XcodeGenNode: Sendable {
    /// A string, number or boolean.
    case scalar(Scalar)
    /// `key: value` entries in file order.
    case mapping([Pair])
    /// A list.
    case sequence([XcodeGenNode])

    /// A scalar and where it is written.
    package struct Scalar: Sendable {
        /// The value as XcodeGen writes it into the project: a plain `1` stays `1`, but a plain `3.10` is a YAML
        /// number and becomes `3.1`.
        package var value: String
        /// The text as written (without quotes).
        package var written: String
        /// The file it is in.
        package var file: String
        /// 1-based line.
        package var line: Int
        /// Where the token is, quotes included, and how it is quoted; `nil` for block scalars and other shapes a
        /// bump does not rewrite.
        package var range: Range<Int>?
        /// `"` or `'` for quoted scalars, `nil` for plain ones.
        package var quote: Character?

        /// The scalar as a site a bump can edit, for `key`.
        package func site(key: String) -> ValueSite {
            ValueSite(
                path: file, line: line, key: key, format: quote == "'" ? .yamlSingleQuoted : .yaml, range: range,
                quoted: quote != nil, rawValue: value
            )
        }
    }

    /// One `key: value` entry of a mapping.
    package struct Pair: Sendable {
        /// The key's text.
        package var key: String
        /// The key's file and line.
        package var file: String
        /// 1-based line of the key.
        package var line: Int
        /// The value.
        package var value: XcodeGenNode
    }

    /// The value for `key` when this is a mapping (the last, if a key repeats).
    package subscript(key: String) -> XcodeGenNode? {
        guard case .mapping(let pairs) = self else { return nil }
        return pairs.last { $0.key == key }?.value
    }

    /// The scalar, if this is one.
    package var scalar: Scalar? {
        if case .scalar(let scalar) = self { return scalar }
        return nil
    }

    /// The scalar's value, if this is one.
    package var string: String? { scalar?.value }

    /// The entries, if this is a mapping.
    package var pairs: [Pair]? {
        if case .mapping(let pairs) = self { return pairs }
        return nil
    }

    /// The elements, if this is a sequence.
    package var elements: [XcodeGenNode]? {
        if case .sequence(let elements) = self { return elements }
        return nil
    }

    /// `overlay` merged onto `self` the way XcodeGen merges an including spec onto what it includes: mappings
    /// key by key (recursively), anything else replaced.
    package func merged(with overlay: XcodeGenNode) -> XcodeGenNode {
        guard case .mapping(var pairs) = self, case .mapping(let top) = overlay else { return overlay }
        for pair in top {
            if let index = pairs.lastIndex(where: { $0.key == pair.key }) {
                pairs[index].value = pairs[index].value.merged(with: pair.value)
            } else {
                pairs.append(pair)
            }
        }
        return .mapping(pairs)
    }

    /// How deep mappings and sequences may nest. Specs nest fewer than 10 levels; the limit keeps every recursion
    /// over the tree (merging includes, reading settings, freeing it) far from the end of a 512 KiB stack.
    package static let maximumDepth = 64

    /// Parses `bytes` (YAML or JSON) read from `path`.
    ///
    /// Yams composes recursively, about 1.3 KiB of stack per level in a debug build, down to libyaml's own limit of
    /// 1,000 levels: more than Darwin's 512 KiB secondary-thread stacks hold. So composing, the depth check and the
    /// conversion run on a thread with a stack of ``composeStackSize``, and the Yams tree is freed there too.
    /// - Throws: ``VersioningError/syntax(file:line:message:)`` naming the line of a YAML error or of the first
    ///   value nested deeper than ``maximumDepth``.
    static func parse(_ bytes: [UInt8], path: String) throws -> XcodeGenNode {
        try BlockingWork.waitingOnStack(of: composeStackSize) {
            let text = String(decoding: bytes, as: UTF8.self)
            let node: Yams.Node?
            do {
                node = try Yams.compose(yaml: text)
            } catch let error as YamlError {
                throw Self.syntax(error, path: path)
            } catch {
                throw VersioningError.syntax(file: path, line: 1, message: "\(error)")
            }
            guard let node else { return .mapping([]) }
            let source = Source(path: path, bytes: bytes)
            return try source.convert(node, depth: 1)
        }
    }

    /// The stack Yams composes on: libyaml's 1,000 levels at 1.3 KiB each, with room to spare.
    static let composeStackSize = 8 << 20

    private static func syntax(_ error: YamlError, path: String) -> VersioningError {
        switch error {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _), .composer(_, let problem, let mark, _):
            return .syntax(file: path, line: mark.line, message: problem)
        default:
            return .syntax(file: path, line: 1, message: "\(error)")
        }
    }

    /// The file being converted: its bytes and where each line starts.
    private struct Source {
        let path: String
        let bytes: [UInt8]
        let lineStarts: [Int]

        init(path: String, bytes: [UInt8]) {
            self.path = path
            self.bytes = bytes
            var starts = [0]
            for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") { starts.append(index + 1) }
            lineStarts = starts
        }

        /// The byte offset of a 1-based line and column (libyaml counts columns in Unicode scalars).
        func offset(_ mark: Mark) -> Int? {
            guard mark.line >= 1, mark.line <= lineStarts.count else { return nil }
            var offset = lineStarts[mark.line - 1]
            for _ in 1..<max(mark.column, 1) {
                guard offset < bytes.count else { return nil }
                let lead = bytes[offset]
                offset += lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
            }
            return offset
        }

        /// `node`, which is `depth` levels deep (the root is level 1).
        func convert(_ node: Yams.Node, depth: Int) throws(VersioningError) -> XcodeGenNode {
            switch node {
            case .scalar(let scalar):
                return .scalar(convert(scalar, node: node))
            case .mapping(let mapping):
                try check(depth, node)
                var pairs: [Pair] = []
                for (key, value) in mapping {
                    pairs.append(Pair(key: key.string ?? "", file: path, line: key.mark?.line ?? 1, value: try convert(value, depth: depth + 1)))
                }
                return .mapping(pairs)
            case .sequence(let sequence):
                try check(depth, node)
                var elements: [XcodeGenNode] = []
                for element in sequence { elements.append(try convert(element, depth: depth + 1)) }
                return .sequence(elements)
            case .alias:
                return .mapping([])
            }
        }

        func check(_ depth: Int, _ node: Yams.Node) throws(VersioningError) {
            guard depth > XcodeGenNode.maximumDepth else { return }
            throw .syntax(file: path, line: node.mark?.line ?? 1, message: "mappings and sequences nested deeper than \(XcodeGenNode.maximumDepth) levels")
        }

        func convert(_ scalar: Yams.Node.Scalar, node: Yams.Node) -> Scalar {
            let written = scalar.string
            var value = written
            var range: Range<Int>?
            var quote: Character?
            let start = scalar.mark.flatMap(offset)
            switch scalar.style {
            case .plain, .any:
                // XcodeGen loads the spec with Yams' default types and writes numbers back with Swift's
                // formatting: a plain `3.10` becomes `3.1` in the project.
                if let int = node.int {
                    value = String(int)
                } else if let double = node.float, written.contains(".") || written.lowercased().contains("e") {
                    value = "\(double)"
                } else if node.bool != nil || node.null != nil {
                    value = written
                }
                if let start, start + written.utf8.count <= bytes.count,
                    bytes[start..<(start + written.utf8.count)].elementsEqual(written.utf8)
                {
                    range = start..<(start + written.utf8.count)
                }
            case .doubleQuoted, .singleQuoted:
                let mark: UInt8 = scalar.style == .doubleQuoted ? UInt8(ascii: "\"") : UInt8(ascii: "'")
                quote = scalar.style == .doubleQuoted ? "\"" : "'"
                if let start, start < bytes.count, bytes[start] == mark {
                    var index = start + 1
                    while index < bytes.count, bytes[index] != UInt8(ascii: "\n") {
                        if mark == UInt8(ascii: "\""), bytes[index] == UInt8(ascii: "\\") {
                            index += 2
                            continue
                        }
                        if bytes[index] == mark {
                            if mark == UInt8(ascii: "'"), index + 1 < bytes.count, bytes[index + 1] == mark {
                                index += 2
                                continue
                            }
                            range = start..<(index + 1)
                            break
                        }
                        index += 1
                    }
                }
            case .literal, .folded:
                break
            }
            return Scalar(value: value, written: written, file: path, line: scalar.mark?.line ?? 1, range: range, quote: quote)
        }
    }
}

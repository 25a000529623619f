import Foundation
import ReleaseSteps

/// Decodes a step's `with` object into its typed `Options`, with errors that carry the line, column and JSON
/// path of the offending value, and a record of which keys the type asked for, so keys it never asked for are
/// reported as unknown (with a did-you-mean).
///
/// Numbers and booleans may also be written as strings (`"level": "${level}"`), since interpolation produces
/// text. In ``Mode/validation`` a string that still holds `${...}` stands for any value of the requested type.
///
/// A ``StepOptions`` type is decoded from its declarations (read from `T()`, as swift-argument-parser does): each
/// `@StepOption` property is looked up under its key (`archivePath` under `archive_path`), and an absent one takes its
/// declared default, or fails as a missing required option. An ``OptionChoice`` accepts only its words. A
/// ``StepOptionGroup``'s options are looked up in the same object, beside the step's own.
package struct OptionsDecoder {
    /// Whether `${...}` references are still in the values.
    package enum Mode: Sendable {
        /// Plan time: references are unresolved and accepted wherever a value is expected.
        case validation
        /// Run time: every reference has been substituted.
        case resolved
    }

    /// A decoding problem at a place in the document.
    package struct Failure: Error, Sendable, Equatable {
        package var path: JSONPath
        package var location: SourceLocation
        package var message: String
        /// The value could not be checked yet: a `${...}` stands where an object with required keys belongs.
        package var isPending = false
        /// Further problems of the same `with` object, in declaration order: every option is decoded even after one
        /// fails, so one `validate` shows them all.
        package var others: [Failure] = []
        /// Keys of the same `with` object that the type never asked for, found while collecting the problems.
        package var unknownKeys: [UnknownKey] = []

        /// This failure and the others.
        package var all: [Failure] {
            var first = self
            first.others = []
            first.unknownKeys = []
            return [first] + others
        }

        /// Failures are equal when their problems are; the unknown keys found beside them are not compared.
        package static func == (lhs: Failure, rhs: Failure) -> Bool {
            (lhs.path, lhs.location, lhs.message, lhs.isPending, lhs.others) == (rhs.path, rhs.location, rhs.message, rhs.isPending, rhs.others)
        }
    }

    /// A key the options type never asked for.
    package typealias UnknownKey = (path: JSONPath, location: SourceLocation, key: String, known: [String])

    /// What decoding found besides the value.
    package struct Outcome<Value> {
        package var value: Value
        /// Keys present in the document that the type never asked for, with where they are.
        package var unknownKeys: [(path: JSONPath, location: SourceLocation, key: String, known: [String])]
        /// Every key the type asked for in the top-level object, present or not.
        package var requestedKeys: Set<String>
    }

    package var mode: Mode

    package init(mode: Mode) {
        self.mode = mode
    }

    /// Decodes `type` from `node`, which sits at `path` in the file.
    package func decode<T: Decodable>(_ type: T.Type, from node: JSONNode, at path: JSONPath) throws(Failure) -> Outcome<T> {
        let recorder = KeyRecorder()
        let decoder = NodeDecoder(node: node, path: path, codingPath: [], mode: mode, recorder: recorder)
        var value: T?
        do {
            value = try decoder.decodeValue(T.self)
        } catch {
            recorder.fail(error)
        }
        if !recorder.failures.isEmpty || recorder.hasPending {
            // Declared options that failed were given placeholders to go on decoding: the value is not usable.
            let failures = recorder.failures.compactMap { Self.failure(from: $0, root: node, rootPath: path) }
            guard var first = failures.first else {
                throw Failure(path: path, location: node.location, message: "value not known until run time", isPending: true)
            }
            first.others = Array(failures.dropFirst())
            first.unknownKeys = Self.unknownKeys(recorder)
            throw first
        }
        guard let value else { throw Failure(path: path, location: node.location, message: "internal error: nothing decoded") }
        return Outcome(value: value, unknownKeys: Self.unknownKeys(recorder), requestedKeys: recorder.requestedKeys(at: path))
    }

    /// A located failure for an error thrown while decoding; nil for a `${...}` whose value is not known yet.
    static func failure(from error: any Error, root node: JSONNode, rootPath path: JSONPath) -> Failure? {
        switch error {
        case let failure as Failure: return failure
        case is PendingTemplate: return nil
        case let error as DecodingError: return failure(from: error, root: node, rootPath: path)
        case let error as StepError: return Failure(path: path, location: node.location, message: error.description)
        default: return Failure(path: path, location: node.location, message: "\(error)")
        }
    }

    /// Keys present in the document that the type never asked for, in document order.
    private static func unknownKeys(_ recorder: KeyRecorder) -> [UnknownKey] {
        var unknown: [(JSONPath, SourceLocation, String, [String])] = []
        for (objectPath, members, requested) in recorder.objects {
            for member in members where !requested.contains(member.key) {
                unknown.append((objectPath.appending(member.key), member.keyLocation, member.key, requested.sorted()))
            }
        }
        unknown.sort { ($0.1.line, $0.1.column) < ($1.1.line, $1.1.column) }
        return unknown.map { (path: $0.0, location: $0.1, key: $0.2, known: $0.3) }
    }

    /// Maps a `DecodingError` thrown by an Options type's own `init(from:)` to a located failure.
    static func failure(from error: DecodingError, root: JSONNode, rootPath: JSONPath) -> Failure {
        let context: DecodingError.Context
        switch error {
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .keyNotFound(_, let c), .dataCorrupted(let c): context = c
        @unknown default: return Failure(path: rootPath, location: root.location, message: "\(error)")
        }
        var node = root
        var path = rootPath
        for key in context.codingPath {
            if let index = key.intValue, case .array(let items) = node.value, index < items.count {
                node = items[index]
                path = path.appending(index)
            } else if let child = node[key.stringValue] {
                node = child
                path = path.appending(key.stringValue)
            } else {
                path = key.intValue.map(path.appending) ?? path.appending(key.stringValue)
            }
        }
        if case .keyNotFound(let key, _) = error {
            return Failure(path: path, location: node.location, message: "missing required option '\(key.stringValue)'")
        }
        return Failure(path: path, location: node.location, message: context.debugDescription)
    }
}

/// Which keys each object was asked for. Lives for one decode on one thread.
final class KeyRecorder {
    private var order: [JSONPath] = []
    private var table: [JSONPath: ([JSONNode.Member], Set<String>)] = [:]
    /// Errors of declared options, collected so decoding goes on to the next option.
    private(set) var failures: [any Error] = []
    /// Whether a `${...}` stood where a value was required (its problems show at run time).
    private(set) var hasPending = false

    func fail(_ error: any Error) {
        if error is PendingTemplate { hasPending = true } else { failures.append(error) }
    }

    func register(_ path: JSONPath, members: [JSONNode.Member]) {
        if table[path] == nil {
            order.append(path)
            table[path] = (members, [])
        }
    }

    func requested(_ key: String, at path: JSONPath) {
        table[path]?.1.insert(key)
    }

    func requestedKeys(at path: JSONPath) -> Set<String> {
        table[path]?.1 ?? []
    }

    var objects: [(JSONPath, [JSONNode.Member], Set<String>)] {
        order.compactMap { path in table[path].map { (path, $0.0, $0.1) } }
    }
}

/// A JSON path component as a `CodingKey`.
struct NodeKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) {
        self.stringValue = "\(intValue)"
        self.intValue = intValue
    }
}

struct NodeDecoder: Decoder {
    let node: JSONNode
    let path: JSONPath
    let codingPath: [any CodingKey]
    let mode: OptionsDecoder.Mode
    let recorder: KeyRecorder
    /// The declared options by Swift property name, when this node is a ``StepOptions`` value.
    var declared: [String: DeclaredOption] = [:]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func fail(_ message: String) -> OptionsDecoder.Failure {
        OptionsDecoder.Failure(path: path, location: node.location, message: message)
    }

    /// Whether this is a string still holding `${...}` during validation: a stand-in for any value.
    var isPendingTemplate: Bool {
        if mode == .validation, case .string(let text) = node.value { return Template.mayContainReferences(text) }
        return false
    }

    /// Whether this value or an item of it is a ``isPendingTemplate`` stand-in.
    var holdsPendingTemplate: Bool {
        if isPendingTemplate { return true }
        if mode == .validation, case .array(let items) = node.value {
            return items.contains { item in
                if case .string(let text) = item.value { return Template.mayContainReferences(text) }
                return false
            }
        }
        return false
    }

    /// This node, or the item of this array, whose number is `number`, to point an error at it.
    func numberNode(equalTo number: Double) -> NodeDecoder? {
        guard case .array(let items) = node.value else { return nil }
        for (index, item) in items.enumerated() {
            let child = child(item, key: NodeKey(intValue: index))
            if (try? child.decodeDouble()) == number { return child }
        }
        return nil
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        if isPendingTemplate {
            return KeyedDecodingContainer(NodeKeyedContainer<Key>(decoder: self, members: [], pending: true, declared: declared))
        }
        guard case .object(let members) = node.value else {
            throw fail("expected an object, found \(node.found)")
        }
        recorder.register(path, members: members)
        return KeyedDecodingContainer(NodeKeyedContainer<Key>(decoder: self, members: members, pending: false, declared: declared))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        if isPendingTemplate { return NodeUnkeyedContainer(decoder: self, items: []) }
        guard case .array(let items) = node.value else {
            throw fail("expected an array, found \(node.found)")
        }
        return NodeUnkeyedContainer(decoder: self, items: items)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        NodeSingleValueContainer(decoder: self)
    }

    func child(_ node: JSONNode, key: any CodingKey) -> NodeDecoder {
        let childPath = key.intValue.map(path.appending) ?? path.appending(key.stringValue)
        return NodeDecoder(node: node, path: childPath, codingPath: codingPath + [key], mode: mode, recorder: recorder)
    }

    // MARK: Scalars

    func decodeString() throws -> String {
        switch node.value {
        case .string(let text): return text
        case .number(_, let text): return text
        case .bool(let flag): return flag ? "true" : "false"
        default: throw fail("expected a string, found \(node.found)")
        }
    }

    func decodeBool() throws -> Bool {
        if isPendingTemplate { return false }
        switch node.value {
        case .bool(let flag): return flag
        case .string("true"): return true
        case .string("false"): return false
        default: throw fail("expected true or false, found \(node.found)")
        }
    }

    func decodeDouble() throws -> Double {
        if isPendingTemplate { return 0 }
        let value: Double
        switch node.value {
        case .number(let number, _): value = number
        case .string(let text):
            guard let number = Double(text.trimmingCharacters(in: .whitespaces)) else { throw fail("expected a number, found \(node.preview)") }
            value = number
        default: throw fail("expected a number, found \(node.found)")
        }
        // `1e999` parses as infinity and `"nan"` as NaN: neither is a number any option can use.
        guard value.isFinite else { throw fail("expected a finite number, found \(node.preview)") }
        return value
    }

    func decodeInteger<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        if isPendingTemplate { return 0 }
        let text: String
        switch node.value {
        case .number(_, let raw): text = raw
        case .string(let raw): text = raw.trimmingCharacters(in: .whitespaces)
        default: throw fail("expected a whole number, found \(node.found)")
        }
        if let value = T(text) { return value }
        if let double = Double(text), double.rounded() == double, let value = T(exactly: double) { return value }
        throw fail("expected a whole number, found \(node.preview)")
    }

    func decodeNil() -> Bool {
        if case .null = node.value { return true }
        return false
    }
}

struct NodeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: NodeDecoder
    let members: [JSONNode.Member]
    /// A `${...}` string standing in for the whole object during validation: every key is absent.
    let pending: Bool
    /// The declared options by Swift property name (a ``StepOptions`` object), else empty.
    let declared: [String: DeclaredOption]

    var codingPath: [any CodingKey] { decoder.codingPath }
    var allKeys: [Key] {
        let properties = Dictionary(declared.values.map { ($0.key, $0.property) }, uniquingKeysWith: { first, _ in first })
        return members.compactMap { Key(stringValue: properties[$0.key] ?? $0.key) }
    }

    /// The key in the document: a declared option's key, else the coding key as it is.
    private func name(_ key: Key) -> String {
        declared[key.stringValue]?.key ?? key.stringValue
    }

    func contains(_ key: Key) -> Bool {
        let name = name(key)
        decoder.recorder.requested(name, at: decoder.path)
        return members.contains { $0.key == name }
    }

    private func member(_ key: Key) throws -> NodeDecoder {
        let name = name(key)
        decoder.recorder.requested(name, at: decoder.path)
        guard let member = members.first(where: { $0.key == name }) else {
            if pending { throw PendingTemplate() }
            throw decoder.fail("missing required option '\(name)'")
        }
        return decoder.child(member.value, key: NodeKey(stringValue: name))
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        guard let child = try? member(key) else { return true }
        return child.decodeNil()
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        // A group's options sit in this same object (their keys beside the step's own): the property name is no key.
        if T.self is any OptionGroupStorage.Type { return try decoder.decodeValue(type) }
        // An absent declared option that is not required is its declaration: the default, or nil.
        guard let option = declared[key.stringValue]?.declaration else { return try member(key).decodeValue(type) }
        if !option.isRequired, !contains(key), let declaration = option as? T {
            return declaration
        }
        do {
            let child = try member(key)
            let value = try child.decodeValue(type)
            // A `${...}` decoded as a stand-in is checked at run time, when its value is known.
            if let number = option.numberOutsideRange(in: value), let range = option.range, !child.holdsPendingTemplate {
                let location = child.numberNode(equalTo: number) ?? child
                throw location.fail("'\(name(key))' must be \(range.text), found \(location.node.preview)")
            }
            return value
        } catch {
            // Go on with the next option, so every problem of the object is reported at once; the declaration stands
            // in for the value, and the decode as a whole fails (the recorder has the error).
            guard let placeholder = option as? T else { throw error }
            decoder.recorder.fail(error)
            return placeholder
        }
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard contains(key) else { return nil }
        let child = try member(key)
        if child.decodeNil() { return nil }
        return try child.decodeValue(type)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try member(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try member(key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { decoder }
    func superDecoder(forKey key: Key) throws -> any Decoder { try member(key) }
}

/// Thrown when a required key is read from a `${...}` placeholder during validation; the value is unknown yet.
struct PendingTemplate: Error {}

struct NodeUnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: NodeDecoder
    let items: [JSONNode]
    var currentIndex = 0

    init(decoder: NodeDecoder, items: [JSONNode]) {
        self.decoder = decoder
        self.items = items
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    private mutating func next() throws -> NodeDecoder {
        guard !isAtEnd else { throw decoder.fail("expected more items in the array") }
        let child = decoder.child(items[currentIndex], key: NodeKey(intValue: currentIndex))
        currentIndex += 1
        return child
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else { return false }
        if case .null = items[currentIndex].value {
            currentIndex += 1
            return true
        }
        return false
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try next().decodeValue(type)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next().unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder { try next() }
}

struct NodeSingleValueContainer: SingleValueDecodingContainer {
    let decoder: NodeDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { decoder.decodeNil() }
    func decode(_ type: Bool.Type) throws -> Bool { try decoder.decodeBool() }
    func decode(_ type: String.Type) throws -> String { try decoder.decodeString() }
    func decode(_ type: Double.Type) throws -> Double { try decoder.decodeDouble() }
    func decode(_ type: Float.Type) throws -> Float { Float(try decoder.decodeDouble()) }
    func decode(_ type: Int.Type) throws -> Int { try decoder.decodeInteger(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decoder.decodeInteger(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decoder.decodeInteger(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decoder.decodeInteger(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decoder.decodeInteger(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try decoder.decodeInteger(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.decodeInteger(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.decodeInteger(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.decodeInteger(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.decodeInteger(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decodeValue(type) }
}

extension NodeDecoder {
    /// Decodes `type`, routing scalar types through the located scalar decoders.
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        switch type {
        case is String.Type: return try decodeString() as! T
        case is Bool.Type: return try decodeBool() as! T
        case is Double.Type: return try decodeDouble() as! T
        case is Int.Type: return try decodeInteger(Int.self) as! T
        case is Int64.Type: return try decodeInteger(Int64.self) as! T
        case is UInt64.Type: return try decodeInteger(UInt64.self) as! T
        case is JSONNode.Type: return node as! T
        case let choice as any OptionChoice.Type: return try decodeChoice(choice) as! T
        case let options as any StepOptions.Type:
            var decoder = self
            decoder.declared = Dictionary(options.declaredOptions.map { ($0.property, $0) }, uniquingKeysWith: { first, _ in first })
            // Opening the object records it, so its keys are checked even when the type asks for none (`noop`).
            _ = try decoder.container(keyedBy: NodeKey.self)
            return try T(from: decoder)
        default:
            return try T(from: self)
        }
    }

    /// One of the choice's words; during validation a `${...}` stands for any of them.
    func decodeChoice<Choice: OptionChoice>(_ type: Choice.Type) throws -> Choice {
        if isPendingTemplate, let any = Choice.allCases.first { return any }
        let text = try decodeString()
        guard let value = Choice(rawValue: text) else { throw fail(Choice.invalidValueMessage(text)) }
        return value
    }
}

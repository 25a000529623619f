import Foundation
import ReleaseSupport

/// The build settings of one target in one configuration, layered the way Xcode layers them:
/// target build settings, then the target's `.xcconfig`, then project build settings, then the project's
/// `.xcconfig`, then defaults. Within an `.xcconfig` a later assignment overrides an earlier one.
///
/// Values expand `$(VAR)`, `${VAR}`, `$VAR`, `$(inherited)` (the next layer down), self-references
/// (`MARKETING_VERSION = $(MARKETING_VERSION)` means the same as `$(inherited)`), nested references
/// (`$(FOO_$(BAR))`) and the modifiers `:default=`, `:lower`, `:upper`, `:identifier`; other modifiers leave
/// the value as it is. Cycles expand to the empty string instead of looping.
///
/// Expansion is bounded, because a project file is input nobody reviewed: a value longer than ``maximumLength``
/// (thirty settings that each double the one before reach a gigabyte from a 600-byte `.xcconfig`), a chain of
/// references deeper than ``maximumDepth`` and more than ``maximumReferences`` references followed for one value
/// are errors naming the setting and its `file:line`. Within one resolution a setting is expanded once and
/// remembered, so settings that repeat each other cost their length, not the number of paths to them.
///
/// A layer may have holes: files that should have been read at that point but are missing (a git-ignored
/// base configuration, an `#include` of one). A resolution records every hole it passed before finding its
/// definition, because the missing file could have defined the value there.
package struct BuildSettings: Sendable {
    /// One layer: definitions in file order, and where missing files would have been read.
    package struct Layer: Sendable {
        /// A missing file and how many of the layer's definitions precede it (0 for a missing base
        /// configuration: the whole layer is unknown).
        package struct Hole: Sendable, Hashable {
            /// The missing file.
            package var file: MissingFile
            /// The number of definitions read before it.
            package var after: Int

            /// Creates a value from its parts.
            package init(file: MissingFile, after: Int) {
                self.file = file
                self.after = after
            }
        }

        /// The definitions in file order.
        package var definitions: [SettingDefinition]
        /// The missing files, in file order.
        package var holes: [Hole]

        /// What reading the layer's files noticed and a user should know (`file:line: …`), such as an include found
        /// only under another letter case.
        package var notes: [String]

        /// Creates a value from its parts.
        package init(definitions: [SettingDefinition], holes: [Hole] = [], notes: [String] = []) {
            self.definitions = definitions
            self.holes = holes
            self.notes = notes
        }
    }

    /// A value and how sure it is.
    package struct Resolution: Sendable, Equatable {
        /// The expanded value; `nil` when nothing defines the setting.
        package var value: String?
        /// Missing files that could have defined (part of) the value, in precedence order.
        package var uncertainBecause: [MissingFile]
        /// Settings the value refers to that nothing defines (they expand to the empty string).
        package var undefinedReferences: [String]
    }

    /// How deep references may chain (`A = $(B)`, `B = $(C)`, …, or `$(A_$(B_$(C)))`) before expanding fails.
    /// Following one reference is two levels (a lookup and an expansion) and takes about 9 KiB of stack in a debug
    /// build: 32 levels (16 settings) fit Darwin's 512 KiB secondary-thread stacks with more than half to spare.
    /// Real chains are 2 or 3 settings.
    package static let maximumDepth = 32
    /// The longest value, in UTF-8 bytes, one expansion may produce (real ones are a few hundred).
    package static let maximumLength = 1 << 20
    /// The most references one resolution may follow, counting each setting once unless cycles prevent remembering
    /// it: a backstop for settings that refer to each other both many times and in cycles.
    package static let maximumReferences = 1 << 16

    /// Every unconditional and conditional definition, highest precedence first.
    package let definitions: [SettingDefinition]
    /// Values Xcode provides when nothing defines them (`SRCROOT`, `TARGET_NAME`, …).
    package let defaults: [String: String]
    /// Missing files: each sits just before `definitions[position]` in precedence order.
    private let holes: [(position: Int, file: MissingFile)]

    /// Creates settings from layers given highest precedence first; each layer's definitions in file order.
    package init(layers: [[SettingDefinition]], defaults: [String: String]) {
        self.init(layers: layers.map { Layer(definitions: $0) }, defaults: defaults)
    }

    /// Creates settings from layers (with their missing files) given highest precedence first.
    package init(layers: [Layer], defaults: [String: String]) {
        var definitions: [SettingDefinition] = []
        var holes: [(position: Int, file: MissingFile)] = []
        for layer in layers {
            let offset = definitions.count
            let count = layer.definitions.count
            // Reversed, a file's later assignments come first; a hole after `k` definitions overrides those
            // `k` and is overridden by the `count - k` after it.
            for hole in layer.holes.reversed() {
                holes.append((offset + count - min(hole.after, count), hole.file))
            }
            definitions += layer.definitions.reversed()
        }
        self.definitions = definitions
        self.holes = holes.sorted { $0.position < $1.position }
        self.defaults = defaults
    }

    /// The expanded value of `key`, or `nil` when nothing defines it.
    /// - Throws: ``VersioningError/settingExpansion(location:key:problem:)`` past a limit of expansion.
    package func value(of key: String) throws(VersioningError) -> String? {
        try resolve(key).value
    }

    /// The expanded value of `key` in a build for `sdk` (`iphoneos`): the highest-precedence definition that is
    /// unconditional or whose only conditions are `sdk=` patterns matching `sdk` (`CODE_SIGN_IDENTITY[sdk=iphoneos*]`),
    /// as Xcode applies them; `nil` when nothing defines it or it cannot be expanded. A conditional value's
    /// `$(inherited)` expands to nothing.
    package func value(of key: String, sdk: String) -> String? {
        guard let definition = definitions.first(where: { $0.key == key && ($0.condition.map { Self.condition($0, matchesSDK: sdk) } ?? true) })
        else { return defaults[key] }
        if definition.condition == nil { return try? value(of: key) }
        return try? expand(definition.value.replacingOccurrences(of: "$(inherited)", with: ""), at: definition.site)
    }

    /// Whether every part of `condition` (`sdk=iphoneos*`, joined by commas) is an `sdk=` pattern matching `sdk`.
    static func condition(_ condition: String, matchesSDK sdk: String) -> Bool {
        condition.split(separator: ",").allSatisfy { part in
            let pieces = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pieces.count == 2, pieces[0] == "sdk" else { return false }
            let pattern = pieces[1]
            return pattern.hasSuffix("*") ? sdk.hasPrefix(pattern.dropLast()) : sdk == pattern
        }
    }

    /// The expanded value of `key` with the missing files and undefined references it depends on.
    /// - Throws: ``VersioningError/settingExpansion(location:key:problem:)`` past a limit of expansion.
    package func resolve(_ key: String) throws(VersioningError) -> Resolution {
        var trace = Trace()
        var visiting: Set<String> = []
        let site = definition(of: key)?.site
        let value = try bounded(key: key, location: site?.location ?? "build settings") { () throws(Expansion) in
            try lookup(key, from: 0, visiting: &visiting, trace: &trace, depth: 0)
        }
        return resolution(value, trace)
    }

    /// Whether a definition or default exists for `key`.
    package func isDefined(_ key: String) -> Bool {
        index(of: key, from: 0) != nil || defaults[key] != nil
    }

    /// Expands every reference in `text` against these settings; `site` says where the text is written, for errors.
    /// - Throws: ``VersioningError/settingExpansion(location:key:problem:)`` past a limit of expansion.
    package func expand(_ text: String, at site: ValueSite? = nil) throws(VersioningError) -> String {
        try resolveText(text, at: site).value ?? text
    }

    /// Expands `text` (an Info.plist value written at `site`) with the missing files and undefined references it
    /// depends on.
    /// - Throws: ``VersioningError/settingExpansion(location:key:problem:)`` past a limit of expansion.
    package func resolveText(_ text: String, at site: ValueSite? = nil) throws(VersioningError) -> Resolution {
        var trace = Trace()
        var visiting: Set<String> = []
        let value = try bounded(key: site?.key ?? Echo.text(text), location: site?.location ?? "Info.plist") { () throws(Expansion) in
            try expand(text, inheritedKey: nil, inheritedFrom: definitions.count, visiting: &visiting, trace: &trace, depth: 0)
        }
        return resolution(value, trace)
    }

    /// The unconditional definition of `key` that wins, if any.
    package func definition(of key: String) -> SettingDefinition? {
        index(of: key, from: 0).map { definitions[$0] }
    }

    /// Where the value of `key` is written as a literal, following `$(inherited)`, self-references and
    /// whole-value references such as `MARKETING_VERSION = $(APP_VERSION)`.
    package func origin(of key: String) -> ValueOrigin? {
        var visited: Set<String> = []
        return origin(of: key, from: 0, visited: &visited, depth: 0)
    }

    /// The origin of a value that is the whole of `text` (an Info.plist string): a single reference is
    /// followed, anything else stays at `site`.
    package func origin(ofText text: String, at site: ValueSite) -> ValueOrigin {
        if let name = Self.singleReference(text), name != "inherited", let found = origin(of: name) {
            return found
        }
        return ValueOrigin(site: site, editable: !text.contains("$"))
    }

    // MARK: Lookup

    /// Why an expansion stopped; ``lookup(_:from:visiting:trace:depth:)`` turns it into a located error.
    private enum Expansion: Error {
        /// Over ``maximumLength``.
        case tooLong
        /// Over ``maximumDepth``.
        case tooDeep
        /// Over ``maximumReferences``.
        case tooManyReferences
        /// Already located at the definition where the limit was passed.
        case located(VersioningError)

        var problem: String {
            switch self {
            case .tooLong: return "expands to more than \(ByteFormat.size(Int64(BuildSettings.maximumLength))) (settings that repeat each other multiply)"
            case .tooDeep: return "nests references deeper than \(BuildSettings.maximumDepth) levels"
            case .tooManyReferences: return "needs more than \(BuildSettings.maximumReferences) references to expand (settings that repeat each other in cycles)"
            case .located(let error): return error.description
            }
        }
    }

    /// What the expansion of one setting met, remembered with its value.
    private struct Met {
        var holes: Set<Int> = []
        /// Undefined references in the order first met.
        var undefined: [String] = []
        /// Whether a cycle was cut short on the way, which makes the value depend on where the expansion started.
        var cutCycle = false

        mutating func merge(_ other: Met) {
            holes.formUnion(other.holes)
            for name in other.undefined where !undefined.contains(name) { undefined.append(name) }
            cutCycle = cutCycle || other.cutCycle
        }
    }

    /// What one resolution met on its way.
    private struct Trace {
        var holes: Set<Int> = []
        var undefined: [String] = []
        /// Values already expanded in this resolution, by `key@start`, with what their expansion met.
        var remembered: [String: (value: String?, met: Met)] = [:]
        /// What each setting being expanded has met so far, innermost last.
        var frames: [Met] = []
        /// References followed so far.
        var references = 0

        mutating func pass(_ holes: [(position: Int, file: MissingFile)], from start: Int, through end: Int?) {
            for (offset, hole) in holes.enumerated() where hole.position >= start && hole.position <= (end ?? Int.max) {
                self.holes.insert(offset)
                if !frames.isEmpty { frames[frames.count - 1].holes.insert(offset) }
            }
        }

        mutating func meetUndefined(_ name: String) {
            if !undefined.contains(name) { undefined.append(name) }
            if !frames.isEmpty, !frames[frames.count - 1].undefined.contains(name) { frames[frames.count - 1].undefined.append(name) }
        }

        mutating func cutCycle() {
            if !frames.isEmpty { frames[frames.count - 1].cutCycle = true }
        }

        /// Records a remembered expansion's findings as if it had just been expanded again.
        mutating func replay(_ met: Met) {
            holes.formUnion(met.holes)
            for name in met.undefined where !undefined.contains(name) { undefined.append(name) }
            if !frames.isEmpty { frames[frames.count - 1].merge(met) }
        }
    }

    /// Runs an expansion, turning a limit it passed into a ``VersioningError`` at `location` when no definition on
    /// the way has located it already.
    private func bounded<T>(key: String, location: String, _ body: () throws(Expansion) -> T) throws(VersioningError) -> T {
        do {
            return try body()
        } catch .located(let error) {
            throw error
        } catch {
            throw VersioningError.settingExpansion(location: location, key: key, problem: error.problem)
        }
    }

    private func resolution(_ value: String?, _ trace: Trace) -> Resolution {
        var files: [MissingFile] = []
        for offset in trace.holes.sorted() where !files.contains(holes[offset].file) {
            files.append(holes[offset].file)
        }
        return Resolution(value: value, uncertainBecause: files, undefinedReferences: trace.undefined)
    }

    private func index(of key: String, from start: Int) -> Int? {
        guard start < definitions.count else { return nil }
        for position in start..<definitions.count
        where definitions[position].key == key && definitions[position].condition == nil {
            return position
        }
        return nil
    }

    private func origin(of key: String, from start: Int, visited: inout Set<String>, depth: Int) -> ValueOrigin? {
        let marker = "\(key)@\(start)"
        guard depth < Self.maximumDepth, !visited.contains(marker), let position = index(of: key, from: start) else { return nil }
        visited.insert(marker)
        let definition = definitions[position]
        let text = definition.value.trimmingCharacters(in: .whitespaces)
        if let name = Self.singleReference(text) {
            let followed =
                name == "inherited" || name == key
                ? origin(of: key, from: position + 1, visited: &visited, depth: depth + 1)
                : origin(of: name, from: 0, visited: &visited, depth: depth + 1)
            if let followed { return followed }
        }
        return ValueOrigin(site: definition.site, editable: !text.contains("$"))
    }

    /// `NAME` when `text` is exactly `$(NAME)`, `${NAME}` or `$NAME` with no modifiers.
    static func singleReference(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        func isName<S: StringProtocol>(_ name: S) -> Bool {
            !name.isEmpty && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
                && !(name.first?.isNumber ?? true)
        }
        if trimmed.hasPrefix("$"), isName(trimmed.dropFirst()) { return String(trimmed.dropFirst()) }
        guard trimmed.count >= 4 else { return nil }
        let open: String
        let close: Character
        if trimmed.hasPrefix("$(") { open = "$("; close = ")" } else if trimmed.hasPrefix("${") { open = "${"; close = "}" } else { return nil }
        guard trimmed.last == close else { return nil }
        let name = trimmed.dropFirst(open.count).dropLast()
        guard isName(name) else { return nil }
        return String(name)
    }

    private func lookup(_ key: String, from start: Int, visiting: inout Set<String>, trace: inout Trace, depth: Int) throws(Expansion) -> String? {
        let marker = "\(key)@\(start)"
        if visiting.contains(marker) {
            trace.cutCycle()
            return ""
        }
        if let known = trace.remembered[marker] {
            trace.replay(known.met)
            return known.value
        }
        guard depth < Self.maximumDepth else { throw .tooDeep }
        trace.references += 1
        guard trace.references <= Self.maximumReferences else { throw .tooManyReferences }
        visiting.insert(marker)
        defer { visiting.remove(marker) }
        trace.frames.append(Met())
        let value: String?
        if let position = index(of: key, from: start) {
            trace.pass(holes, from: start, through: position)
            let site = definitions[position].site
            value = try located(key: key, location: site.location) { () throws(Expansion) in
                try expand(
                    definitions[position].value, inheritedKey: key, inheritedFrom: position + 1, visiting: &visiting,
                    trace: &trace, depth: depth + 1)
            }
        } else {
            trace.pass(holes, from: start, through: nil)
            value = try defaults[key].map { fallback throws(Expansion) in
                try expand(fallback, inheritedKey: nil, inheritedFrom: definitions.count, visiting: &visiting, trace: &trace, depth: depth + 1)
            }
        }
        let met = trace.frames.removeLast()
        if !met.cutCycle { trace.remembered[marker] = (value, met) }
        if !trace.frames.isEmpty { trace.frames[trace.frames.count - 1].merge(met) }
        return value
    }

    /// `bounded(key:location:_:)` inside an expansion: the limit stays an ``Expansion``, now located.
    private func located<T>(key: String, location: String, _ body: () throws(Expansion) -> T) throws(Expansion) -> T {
        do {
            return try body()
        } catch .tooManyReferences {
            // Counted over the whole resolution: the setting it was asked for is the one to name.
            throw .tooManyReferences
        } catch .located(let error) {
            throw .located(error)
        } catch {
            throw .located(VersioningError.settingExpansion(location: location, key: key, problem: error.problem))
        }
    }

    private func expand(
        _ text: String, inheritedKey: String?, inheritedFrom: Int, visiting: inout Set<String>, trace: inout Trace, depth: Int
    ) throws(Expansion) -> String {
        guard text.contains("$") else { return text }
        guard depth < Self.maximumDepth else { throw .tooDeep }
        let characters = Array(text)
        var result = ""
        var index = 0
        func isNameCharacter(_ character: Character) -> Bool {
            character.isASCII && (character.isLetter || character.isNumber || character == "_")
        }
        while index < characters.count {
            let character = characters[index]
            guard character == "$", index + 1 < characters.count else {
                result.append(character)
                index += 1
                continue
            }
            let next = characters[index + 1]
            if next != "(" && next != "{" {
                // `$NAME`: the name runs to the first character that cannot be in one.
                guard isNameCharacter(next), !next.isNumber else {
                    result.append(character)
                    index += 1
                    continue
                }
                var end = index + 1
                while end < characters.count, isNameCharacter(characters[end]) { end += 1 }
                let name = String(characters[(index + 1)..<end])
                result += try reference(name, inheritedKey: inheritedKey, inheritedFrom: inheritedFrom, visiting: &visiting, trace: &trace, depth: depth)
                guard result.utf8.count <= Self.maximumLength else { throw .tooLong }
                index = end
                continue
            }
            let open = next
            let close: Character = open == "(" ? ")" : "}"
            var nesting = 1
            var end = index + 2
            while end < characters.count {
                if characters[end] == open { nesting += 1 }
                if characters[end] == close {
                    nesting -= 1
                    if nesting == 0 { break }
                }
                end += 1
            }
            guard end < characters.count else {
                // An unterminated reference stays as written.
                result.append(contentsOf: characters[index...])
                break
            }
            let inner = try expand(
                String(characters[(index + 2)..<end]), inheritedKey: inheritedKey, inheritedFrom: inheritedFrom,
                visiting: &visiting, trace: &trace, depth: depth + 1
            )
            result += try reference(inner, inheritedKey: inheritedKey, inheritedFrom: inheritedFrom, visiting: &visiting, trace: &trace, depth: depth)
            guard result.utf8.count <= Self.maximumLength else { throw .tooLong }
            index = end + 1
        }
        return result
    }

    private func reference(
        _ inner: String, inheritedKey: String?, inheritedFrom: Int, visiting: inout Set<String>, trace: inout Trace, depth: Int
    ) throws(Expansion) -> String {
        var parts = inner.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let name = parts.removeFirst()
        var value: String?
        // A setting that names itself means what it inherits: `MARKETING_VERSION = "$(MARKETING_VERSION)"`.
        if name == "inherited" || (name == inheritedKey && inheritedKey != nil) {
            value = try inheritedKey.flatMap { key throws(Expansion) in try lookup(key, from: inheritedFrom, visiting: &visiting, trace: &trace, depth: depth + 1) }
        } else {
            value = try lookup(name, from: 0, visiting: &visiting, trace: &trace, depth: depth + 1)
        }
        var result = value ?? ""
        defer {
            if value == nil, result.isEmpty, name != "inherited" { trace.meetUndefined(name) }
        }
        guard let modifiers = parts.first else { return result }
        for modifier in modifiers.split(separator: ",", omittingEmptySubsequences: true).flatMap({ $0.split(separator: ":") }) {
            if modifier.hasPrefix("default=") {
                if result.isEmpty { result = String(modifier.dropFirst("default=".count)) }
            } else if modifier == "lower" {
                result = result.lowercased()
            } else if modifier == "upper" {
                result = result.uppercased()
            } else if modifier == "identifier" || modifier == "c99extidentifier" {
                result = String(result.map { $0.isLetter || $0.isNumber ? $0 : "_" })
            } else if modifier == "rfc1034identifier" {
                result = String(result.map { $0.isLetter || $0.isNumber || $0 == "." ? $0 : "-" })
            }
        }
        return result
    }
}

import Foundation

/// The build settings of one target in one configuration, layered the way Xcode layers them:
/// target build settings, then the target's `.xcconfig`, then project build settings, then the project's
/// `.xcconfig`, then defaults. Within an `.xcconfig` a later assignment overrides an earlier one.
///
/// Values expand `$(VAR)`, `${VAR}`, `$(inherited)` (the next layer down), nested references
/// (`$(FOO_$(BAR))`) and the modifiers `:default=`, `:lower`, `:upper`, `:identifier`; other modifiers leave
/// the value as it is. Cycles expand to the empty string instead of looping.
public struct BuildSettings: Sendable {
    /// Every unconditional and conditional definition, highest precedence first.
    public let definitions: [SettingDefinition]
    /// Values Xcode provides when nothing defines them (`SRCROOT`, `TARGET_NAME`, …).
    public let defaults: [String: String]

    /// Creates settings from layers given highest precedence first; each layer's definitions in file order.
    public init(layers: [[SettingDefinition]], defaults: [String: String]) {
        self.definitions = layers.flatMap { $0.reversed() }
        self.defaults = defaults
    }

    /// The expanded value of `key`, or `nil` when nothing defines it.
    public func value(of key: String) -> String? {
        var visiting: Set<String> = []
        return lookup(key, from: 0, visiting: &visiting)
    }

    /// Whether a definition or default exists for `key`.
    public func isDefined(_ key: String) -> Bool {
        index(of: key, from: 0) != nil || defaults[key] != nil
    }

    /// Expands every reference in `text` against these settings.
    public func expand(_ text: String) -> String {
        var visiting: Set<String> = []
        return expand(text, inheritedKey: nil, inheritedFrom: definitions.count, visiting: &visiting)
    }

    /// The unconditional definition of `key` that wins, if any.
    public func definition(of key: String) -> SettingDefinition? {
        index(of: key, from: 0).map { definitions[$0] }
    }

    /// Where the value of `key` is written as a literal, following `$(inherited)` and whole-value references
    /// such as `MARKETING_VERSION = $(APP_VERSION)`.
    public func origin(of key: String) -> ValueOrigin? {
        var visited: Set<String> = []
        return origin(of: key, from: 0, visited: &visited)
    }

    /// The origin of a value that is the whole of `text` (an Info.plist string): a single reference is
    /// followed, anything else stays at `site`.
    public func origin(ofText text: String, at site: ValueSite) -> ValueOrigin {
        if let name = Self.singleReference(text), name != "inherited", let found = origin(of: name) {
            return found
        }
        return ValueOrigin(site: site, editable: !text.contains("$"))
    }

    // MARK: Lookup

    private func index(of key: String, from start: Int) -> Int? {
        guard start < definitions.count else { return nil }
        for position in start..<definitions.count
        where definitions[position].key == key && definitions[position].condition == nil {
            return position
        }
        return nil
    }

    private func origin(of key: String, from start: Int, visited: inout Set<String>) -> ValueOrigin? {
        let marker = "\(key)@\(start)"
        guard !visited.contains(marker), let position = index(of: key, from: start) else { return nil }
        visited.insert(marker)
        let definition = definitions[position]
        let text = definition.value.trimmingCharacters(in: .whitespaces)
        if let name = Self.singleReference(text) {
            let followed = name == "inherited"
                ? origin(of: key, from: position + 1, visited: &visited)
                : origin(of: name, from: 0, visited: &visited)
            if let followed { return followed }
        }
        return ValueOrigin(site: definition.site, editable: !text.contains("$"))
    }

    /// `NAME` when `text` is exactly `$(NAME)` or `${NAME}` with no modifiers.
    static func singleReference(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.count >= 4 else { return nil }
        let open: String
        let close: Character
        if trimmed.hasPrefix("$(") { open = "$("; close = ")" } else if trimmed.hasPrefix("${") { open = "${"; close = "}" } else { return nil }
        guard trimmed.last == close else { return nil }
        let name = trimmed.dropFirst(open.count).dropLast()
        guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else { return nil }
        return String(name)
    }

    private func lookup(_ key: String, from start: Int, visiting: inout Set<String>) -> String? {
        let marker = "\(key)@\(start)"
        if visiting.contains(marker) { return "" }
        visiting.insert(marker)
        defer { visiting.remove(marker) }
        if let position = index(of: key, from: start) {
            return expand(definitions[position].value, inheritedKey: key, inheritedFrom: position + 1, visiting: &visiting)
        }
        if let fallback = defaults[key] {
            return expand(fallback, inheritedKey: nil, inheritedFrom: definitions.count, visiting: &visiting)
        }
        return nil
    }

    private func expand(_ text: String, inheritedKey: String?, inheritedFrom: Int, visiting: inout Set<String>) -> String {
        guard text.contains("$") else { return text }
        let characters = Array(text)
        var result = ""
        var index = 0
        while index < characters.count {
            let character = characters[index]
            guard character == "$", index + 1 < characters.count,
                  characters[index + 1] == "(" || characters[index + 1] == "{"
            else {
                result.append(character)
                index += 1
                continue
            }
            let open = characters[index + 1]
            let close: Character = open == "(" ? ")" : "}"
            var depth = 1
            var end = index + 2
            while end < characters.count {
                if characters[end] == open { depth += 1 }
                if characters[end] == close {
                    depth -= 1
                    if depth == 0 { break }
                }
                end += 1
            }
            guard end < characters.count else {
                // An unterminated reference stays as written.
                result.append(contentsOf: characters[index...])
                break
            }
            let inner = expand(
                String(characters[(index + 2)..<end]), inheritedKey: inheritedKey, inheritedFrom: inheritedFrom,
                visiting: &visiting
            )
            result += reference(inner, inheritedKey: inheritedKey, inheritedFrom: inheritedFrom, visiting: &visiting)
            index = end + 1
        }
        return result
    }

    private func reference(_ inner: String, inheritedKey: String?, inheritedFrom: Int, visiting: inout Set<String>) -> String {
        var parts = inner.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let name = parts.removeFirst()
        var value: String?
        if name == "inherited" {
            value = inheritedKey.flatMap { lookup($0, from: inheritedFrom, visiting: &visiting) }
        } else {
            value = lookup(name, from: 0, visiting: &visiting)
        }
        var result = value ?? ""
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

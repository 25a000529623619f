import Foundation

/// One assignment of a build setting: in `project.pbxproj` `buildSettings` or in an `.xcconfig` file.
package struct SettingDefinition: Sendable, Hashable {
    /// The setting name without its condition (`MARKETING_VERSION`).
    package var key: String
    /// The condition in brackets, if any (`sdk=iphoneos*`); conditional assignments are kept but not used to
    /// resolve values, because the engine resolves for no particular SDK or architecture.
    package var condition: String?
    /// The value as written (arrays joined with spaces).
    package var value: String
    /// Where it is written.
    package var site: ValueSite

    /// Creates a value from its parts.
    package init(key: String, condition: String?, value: String, site: ValueSite) {
        self.key = key
        self.condition = condition
        self.value = value
        self.site = site
    }

    /// Splits `NAME[sdk=iphoneos*][arch=arm64]` into the name and its conditions (joined, brackets removed).
    static func split(_ text: String) -> (key: String, condition: String?) {
        guard let open = text.firstIndex(of: "[") else { return (text, nil) }
        let key = String(text[..<open])
        let rest = text[open...]
        let condition = rest.replacingOccurrences(of: "][", with: ",")
            .trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return (key, condition)
    }
}

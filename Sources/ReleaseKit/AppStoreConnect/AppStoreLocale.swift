import Foundation

/// The locales App Store Connect accepts for an App Store version's metadata (What's New, description,
/// keywords), as its localization pages list them. A locale outside this list is refused by Apple with a 409, so
/// `appstore.submit` refuses it first, before anything changes.
package enum AppStoreLocale {
    /// Every locale code App Store Connect knows for App Store metadata.
    package static let all: [String] = [
        "ar-SA", "ca", "cs", "da", "de-DE", "el", "en-AU", "en-CA", "en-GB", "en-US", "es-ES", "es-MX", "fi", "fr-CA",
        "fr-FR", "he", "hi", "hr", "hu", "id", "it", "ja", "ko", "ms", "nl-NL", "no", "pl", "pt-BR", "pt-PT", "ro", "ru",
        "sk", "sv", "th", "tr", "uk", "vi", "zh-Hans", "zh-Hant",
    ]

    /// The known locale spelled like `text` apart from case and `_` for `-` (`en_us` → `en-US`), for a hint.
    package static func suggestion(for text: String) -> String? {
        let folded = text.replacingOccurrences(of: "_", with: "-").lowercased()
        if let exact = all.first(where: { $0.lowercased() == folded }) { return exact }
        let language = folded.split(separator: "-").first.map(String.init) ?? folded
        return all.first { $0.lowercased() == language || $0.lowercased().hasPrefix(language + "-") }
    }

    /// App Store Connect's limit on What's New, per locale.
    package static let whatsNewLimit = 4000
}

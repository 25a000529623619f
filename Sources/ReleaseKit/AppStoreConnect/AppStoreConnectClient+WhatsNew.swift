/// A localization resource whose text per locale is `whatsNew`: TestFlight's what-to-test (`betaBuildLocalizations`)
/// and the App Store's What's New (`appStoreVersionLocalizations`).
protocol WhatsNewLocalization: Decodable, Sendable {
    var locale: String? { get }
    var whatsNew: String? { get }
}

extension BetaBuildLocalizationAttributes: WhatsNewLocalization {}
extension AppStoreVersionLocalizationAttributes: WhatsNewLocalization {}

extension AppStoreConnectClient {
    /// What ``convergeWhatsNew(_:type:existing:texts:parent:)`` changed and left as it was, by locale.
    struct WhatsNewChanges: Sendable, Equatable {
        var changed: [String] = []
        var unchanged: [String] = []
    }

    /// Makes each locale's `whatsNew` what `texts` says: a localization with another text is updated (PATCH), a
    /// missing one created (POST) with `parent` as its relationship, one that already says it is left alone, so a
    /// re-run writes nothing.
    /// - Parameters:
    ///   - type: the resource type, `betaBuildLocalizations` or `appStoreVersionLocalizations`.
    ///   - existing: the path listing the parent's localizations.
    ///   - parent: the relationship's name and the parent's type and id (`build`, `builds`, ID).
    func convergeWhatsNew<Attributes: WhatsNewLocalization>(
        _: Attributes.Type, type: String, existing: String, texts: [String: String], parent: (name: String, type: String, id: String)
    ) async throws -> WhatsNewChanges {
        var changes = WhatsNewChanges()
        guard !texts.isEmpty else { return changes }
        let found = try await resources(Attributes.self, existing)
        for locale in texts.keys.sorted() {
            let text = texts[locale] ?? ""
            if let localization = found.first(where: { $0.attributes?.locale == locale }) {
                if localization.attributes?.whatsNew == text {
                    changes.unchanged.append(locale)
                    continue
                }
                try await write(
                    "PATCH", "/v1/\(type)/\(localization.id)",
                    [
                        "data": ["type": type, "id": localization.id, "attributes": ["whatsNew": text]] as [String: Any]
                    ])
            } else {
                try await write(
                    "POST", "/v1/\(type)",
                    [
                        "data": [
                            "type": type, "attributes": ["locale": locale, "whatsNew": text],
                            "relationships": [parent.name: Self.linkage(parent.type, parent.id)],
                        ] as [String: Any]
                    ])
            }
            changes.changed.append(locale)
        }
        return changes
    }
}

/// A localization resource whose text per locale is `whatsNew`: TestFlight's what-to-test (`betaBuildLocalizations`)
/// and the App Store's What's New (`appStoreVersionLocalizations`).
protocol WhatsNewLocalization: Decodable, Sendable {
    var locale: String? { get }
    var whatsNew: String? { get }
    /// The resource type, `betaBuildLocalizations` or `appStoreVersionLocalizations`.
    static var type: String { get }
    /// The contract's document creating the localization of `locale` for the parent (a build, an App Store version).
    static func create(locale: String, whatsNew: String, parentID: String) -> any Encodable & Sendable
    /// The contract's document changing localization `id`'s text.
    static func update(id: String, whatsNew: String) -> any Encodable & Sendable
}

extension BetaBuildLocalizationAttributes: WhatsNewLocalization {
    static let type = "betaBuildLocalizations"

    static func create(locale: String, whatsNew: String, parentID: String) -> any Encodable & Sendable {
        Components.Schemas.BetaBuildLocalizationCreateRequest(
            data: .init(
                _type: .betaBuildLocalizations, attributes: .init(whatsNew: whatsNew, locale: locale),
                relationships: .init(build: .init(data: .init(_type: .builds, id: parentID)))))
    }

    static func update(id: String, whatsNew: String) -> any Encodable & Sendable {
        Components.Schemas.BetaBuildLocalizationUpdateRequest(data: .init(_type: .betaBuildLocalizations, id: id, attributes: .init(whatsNew: whatsNew)))
    }
}

extension AppStoreVersionLocalizationAttributes: WhatsNewLocalization {
    static let type = "appStoreVersionLocalizations"

    static func create(locale: String, whatsNew: String, parentID: String) -> any Encodable & Sendable {
        Components.Schemas.AppStoreVersionLocalizationCreateRequest(
            data: .init(
                _type: .appStoreVersionLocalizations, attributes: .init(locale: locale, whatsNew: whatsNew),
                relationships: .init(appStoreVersion: .init(data: .init(_type: .appStoreVersions, id: parentID)))))
    }

    static func update(id: String, whatsNew: String) -> any Encodable & Sendable {
        Components.Schemas.AppStoreVersionLocalizationUpdateRequest(
            data: .init(_type: .appStoreVersionLocalizations, id: id, attributes: .init(whatsNew: whatsNew)))
    }
}

extension AppStoreConnectClient {
    /// What ``convergeWhatsNew(_:existing:texts:parentID:)`` changed and left as it was, by locale.
    struct WhatsNewChanges: Sendable, Equatable {
        var changed: [String] = []
        var unchanged: [String] = []
    }

    /// Makes each locale's `whatsNew` what `texts` says: a localization with another text is updated (PATCH), a
    /// missing one created (POST) with the parent as its relationship, one that already says it is left alone, so a
    /// re-run writes nothing.
    /// - Parameters:
    ///   - existing: the path listing the parent's localizations.
    ///   - parentID: the id of the build or App Store version the localizations are of.
    func convergeWhatsNew<Attributes: WhatsNewLocalization>(
        _: Attributes.Type, existing: String, texts: [String: String], parentID: String
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
                try await write("PATCH", "/v1/\(Attributes.type)/\(localization.id)", Attributes.update(id: localization.id, whatsNew: text))
            } else {
                try await write("POST", "/v1/\(Attributes.type)", Attributes.create(locale: locale, whatsNew: text, parentID: parentID))
            }
            changes.changed.append(locale)
        }
        return changes
    }
}

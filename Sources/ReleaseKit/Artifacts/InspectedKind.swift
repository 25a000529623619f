/// What a path given to `release dsym` turned out to be.
package enum InspectedKind: String, Sendable, Codable, Equatable {
    case binary
    case app
    case appExtension = "app-extension"
    case framework
    case dsym
    case xcarchive
    case ipa
    case zip
    case folder
}

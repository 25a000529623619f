/// The sessions endpoint's answer (`getOrganizationSessions` in Sentry's OpenAPI): `groups[]`, each with `totals`
/// mapping a field to a number or null. Only what the guard reads is decoded; `start`, `end`, `intervals` and
/// `query` are required by the contract and checked to be there, so another document is not taken for one.
struct SentrySessionsResponse: Decodable {
    struct Group: Decodable {
        var totals: [String: Double?]
    }

    var start: String
    var end: String
    var intervals: [String]
    var groups: [Group]
    var query: String

    /// The total of `field` over every group (one without `groupBy`), nil when no group has a value.
    func total(_ field: String) -> Double? {
        let values = groups.compactMap { $0.totals[field] ?? nil }
        return values.isEmpty ? nil : values.reduce(0, +)
    }
}

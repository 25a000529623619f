/// Options of one step that go together only one at a time (`project` or `file`), declared by the options type
/// (``StepOptions/exclusions``), checked by ``StepOptions/validate()`` and listed by `release steps`.
///
/// An option counts as given when it holds a value: not `nil`, not an empty list.
package struct OptionExclusion: Sendable, Equatable {
    /// The options, in the order messages name them.
    package let keys: [String]
    /// Whether one of them must be given.
    package let isRequired: Bool
    /// The option the refusal of two names, and what it says.
    let both: (key: String, message: String)
    /// The option the refusal of none names, and what it says, when ``isRequired``.
    let none: (key: String, message: String)?

    /// At most one of `keys`: two given are refused at `at` (default: the second given) with `message`.
    package static func atMostOne(_ keys: [String], at key: String? = nil, _ message: String) -> OptionExclusion {
        OptionExclusion(keys: keys, isRequired: false, both: (key ?? "", message), none: nil)
    }

    /// Exactly one of `keys`: none is refused at the first key with `missing`, two as by ``atMostOne(_:at:_:)``.
    package static func exactlyOne(_ keys: [String], at key: String? = nil, _ message: String, missing: String) -> OptionExclusion {
        OptionExclusion(keys: keys, isRequired: true, both: (key ?? "", message), none: (keys[0], missing))
    }

    /// The refusal for the options `given`, if any.
    func problem(given: Set<String>) -> (key: String, message: String)? {
        let present = keys.filter(given.contains)
        if present.count > 1 { return (both.key.isEmpty ? present[1] : both.key, both.message) }
        if present.isEmpty, let none { return none }
        return nil
    }

    /// `project | file (one at the most)`, for `release steps`.
    package var text: String {
        keys.joined(separator: " | ") + (isRequired ? " (exactly one)" : " (one at the most)")
    }

    package static func == (lhs: OptionExclusion, rhs: OptionExclusion) -> Bool {
        lhs.keys == rhs.keys && lhs.isRequired == rhs.isRequired && lhs.both == rhs.both && lhs.none?.key == rhs.none?.key
            && lhs.none?.message == rhs.none?.message
    }
}

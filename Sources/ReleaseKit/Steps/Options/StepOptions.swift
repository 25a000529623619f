/// A step's `with` object: a struct whose stored properties are all ``StepOption``s or ``StepOptionGroup``s (the rules
/// are in `StepOption.swift` and `StepOptionGroup.swift`).
package protocol StepOptions: Decodable, Sendable {
    /// The declaration: every option at its default, read with `Mirror` for decoding and for `release steps`.
    init()
    /// The options that go together only one at a time. Default: none.
    static var exclusions: [OptionExclusion] { get }
    /// Rules that join several options of this type, beyond what ``exclusions`` and each option's declared range
    /// and constraints say. ``validate()`` calls it after those, for the step's own options and for each group's.
    /// Default: none.
    func check() throws(StepError)
}

/// One declared option: the Swift property, its key in `with`, and its declaration.
package struct DeclaredOption {
    package var property: String
    package var key: String
    package var declaration: any OptionDeclaration
}

extension StepOptions {
    /// The declared options in declaration order, a group's (``StepOptionGroup``) in the group's place.
    package static var declaredOptions: [DeclaredOption] {
        Self().storedOptions.map { property, declaration in
            DeclaredOption(property: property, key: declaration.name ?? snakeCase(property), declaration: declaration)
        }
    }

    /// This value's `@StepOption`s with their Swift property names, in declaration order, a group's in the group's
    /// place: the declarations of `Self()`, the decoded options of decoded options.
    private var storedOptions: [(property: String, option: any OptionDeclaration)] {
        Mirror(reflecting: self).children.flatMap { child -> [(property: String, option: any OptionDeclaration)] in
            // A wrapped property `files` is stored as `_files`; synthesized `Decodable` asks for it as `files`.
            guard let label = child.label, label.hasPrefix("_") else { return [] }
            if let option = child.value as? any OptionDeclaration { return [(String(label.dropFirst()), option)] }
            if let group = child.value as? any OptionGroupStorage { return group.group.storedOptions }
            return []
        }
    }

    /// The options as `release steps` documents them, in declaration order.
    package static var optionDocumentation: [StepDocumentation.Option] {
        declaredOptions.map { $0.declaration.documentation(key: $0.key) }
    }
}

/// `archivePath` → `archive_path`, `bundleID` → `bundle_id`, `URLPath` → `url_path`: a word starts at an upper-case
/// letter after a lower-case letter or digit, or at the last upper-case letter of a run followed by a lower-case one.
func snakeCase(_ name: String) -> String {
    let characters = Array(name)
    var result = ""
    for (index, character) in characters.enumerated() {
        if character.isUppercase, index > 0 {
            let previous = characters[index - 1]
            let next = index + 1 < characters.count ? characters[index + 1] : nil
            if previous.isLowercase || previous.isNumber || (previous.isUppercase && next?.isLowercase == true) {
                result += "_"
            }
        }
        result += character.lowercased()
    }
    return result
}

extension StepOptions {
    package static var exclusions: [OptionExclusion] { [] }

    package func check() throws(StepError) {}

    /// Checks the options against their declarations, a group's (``StepOptionGroup``) with it, as
    /// swift-argument-parser validates a command after decoding it: each option's declared range and constraints
    /// in declaration order, then ``exclusions``, then the ``check()`` of each group and of the options themselves.
    /// A step's `init` calls it first, so options from a pipeline and options built in code are held to the same
    /// declarations (decoding has already rejected a number out of range in a pipeline, with its line).
    /// - Throws: ``StepError/invalidOption(_:_:)`` naming the option.
    package func validate() throws(StepError) {
        // `Self()` and `self` have the same stored properties, so their options pair up in order.
        let options = zip(Self.declaredOptions, storedOptions)
        for (option, value) in options {
            if let problem = option.declaration.problem(in: value.option) { throw StepError.invalidOption(option.key, problem) }
        }
        let given = Set(options.filter { $0.1.option.isGiven }.map(\.0.key))
        for exclusion in Self.allExclusions {
            if let problem = exclusion.problem(given: given) { throw StepError.invalidOption(problem.key, problem.message) }
        }
        try checkRules()
    }

    /// The ``check()`` of each group (theirs first), then this type's.
    private func checkRules() throws(StepError) {
        for group in groups { try group.checkRules() }
        try check()
    }

    /// This type's ``exclusions`` after its groups', for `release steps`.
    package static var allExclusions: [OptionExclusion] {
        Self().groups.flatMap { type(of: $0).allExclusions } + exclusions
    }

    /// The groups among this value's stored properties.
    private var groups: [any StepOptions] {
        Mirror(reflecting: self).children.compactMap { ($0.value as? any OptionGroupStorage)?.group }
    }
}

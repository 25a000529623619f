import ReleaseSupport

/// A step's `with` object: a struct whose stored properties are all ``StepOption``s or ``StepOptionGroup``s (the rules
/// are in `StepOption.swift` and `StepOptionGroup.swift`).
package protocol StepOptions: Decodable, Sendable {
    /// The declaration: every option at its default, read with `Mirror` for decoding and for `release steps`.
    init()
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
    /// Throws for the first number outside its option's declared range, so options built in code are held to the
    /// declarations decoding checks (decoding has already rejected such a number in a pipeline, with its line).
    /// - Throws: ``StepError/invalidOption(_:_:)``.
    package func checkRanges() throws(StepError) {
        // `Self()` and `self` have the same stored properties, so their options pair up in order.
        for (option, value) in zip(Self.declaredOptions, storedOptions) {
            guard let range = option.declaration.range, let number = option.declaration.numberOutsideRange(in: value.option) else { continue }
            throw StepError.invalidOption(option.key, "'\(NumberText.string(number))' must be \(range.text)")
        }
    }
}

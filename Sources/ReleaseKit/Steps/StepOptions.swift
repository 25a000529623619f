/// A step's `with` object: a struct whose stored properties are all ``StepOption``s (the rules are in `StepOption.swift`).
public protocol StepOptions: Decodable, Sendable {
    /// The declaration: every option at its default, read with `Mirror` for decoding and for `release steps`.
    init()
}

/// One declared option: the Swift property, its key in `with`, and its declaration.
struct DeclaredOption {
    var property: String
    var key: String
    var declaration: any OptionDeclaration
}

extension StepOptions {
    /// The declared options in declaration order.
    static var declaredOptions: [DeclaredOption] {
        Mirror(reflecting: Self()).children.compactMap { child in
            // A wrapped property `files` is stored as `_files`; synthesized `Decodable` asks for it as `files`.
            guard let label = child.label, label.hasPrefix("_"), let declaration = child.value as? any OptionDeclaration else {
                return nil
            }
            let property = String(label.dropFirst())
            return DeclaredOption(property: property, key: declaration.name ?? snakeCase(property), declaration: declaration)
        }
    }

    /// The options as `release steps` documents them, in declaration order.
    public static var optionDocumentation: [StepDocumentation.Option] {
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
    public func checkRanges() throws(StepError) {
        var values: [String: Any] = [:]
        for child in Mirror(reflecting: self).children {
            if let label = child.label { values[label] = child.value }
        }
        for option in Self.declaredOptions {
            guard let range = option.declaration.range, let value = values["_" + option.property],
                  let number = option.declaration.numberOutsideRange(in: value) else { continue }
            throw StepError.invalidOption(option.key, "'\(NumberText.string(number))' must be \(range.text)")
        }
    }
}

import ReleaseSupport

/// One option of a step's `with` object, declared once (key, type, default, help) the way swift-argument-parser's
/// `@StepOption(help:)` declares a command-line option, so decoding and `release steps` read the same declaration.
///
/// ```swift
/// package struct Options: StepOptions {
///     @StepOption(help: "files to list") package var files: PathListOption                  // required
///     @StepOption(.path, help: "the file to write") package var output: String = "SHA256SUMS" // default
///     @StepOption(.path, help: "where the manifest goes") package var manifest: String?       // optional
///     package init() {}
/// }
/// ```
///
/// ## Implementation requirements
/// - The options type conforms to ``StepOptions`` and keeps synthesized `Decodable`: no `CodingKeys`, no
///   `init(from:)`, and every stored property is a `@StepOption`, or a ``StepOptionGroup`` of options several steps
///   share (written flat beside the step's own). A test decodes every step kind and fails for a key
///   that is decoded but not declared, or declared but never decoded.
/// - The key is the property's name in snake_case (`archivePath` → `archive_path`, `bundleID` → `bundle_id`);
///   `name:` gives an irregular key.
/// - Without an initial value the option is required: a `with` object lacking it fails with "missing required
///   option". An initial value is the default, shown by `release steps`. An optional type (`String?`) may be left
///   out and is then `nil`; say what its absence means in `help`.
/// - The type `release steps` shows comes from the Swift type (``OptionValue``); for text, the first argument says
///   what the text is (``OptionFormat/path``, ``OptionFormat/glob``, ``OptionFormat/regex``). A fixed set of words
///   is an ``OptionChoice`` enum: `release steps` lists them and decoding rejects any other.
/// - A number (``NumericOptionValue``: `Int`, `Double`, `Int64`, a list of them) is declared with the numbers it
///   accepts, `@StepOption(range: 1...16, help: …)`: decoding rejects any other with its JSON path and line (at `validate`
///   for literal values), `release steps` and `release schema` show the range, and a test fails for a number option
///   declared without one.
/// - What a text value must be beyond its type is declared with it, `@StepOption(.path, must: .notBeEmpty, help: …)`
///   (``OptionConstraint``: not empty, no empty item, `owner/name`, an http(s) URL, a key ID); options that go
///   together one at a time are the options type's ``StepOptions/exclusions``, and a rule joining several options is
///   its ``StepOptions/check()``. A step's `init` calls ``StepOptions/validate()`` first, which checks them all, a
///   group's with the step's, so `init` keeps only what needs the step itself; `release steps` and `release schema`
///   show the constraints and exclusions.
/// - ``OptionsDecoder`` reads the declarations from `Options()` with `Mirror` (as swift-argument-parser reads
///   `Self()`): it maps property names to keys, records the keys asked for (any other key is unknown) and gives an
///   absent option its declared default. Other decoders see the Swift names and know no defaults.
/// - A package options type spells out `package init() {}`, since a requirement of a package protocol needs a package
///   witness. Code builds options from `Options()` (every option at its default) and assigns the ones it sets: no
///   memberwise initialiser restates the defaults.
/// - Nested objects (an asset entry, a multipart form) are plain `Decodable` types conforming to ``OptionValue``,
///   which names their keys for `release steps`.
@propertyWrapper
package struct StepOption<Value: Decodable & Sendable>: Sendable {
    /// In a declaration the default (nil for a required option); after decoding or assignment, the value.
    private var value: Value?
    /// The key given with `name:`; nil derives it from the property's name.
    package let name: String?
    /// The type as `release steps` shows it.
    let type: String
    /// The words an ``OptionChoice`` accepts.
    let allowedValues: [String]?
    /// The default as it would be written in a pipeline; nil when there is none worth showing.
    let defaultText: String?
    /// One line for `release steps`.
    let help: String
    /// Whether the value is a path the step creates (``OptionFormat/output``).
    package let createsPath: Bool
    /// The numbers accepted, for a ``NumericOptionValue``.
    package let range: OptionRange?
    /// The numbers of a value to check against ``range``.
    let numbers: (@Sendable (Value) -> [Double])?
    /// What the value must be beyond its type, checked by ``StepOptions/validate()``.
    package let constraints: [OptionConstraint]

    /// The value. Reading a required option of a declaration (`Options()`) is a programming error: declarations
    /// are read for what they declare, values come from decoding.
    package var wrappedValue: Value {
        get {
            guard let value else { preconditionFailure("required option read from a declaration rather than decoded options") }
            return value
        }
        set { value = newValue }
    }

    private init(
        value: Value?, name: String?, type: String, allowedValues: [String]?, defaultText: String?, help: String,
        createsPath: Bool = false, range: OptionRange? = nil, numbers: (@Sendable (Value) -> [Double])? = nil,
        constraints: [OptionConstraint] = []
    ) {
        self.constraints = constraints
        self.createsPath = createsPath
        self.range = range
        self.numbers = numbers
        self.value = value
        self.name = name
        self.type = type
        self.allowedValues = allowedValues
        self.defaultText = defaultText
        self.help = help
    }
}

extension StepOption where Value: OptionValue {
    /// A required option.
    /// - Parameters:
    ///   - format: what the text is, when the value is text: a path, a glob, a regex.
    ///   - name: the key, when it is not the property's name in snake_case.
    ///   - constraints: what a text value must be beyond its type (``OptionConstraint``).
    ///   - help: one line for `release steps`.
    package init(_ format: OptionFormat = .string, name: String? = nil, must constraints: OptionConstraint..., help: String) {
        self.init(
            value: nil, name: name, type: Value.optionTypeName(format), allowedValues: Value.allowedValues,
            defaultText: nil, help: help, createsPath: format.createsPath, constraints: constraints)
    }

    /// An option with a default, the property's initial value.
    package init(wrappedValue: Value, _ format: OptionFormat = .string, name: String? = nil, must constraints: OptionConstraint..., help: String) {
        self.init(
            value: wrappedValue, name: name, type: Value.optionTypeName(format), allowedValues: Value.allowedValues,
            defaultText: wrappedValue.pipelineText, help: help, createsPath: format.createsPath, constraints: constraints)
    }
}

extension StepOption where Value: NumericOptionValue {
    /// A required number option accepting `range`.
    package init(name: String? = nil, range: ClosedRange<Double>, help: String) {
        self.init(
            value: nil, name: name, type: Value.optionTypeName(.string), allowedValues: nil, defaultText: nil, help: help,
            range: OptionRange(range), numbers: { $0.optionNumbers })
    }

    /// A number option with a default, the property's initial value, accepting `range`.
    package init(wrappedValue: Value, name: String? = nil, range: ClosedRange<Double>, help: String) {
        self.init(
            value: wrappedValue, name: name, type: Value.optionTypeName(.string), allowedValues: nil,
            defaultText: wrappedValue.pipelineText, help: help, range: OptionRange(range), numbers: { $0.optionNumbers })
    }
}

extension StepOption {
    /// A number option that may be left out (`nil` then), accepting `range`.
    package init<Wrapped: NumericOptionValue>(name: String? = nil, range: ClosedRange<Double>, help: String) where Value == Wrapped? {
        self.init(
            value: .some(nil), name: name, type: Wrapped.optionTypeName(.string), allowedValues: nil, defaultText: nil,
            help: help, range: OptionRange(range), numbers: { $0?.optionNumbers ?? [] })
    }

    /// An option that may be left out: `nil` then (and its constraints are not checked).
    package init<Wrapped: OptionValue>(
        _ format: OptionFormat = .string, name: String? = nil, must constraints: OptionConstraint..., help: String
    ) where Value == Wrapped? {
        self.init(
            value: .some(nil), name: name, type: Wrapped.optionTypeName(format), allowedValues: Wrapped.allowedValues,
            defaultText: nil, help: help, createsPath: format.createsPath, constraints: constraints)
    }
}

extension StepOption: Decodable {
    /// Decodes the value; ``OptionsDecoder`` has already found its key and handles its absence.
    package init(from decoder: any Decoder) throws {
        self.init(
            value: try decoder.singleValueContainer().decode(Value.self), name: nil, type: "", allowedValues: nil,
            defaultText: nil, help: "")
    }
}

extension StepOption: Equatable where Value: Equatable {
    /// Options are equal when their values are; declarations are not compared.
    package static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.value == rhs.value
    }
}

/// What ``OptionsDecoder`` and `release steps` read from a declared ``StepOption``, whatever its value type.
package protocol OptionDeclaration: Sendable {
    /// The key given with `name:`, if any.
    var name: String? { get }
    /// Whether a `with` object must have the option (the declaration has no value).
    var isRequired: Bool { get }
    /// Whether the value is a path the step creates, which orders readers of the path after the step.
    var createsPath: Bool { get }
    /// The numbers accepted, for a number option.
    var range: OptionRange? { get }
    /// How `release steps` shows the option under `key`.
    func documentation(key: String) -> StepDocumentation.Option
    /// The first number of `decoded` (a decoded `StepOption` of this declaration's type) outside ``range``, if any.
    func numberOutsideRange(in decoded: Any) -> Double?
    /// What is wrong with `decoded` (a decoded `StepOption` of this declaration's type) by the declared range and
    /// constraints, in that order: `'0' must be from 1 to 8`, `must not be empty`; nil when nothing is.
    func problem(in decoded: Any) -> String?
    /// Whether the constraints can read the value type's texts (a test holds every declaration to it).
    var canCheckConstraints: Bool { get }
    /// Whether a decoded option holds a value that counts for ``OptionExclusion``: not `nil`, not an empty list.
    var isGiven: Bool { get }
}

extension StepOption: OptionDeclaration {
    package var isRequired: Bool { value == nil }

    package func documentation(key: String) -> StepDocumentation.Option {
        var option = StepDocumentation.Option(key, type, required: isRequired, defaultValue: defaultText, values: allowedValues, help)
        option.minimum = range?.minimum
        option.maximum = range?.maximum
        if !constraints.isEmpty {
            option.constraints = constraints.map(\.summary)
            option.schema = constraints.reduce(into: [:]) { $0.merge($1.schema) { _, new in new } }
        }
        return option
    }

    package func problem(in decoded: Any) -> String? {
        if let range, let number = numberOutsideRange(in: decoded) { return "'\(NumberText.string(number))' must be \(range.text)" }
        guard !constraints.isEmpty, let decoded = decoded as? Self, let value = decoded.value, let texts = value as? any OptionTexts,
            let items = texts.optionTexts
        else { return nil }
        let isList = Swift.type(of: texts).optionIsList
        return constraints.lazy.compactMap { $0.problem(items, isList) }.first
    }

    package var canCheckConstraints: Bool { constraints.isEmpty || Value.self is any OptionTexts.Type }

    package var isGiven: Bool {
        guard let value else { return false }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional?: return !mirror.children.isEmpty
        case .collection?: return !mirror.children.isEmpty
        default: return true
        }
    }

    package func numberOutsideRange(in decoded: Any) -> Double? {
        guard let range, let numbers, let decoded = decoded as? Self, let value = decoded.value else { return nil }
        return numbers(value).first { !range.contains($0) }
    }
}

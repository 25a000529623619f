/// Options several steps take, declared once in their own ``StepOptions`` struct and written flat into each step's
/// `with` object, the way swift-argument-parser's `@OptionGroup` shares options between commands.
///
/// ```swift
/// package struct Options: StepOptions {
///     @StepOption(.path, help: "the .ipa to upload") package var ipa: String
///     @StepOptionGroup package var appStoreConnect: AppStoreConnectOptions   // key_id, issuer_id, key, api
///     package init() {}
/// }
/// ```
///
/// ## Implementation requirements
/// - The group's type follows the rules of `StepOption.swift`: a struct of `@StepOption`s (or further groups) with a
///   package `init()`, keeping synthesized `Decodable`.
/// - Its keys sit beside the step's own (`"with": {"ipa": …, "key_id": …}`): the group's property name is never a
///   key. ``OptionsDecoder`` decodes the group from the step's own object, so unknown keys, did-you-mean, defaults,
///   missing required options and range checks work as for the step's own options; `release steps` and
///   `release schema` list the group's options in the group's place. A key declared both by the step and by its
///   group is documented twice, which the test that decodes every step kind rejects.
/// - Only ``OptionsDecoder`` decodes a group flat; another decoder would look for it under the property's name.
@propertyWrapper
package struct StepOptionGroup<Value: StepOptions>: Sendable {
    /// The group's options: in a declaration their declarations, after decoding or assignment their values.
    package var wrappedValue: Value

    /// The group as declared.
    package init() {
        wrappedValue = Value()
    }
}

extension StepOptionGroup: Decodable {
    /// Decodes the group's options; ``OptionsDecoder`` hands it the step's own `with` object.
    package init(from decoder: any Decoder) throws {
        wrappedValue = try decoder.singleValueContainer().decode(Value.self)
    }
}

extension StepOptionGroup: Equatable where Value: Equatable {}

/// A ``StepOptionGroup`` seen without its type, for `Mirror` and for ``OptionsDecoder``.
package protocol OptionGroupStorage {
    /// The group's options.
    var group: any StepOptions { get }
}

extension StepOptionGroup: OptionGroupStorage {
    package var group: any StepOptions { wrappedValue }
}

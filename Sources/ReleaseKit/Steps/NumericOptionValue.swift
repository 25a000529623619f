/// An ``OptionValue`` made of numbers (`Int`, `Double`, `Int64`, a list of them): a ``StepOption`` holding one is
/// declared with an ``OptionRange``, checked on every number it holds.
public protocol NumericOptionValue: OptionValue {
    /// The numbers to check against the declared range.
    var optionNumbers: [Double] { get }
}

extension Int: NumericOptionValue {
    public var optionNumbers: [Double] { [Double(self)] }
}

extension Int64: NumericOptionValue {
    public var optionNumbers: [Double] { [Double(self)] }
}

extension Double: NumericOptionValue {
    public var optionNumbers: [Double] { [self] }
}

extension Array: NumericOptionValue where Element: NumericOptionValue {
    public var optionNumbers: [Double] { flatMap(\.optionNumbers) }
}

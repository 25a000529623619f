/// An ``OptionValue`` made of numbers (`Int`, `Double`, `Int64`, a list of them): a ``StepOption`` holding one is
/// declared with an ``OptionRange``, checked on every number it holds.
package protocol NumericOptionValue: OptionValue {
    /// The numbers to check against the declared range.
    var optionNumbers: [Double] { get }
}

extension Int: NumericOptionValue {
    package var optionNumbers: [Double] { [Double(self)] }
}

extension Int64: NumericOptionValue {
    package var optionNumbers: [Double] { [Double(self)] }
}

extension Double: NumericOptionValue {
    package var optionNumbers: [Double] { [self] }
}

extension Array: NumericOptionValue where Element: NumericOptionValue {
    package var optionNumbers: [Double] { flatMap(\.optionNumbers) }
}

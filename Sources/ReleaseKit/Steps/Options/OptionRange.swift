import ReleaseSupport

/// The smallest and largest value a number option accepts, declared with the option (`@StepOption(range: 1...16, …)`),
/// so decoding checks it with the value's JSON path and line, and `release steps` and `release schema` show it.
///
/// Every number option has one: a number from a pipeline file ends up as a `Duration`, an `Int` count or a C
/// library's `long`, and a value near `Double.greatestFiniteMagnitude` would trap in the conversion.
package struct OptionRange: Sendable, Equatable {
    /// The smallest value accepted.
    package var minimum: Double
    /// The largest value accepted.
    package var maximum: Double

    /// A range from `bounds`.
    package init(_ bounds: ClosedRange<Double>) {
        minimum = bounds.lowerBound
        maximum = bounds.upperBound
    }

    /// Whether `value` is within the range (never for NaN).
    package func contains(_ value: Double) -> Bool {
        value >= minimum && value <= maximum
    }

    /// `from 1 to 16`, as messages and `release steps` say it.
    package var text: String {
        "from \(NumberText.string(minimum)) to \(NumberText.string(maximum))"
    }
}

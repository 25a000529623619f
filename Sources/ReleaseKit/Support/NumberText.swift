/// A number as outputs, interpolations, reports and plugin messages show it: integral values as integers (`3`, not
/// `3.0`) up to 10^15, others in Swift's shortest form (`0.25`).
package enum NumberText {
    package static func string(_ value: Double) -> String {
        if value.rounded() == value, abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}

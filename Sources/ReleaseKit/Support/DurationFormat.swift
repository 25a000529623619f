import Foundation

/// Human durations, one spelling everywhere: step times, timeouts, retry delays, stall limits.
package enum DurationFormat {
    /// `0.4s`, `2s` (a whole number of seconds stays whole), `12s`, `3m05s`, `1h02m`.
    package static func string(seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0 else { return "0s" }
        if seconds < 60 && seconds.rounded() == seconds { return "\(Int(seconds))s" }
        if seconds < 10 { return String(format: "%.1fs", seconds) }
        let rounded = seconds.rounded()
        // Hours in floating point: a finite number of seconds past Int's range must not trap.
        guard rounded < 3600 else {
            return String(format: "%.0fh%02dm", (rounded / 3600).rounded(.down), Int(rounded.truncatingRemainder(dividingBy: 3600) / 60))
        }
        let total = Int(rounded)
        if total < 60 { return "\(total)s" }
        return String(format: "%dm%02ds", total / 60, total % 60)
    }

    /// The same for a `Duration`.
    package static func string(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return string(seconds: Double(seconds) + Double(attoseconds) / 1e18)
    }
}

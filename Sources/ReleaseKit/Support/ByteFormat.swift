import Foundation

/// Human sizes and durations for progress and summaries.
public enum ByteFormat {
    /// `512 B`, `1.5 KB`, `12.3 MB`, `1.02 GB` (decimal units, as `ls -h --si` and most tools' progress).
    public static func size(_ bytes: Int64) -> String {
        let value = Double(bytes)
        if value < 1000 { return "\(bytes) B" }
        if value < 1_000_000 { return String(format: "%.1f KB", value / 1000) }
        if value < 1_000_000_000 { return String(format: "%.1f MB", value / 1_000_000) }
        return String(format: "%.2f GB", value / 1_000_000_000)
    }

    /// `0.4s`, `12s`, `3m05s`.
    public static func duration(_ seconds: TimeInterval) -> String {
        if seconds < 10 { return String(format: "%.1fs", seconds) }
        if seconds < 60 { return "\(Int(seconds.rounded()))s" }
        let total = Int(seconds.rounded())
        return String(format: "%dm%02ds", total / 60, total % 60)
    }
}

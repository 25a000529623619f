import Foundation

/// Human sizes, in one unit system everywhere: binary units (KiB, MiB, GiB), the ones GitHub's 2 GiB asset limit
/// and App Store Connect's file sizes are stated in, so a limit and a size never disagree by 7 %.
package enum ByteFormat {
    /// `512 B`, `1.5 KiB`, `12.3 MiB`, `1.0 GiB`.
    package static func size(_ bytes: Int64) -> String {
        let units = ["KiB", "MiB", "GiB", "TiB", "PiB"]
        if bytes < 1024 { return "\(bytes) B" }
        var value = Double(bytes) / 1024
        var unit = 0
        while value >= 1024 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return String(format: "%.1f ", value) + units[unit]
    }

    /// A transfer rate: `ByteFormat.size` per second.
    package static func rate(_ bytesPerSecond: Double) -> String {
        size(Int64(bytesPerSecond.isFinite ? max(0, bytesPerSecond) : 0)) + "/s"
    }
}

import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// UTC timestamps for log lines, formatted without a `DateFormatter` (which is costly to create for every line).
public enum Timestamp {
    /// `2014-10-22T06:01:18Z`, or with `.123` milliseconds before the `Z`.
    public static func iso8601(_ date: Date, milliseconds: Bool = false) -> String {
        let interval = date.timeIntervalSince1970
        var seconds = time_t(interval.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        var text = "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
        if milliseconds {
            let millis = Int((interval - interval.rounded(.down)) * 1000)
            text += "." + (millis < 10 ? "00" : millis < 100 ? "0" : "") + "\(millis)"
        }
        return text + "Z"
    }
}

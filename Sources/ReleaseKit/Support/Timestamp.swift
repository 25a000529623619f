import Foundation
import Synchronization

/// Every date `release` prints or parses, in UTC: log lines, reports, `${now:FORMAT}`, build numbers, HTTP dates.
///
/// One place, so a run never shows two spellings of the same instant. Log lines avoid `DateFormatter` (costly to
/// create for every line); patterns reuse one formatter per pattern.
package enum Timestamp {
    /// `2014-10-22T06:01:18Z`, or with `.123` milliseconds before the `Z`.
    package static func iso8601(_ date: Date, milliseconds: Bool = false) -> String {
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

    /// `date` in UTC with a Unicode date pattern (`yyyy-MM-dd'T'HH-mm-ss'Z'`, `yyyyMMddHHmm`); ISO 8601 when nil.
    package static func format(_ date: Date, pattern: String?) -> String {
        guard let pattern else { return iso8601(date) }
        return formatter(pattern).withLock { $0.string(from: date) }
    }

    /// Parses ISO 8601 as APIs send it (`2026-11-24T06:01:18Z`, `…18.123Z`, `…18-08:00`, `…18+0000`).
    package static func parseISO8601(_ text: String) -> Date? {
        for pattern in ["yyyy-MM-dd'T'HH:mm:ssXXXXX", "yyyy-MM-dd'T'HH:mm:ss.SSSXXXXX", "yyyy-MM-dd'T'HH:mm:ss.SSSSSSXXXXX"] {
            if let date = formatter(pattern).withLock({ $0.date(from: text) }) { return date }
        }
        return nil
    }

    /// Parses an HTTP date in IMF-fixdate form (`Wed, 21 Oct 2015 07:28:00 GMT`, RFC 9110 §5.6.7).
    package static func parseHTTPDate(_ text: String) -> Date? {
        formatter("EEE, dd MMM yyyy HH:mm:ss zzz").withLock { $0.date(from: text) }
    }

    /// An HTTP date in IMF-fixdate form.
    package static func httpDate(_ date: Date) -> String {
        formatter("EEE, dd MMM yyyy HH:mm:ss 'GMT'").withLock { $0.string(from: date) }
    }

    /// One UTC formatter per pattern, kept for the life of the process. `DateFormatter` is not thread-safe, so
    /// each sits behind its own lock.
    private static func formatter(_ pattern: String) -> LockedFormatter {
        cache.withLock { cache in
            if let existing = cache[pattern] { return existing }
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.calendar = Calendar(identifier: .gregorian)
            formatter.dateFormat = pattern
            let shared = LockedFormatter(formatter)
            cache[pattern] = shared
            return shared
        }
    }

    private static let cache = Mutex<[String: LockedFormatter]>([:])

    /// A formatter that one thread uses at a time.
    private final class LockedFormatter: Sendable {
        private let formatter: Mutex<DateFormatter>
        init(_ formatter: DateFormatter) { self.formatter = Mutex(formatter) }
        func withLock<T>(_ body: (DateFormatter) -> T) -> T { formatter.withLock { body($0) } }
    }
}

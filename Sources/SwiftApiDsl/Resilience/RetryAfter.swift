import Foundation

/// The value of a `Retry-After` header (RFC 9110, section 10.2.3): a number of seconds, or an
/// HTTP date.
///
/// ```swift
/// RetryAfter("120")?.delay(from: now)                              // 120
/// RetryAfter("Sun, 06 Nov 1994 08:49:37 GMT")?.delay(from: now)   // seconds until then, 0 if past
/// ```
/// Dates are read in all three forms a recipient must accept: the IMF-fixdate above, the obsolete
/// RFC 850 form (`Sunday, 06-Nov-94 08:49:37 GMT`) and C's asctime form
/// (`Sun Nov  6 08:49:37 1994`). Anything else is not a `Retry-After` value.
public enum RetryAfter: Sendable, Equatable {
    /// Wait this many seconds.
    case seconds(TimeInterval)
    /// Wait until this moment.
    case date(Date)

    /// Parses a header value; `nil` when it is neither a number of seconds nor an HTTP date.
    public init?(_ value: String) {
        let text = value.trimmingCharacters(in: .whitespaces)
        if !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            self = .seconds(TimeInterval(text) ?? .greatestFiniteMagnitude)
        } else {
            guard let date = HTTPDate.parse(text) else { return nil }
            self = .date(date)
        }
    }

    /// The seconds to wait from `now`; never negative.
    public func delay(from now: Date) -> TimeInterval {
        switch self {
        case .seconds(let seconds): max(0, seconds)
        case .date(let date): max(0, date.timeIntervalSince(now))
        }
    }
}

/// HTTP dates (RFC 9110, section 5.6.7), parsed by hand: the format is fixed and ASCII, and a
/// `DateFormatter` would depend on the locale and cost far more.
package enum HTTPDate {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The moment `text` names, or `nil` if it is not an HTTP date in one of its three forms.
    package static func parse(_ text: String) -> Date? {
        let words = text.split(separator: " ", omittingEmptySubsequences: true)
        switch words.count {
        case 6 where words[5] == "GMT":
            // IMF-fixdate: Sun, 06 Nov 1994 08:49:37 GMT
            guard words[0].hasSuffix(","), let day = Int(words[1]), words[1].count == 2,
                  let month = month(words[2]), let year = Int(words[3]), words[3].count == 4
            else { return nil }
            return date(year: year, month: month, day: day, time: words[4])
        case 4 where words[3] == "GMT":
            // RFC 850: Sunday, 06-Nov-94 08:49:37 GMT
            let parts = words[1].split(separator: "-")
            guard words[0].hasSuffix(","), parts.count == 3, let day = Int(parts[0]),
                  let month = month(parts[1]), let shortYear = Int(parts[2]), parts[2].count == 2
            else { return nil }
            // Two-digit years: RFC 9110 asks to read a year more than 50 years ahead as the past century.
            let year = shortYear + (shortYear >= 70 ? 1900 : 2000)
            return date(year: year, month: month, day: day, time: words[2])
        case 5:
            // asctime: Sun Nov  6 08:49:37 1994
            guard let month = month(words[1]), let day = Int(words[2]), let year = Int(words[4]), words[4].count == 4
            else { return nil }
            return date(year: year, month: month, day: day, time: words[3])
        default:
            return nil
        }
    }

    private static func month(_ name: Substring) -> Int? {
        months.firstIndex(of: String(name)).map { $0 + 1 }
    }

    /// The UTC moment of a civil date and an `hh:mm:ss` time.
    private static func date(year: Int, month: Int, day: Int, time: Substring) -> Date? {
        let clock = time.split(separator: ":")
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 }),
              let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2]),
              (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second),
              (1...31).contains(day)
        else { return nil }
        let days = daysSinceEpoch(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3_600 + minute * 60 + second))
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (the well-known
    /// "days from civil" computation on 400-year eras).
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

/// Fuzzes `Retry-After` parsing (Sources/SwiftApiDsl/Resilience/RetryAfter.swift) and the retry
/// delay taken from it (RetryPolicy.swift).
///
/// Properties: any text parses as seconds only when it is ASCII digits, and its delay is never
/// negative or NaN; a date parsed from any text, written again as an IMF-fixdate, parses to the
/// same moment; a moment from year 1 to 9999 written in each of the three HTTP date forms (the
/// RFC 850 one for years 1970 to 2069) parses back to itself, and a number of seconds to
/// itself; the retry policy's wait is `nil` or between 0 and `maxRetryAfter`.
@testable import SwiftApiDsl
import Foundation

let retryAfterHarness: Harness = { input in
    let now = Date(timeIntervalSince1970: 1_700_000_000)
    switch input.int(in: 0...2) {
    case 0:
        let text = String(decoding: input.rest(), as: UTF8.self)
        let value = RetryAfter(text)
        switch value {
        case .seconds(let seconds)?:
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            require(!trimmed.isEmpty && trimmed.utf8.allSatisfy { (0x30...0x39).contains($0) }, "\(text.debugDescription) read as \(seconds) s")
        case .date(let date)?:
            let seconds = Int64(date.timeIntervalSince1970)
            if (firstMoment...lastMoment).contains(seconds) {
                let again = RetryAfter(imfFixdate(seconds))
                require(again == .date(date), "\(text.debugDescription) is \(date), written again \(imfFixdate(seconds)) is \(String(describing: again))")
            }
        case nil:
            break
        }
        if let delay = value?.delay(from: now) {
            require(delay >= 0 && !delay.isNaN, "delay \(delay) for \(text.debugDescription)")
        }
        let policy = RetryPolicy(maxAttempts: 3, maxRetryAfter: 120)
        let wait = policy.delay(after: 1, method: .get, now: now, random: 0.5, failing: .status(503, serverDelay: value?.delay(from: now)))
        if let wait { require(wait >= 0 && wait <= 120, "wait \(wait) for \(text.debugDescription)") }
    case 1:
        var raw: Int64 = 0
        for _ in 0..<8 { raw = raw << 8 | Int64(input.byte()) }
        let seconds = firstMoment + Int64(UInt64(bitPattern: raw) % UInt64(lastMoment - firstMoment + 1))
        let expected = RetryAfter.date(Date(timeIntervalSince1970: TimeInterval(seconds)))
        var forms = [imfFixdate(seconds), asctime(seconds)]
        if (1970...2069).contains(civil(seconds).year) { forms.append(rfc850(seconds)) }
        for form in forms {
            let parsed = RetryAfter(input.pick(["", " ", "\t"]) + form + input.pick(["", " "]))
            require(parsed == expected, "\(form.debugDescription) parsed as \(String(describing: parsed)), expected \(expected)")
        }
    default:
        var raw: UInt64 = 0
        for _ in 0..<8 { raw = raw << 8 | UInt64(input.byte()) }
        let parsed = RetryAfter(String(raw))
        require(parsed == .seconds(TimeInterval(raw)), "\(raw) parsed as \(String(describing: parsed))")
    }
}

/// 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z, in seconds since 1970.
private let firstMoment: Int64 = -62_135_596_800
private let lastMoment: Int64 = 253_402_300_799

private let weekdays = ["Thursday", "Friday", "Saturday", "Sunday", "Monday", "Tuesday", "Wednesday"]
private let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

/// The civil date and time of a moment, computed month by month (not the library's formula).
private func civil(_ seconds: Int64) -> (year: Int, month: Int, day: Int, weekday: String, time: String) {
    var days = Int(seconds.floorDivided(by: 86_400))
    let second = Int(seconds - Int64(days) * 86_400)
    let weekday = weekdays[((days % 7) + 7) % 7]
    var year = 1970
    func length(of year: Int) -> Int { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 366 : 365 }
    // Whole 400-year eras first (146,097 days each), then years, then months.
    year += 400 * days.floorDivided(by: 146_097)
    days -= 146_097 * days.floorDivided(by: 146_097)
    while days >= length(of: year) { days -= length(of: year); year += 1 }
    var month = 1
    while true {
        let monthLength = [31, length(of: year) == 366 ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        if days < monthLength { break }
        days -= monthLength
        month += 1
    }
    let time = [second / 3600, second / 60 % 60, second % 60].map { $0 < 10 ? "0\($0)" : "\($0)" }.joined(separator: ":")
    return (year, month, days + 1, weekday, time)
}

private func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
private func fourDigits(_ value: Int) -> String { String(repeating: "0", count: 4 - String(value).count) + String(value) }

private func imfFixdate(_ seconds: Int64) -> String {
    let date = civil(seconds)
    return "\(date.weekday.prefix(3)), \(twoDigits(date.day)) \(monthNames[date.month - 1]) \(fourDigits(date.year)) \(date.time) GMT"
}

private func rfc850(_ seconds: Int64) -> String {
    let date = civil(seconds)
    return "\(date.weekday), \(twoDigits(date.day))-\(monthNames[date.month - 1])-\(twoDigits(date.year % 100)) \(date.time) GMT"
}

private func asctime(_ seconds: Int64) -> String {
    let date = civil(seconds)
    let day = date.day < 10 ? " \(date.day)" : "\(date.day)"
    return "\(date.weekday.prefix(3)) \(monthNames[date.month - 1]) \(day) \(date.time) \(fourDigits(date.year))"
}

private extension BinaryInteger {
    /// Division rounding toward minus infinity.
    func floorDivided(by divisor: Self) -> Self {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}

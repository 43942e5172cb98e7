import Foundation
import Testing
@testable import SwiftApiDsl

@Suite struct RetryAfterTests {
    /// 1994-11-06 08:49:37 UTC, the example date of RFC 9110.
    static let rfcExample = Date(timeIntervalSince1970: 784_111_777)

    @Test func secondsAreReadAsADelay() {
        #expect(RetryAfter("120") == .seconds(120))
        #expect(RetryAfter(" 0 ") == .seconds(0))
        #expect(RetryAfter("120")?.delay(from: Date()) == 120)
    }

    @Test(arguments: [
        "Sun, 06 Nov 1994 08:49:37 GMT",   // IMF-fixdate
        "Sunday, 06-Nov-94 08:49:37 GMT",  // RFC 850
        "Sun Nov  6 08:49:37 1994",        // asctime
    ])
    func everyHttpDateFormIsRead(value: String) {
        #expect(RetryAfter(value) == .date(Self.rfcExample))
    }

    @Test func aDateGivesTheSecondsUntilIt() {
        let date = RetryAfter("Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(date?.delay(from: Self.rfcExample.addingTimeInterval(-90)) == 90)
        #expect(date?.delay(from: Self.rfcExample.addingTimeInterval(30)) == 0)
    }

    @Test func twoDigitYearsFrom70AreTheTwentiethCentury() {
        #expect(RetryAfter("Thursday, 01-Jan-70 00:00:10 GMT") == .date(Date(timeIntervalSince1970: 10)))
        #expect(RetryAfter("Friday, 01-Jan-27 00:00:00 GMT") == .date(Date(timeIntervalSince1970: 1_798_761_600)))
    }

    @Test func aLeapDayIsCounted() {
        #expect(RetryAfter("Thu, 29 Feb 2024 12:00:00 GMT") == .date(Date(timeIntervalSince1970: 1_709_208_000)))
    }

    @Test(arguments: ["", "soon", "-5", "1.5", "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 6 Nov 1994 08:49:37 GMT",
                      "Sun, 06 Nov 1994 25:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT"])
    func anythingElseIsNotAValue(value: String) {
        #expect(RetryAfter(value) == nil)
    }

    @Test func anEnormousNumberIsAnEnormousWait() {
        #expect(RetryAfter("99999999999999999999999")?.delay(from: Date()) == 1e23)
    }
}

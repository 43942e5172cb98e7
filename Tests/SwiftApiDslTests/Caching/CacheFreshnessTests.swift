import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import SwiftApiDsl
@testable import SwiftApiDslCache

/// When a stored response may answer without the network (RFC 9111, section 4.2 and 5.2).
@Suite struct CacheFreshnessTests {
    private func entry(_ headers: [String: String], sent: Date, received: Date) -> CacheEntry {
        CacheEntry(url: "https://a.example/x", partition: "", statusCode: 200,
                   headerFields: HeaderFields(headers.map { .init(name: $0.key, value: $0.value) }), body: Data(),
                   requestTime: sent, responseTime: received, varied: [:])
    }

    @Test func theAgeOnArrivalIsTheLargerOfTheApparentAgeAndAgePlusTheRequestTime() {
        let t0 = Date(timeIntervalSince1970: 1_700_000_000)
        // Date says 50 s before arrival; Age says 20 and the request took 2: 50 wins.
        let apparent = entry(["Date": httpDate(t0.addingTimeInterval(-50)), "Age": "20"], sent: t0.addingTimeInterval(-2), received: t0)
        #expect(apparent.currentAge(at: t0) == 50)
        #expect(apparent.currentAge(at: t0.addingTimeInterval(10)) == 60)
        // Date is the arrival; Age 20 plus the 2 s the request took: 22.
        let aged = entry(["Date": httpDate(t0), "Age": "20"], sent: t0.addingTimeInterval(-2), received: t0)
        #expect(aged.currentAge(at: t0) == 22)
        // A Date in the future counts as no age; no Date counts as the arrival.
        #expect(entry(["Date": httpDate(t0.addingTimeInterval(30))], sent: t0, received: t0).currentAge(at: t0) == 0)
        #expect(entry([:], sent: t0, received: t0).currentAge(at: t0.addingTimeInterval(5)) == 5)
    }

    @Test func theLifetimeIsMaxAgeElseExpiresMinusDateAndSMaxAgeDoesNotCount() {
        let t0 = Date(timeIntervalSince1970: 1_700_000_000)
        let expires = httpDate(t0.addingTimeInterval(100))
        #expect(entry(["Cache-Control": "max-age=60", "Expires": expires, "Date": httpDate(t0)], sent: t0, received: t0).freshnessLifetime == 60)
        #expect(entry(["Expires": expires, "Date": httpDate(t0)], sent: t0, received: t0).freshnessLifetime == 100)
        // Without Date, the arrival stands for it.
        #expect(entry(["Expires": expires], sent: t0, received: t0.addingTimeInterval(10)).freshnessLifetime == 90)
        // An invalid Expires means already expired.
        #expect(entry(["Expires": "0", "Date": httpDate(t0)], sent: t0, received: t0).freshnessLifetime == 0)
        // s-maxage is for shared caches: this private one gives such a response no lifetime.
        #expect(entry(["Cache-Control": "s-maxage=300"], sent: t0, received: t0).freshnessLifetime == 0)
        // Nothing explicit: no heuristic lifetime, even with Last-Modified.
        #expect(entry(["Last-Modified": httpDate(t0.addingTimeInterval(-86_400))], sent: t0, received: t0).freshnessLifetime == 0)
    }

    @Test func aFreshEntryAnswersUntilItsAgeReachesItsLifetime() {
        let t0 = Date(timeIntervalSince1970: 1_700_000_000)
        let stored = entry(["Cache-Control": "max-age=60", "Date": httpDate(t0)], sent: t0, received: t0)
        let plain = CacheControl("")
        #expect(stored.canAnswer(plain, at: t0.addingTimeInterval(59)))
        #expect(!stored.canAnswer(plain, at: t0.addingTimeInterval(60)))
    }

    @Test func theRequestsDirectivesNarrowOrWidenWhatMayAnswer() {
        let t0 = Date(timeIntervalSince1970: 1_700_000_000)
        let stored = entry(["Cache-Control": "max-age=60", "Date": httpDate(t0)], sent: t0, received: t0)
        let at30 = t0.addingTimeInterval(30)
        #expect(!stored.canAnswer(CacheControl("no-cache"), at: at30))
        #expect(!stored.canAnswer(CacheControl("max-age=20"), at: at30))
        #expect(stored.canAnswer(CacheControl("max-age=30"), at: at30))
        #expect(!stored.canAnswer(CacheControl("min-fresh=31"), at: at30))
        #expect(stored.canAnswer(CacheControl("min-fresh=30"), at: at30))
        // Stale by 10 s: max-stale=10 or a bare max-stale accepts it, max-stale=9 does not.
        let at70 = t0.addingTimeInterval(70)
        #expect(stored.canAnswer(CacheControl("max-stale=10"), at: at70))
        #expect(stored.canAnswer(CacheControl("max-stale"), at: at70))
        #expect(!stored.canAnswer(CacheControl("max-stale=9"), at: at70))
    }

    @Test func noCacheAndMustRevalidateResponsesAreNotUsedWithoutTheServer() {
        let t0 = Date(timeIntervalSince1970: 1_700_000_000)
        let noCache = entry(["Cache-Control": "no-cache, max-age=60"], sent: t0, received: t0)
        #expect(!noCache.canAnswer(CacheControl(""), at: t0))
        let mustRevalidate = entry(["Cache-Control": "max-age=60, must-revalidate"], sent: t0, received: t0)
        #expect(mustRevalidate.canAnswer(CacheControl("max-stale"), at: t0.addingTimeInterval(59)))
        #expect(!mustRevalidate.canAnswer(CacheControl("max-stale"), at: t0.addingTimeInterval(61)))
    }

    @Test func cacheControlIsReadWithoutRegardToCaseAndQuotedCommasDoNotSplit() {
        let control = CacheControl(#"Private="Set-Cookie, X-Id", MAX-AGE=30, max-age=90, no-cache="X-Debug""#)
        #expect(control.isPrivate)
        #expect(control.noCache)
        #expect(control.maxAge == 30)  // the most restrictive of the two
        #expect(!control.noStore)
        #expect(CacheControl("max-age=soon").maxAge == 0)
        #expect(CacheControl("max-age=99999999999999").maxAge == 1 << 31)
        #expect(CacheControl(HeaderFields([.init(name: "cache-control", value: "no-store"), .init(name: "Cache-Control", value: "public")]))
                == { var both = CacheControl(""); both.noStore = true; both.isPublic = true; return both }())
    }

    @Test func sha256MatchesTheStandardsTestVectors() {
        #expect(SHA256.hex(Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex(Data()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        // Two blocks of padding.
        #expect(SHA256.hex(Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }
}

import Foundation
import Testing
@testable import SwiftApiDsl

/// What a download makes of a response head when bytes of the file are already on disk.
@Suite struct DownloadResumptionTests {
    private func decide(_ status: Int, _ fields: HeaderFields, askedFrom offset: Int64?, total: Int64? = 1000) -> DownloadResumption {
        DownloadResumption.of(statusCode: status, headerFields: fields, askedFrom: offset, expectedTotal: total)
    }

    @Test func contentRangeReadsItsStartEndAndTotal() {
        let range = ContentRange("bytes 400-999/1000")
        #expect(range?.start == 400)
        #expect(range?.end == 999)
        #expect(range?.total == 1000)
        #expect(ContentRange("bytes 0-9/*")?.total == nil)
        #expect(ContentRange("Bytes 0-9/10")?.start == 0)
    }

    @Test(arguments: [nil, "", "bytes */1000", "bytes 10-5/1000", "bytes 0-999/999", "items 0-9/10", "bytes 0-9", "bytes a-9/10"])
    func contentRangeRefusesWhatIsNotASatisfiedByteRange(value: String?) {
        #expect(ContentRange(value) == nil)
    }

    @Test func aWholeAnswerStartsTheFileWithItsLengthAndEntityTag() {
        let fields: HeaderFields = ["Content-Length": "1000", "ETag": "\"v1\"", "Last-Modified": "Wed, 21 Oct 2026 07:28:00 GMT"]
        #expect(decide(200, fields, askedFrom: nil) == .fresh(total: 1000, validator: "\"v1\""))
        // Asked for a range but answered whole: the file changed, or ranges are not served.
        #expect(decide(200, fields, askedFrom: 400) == .fresh(total: 1000, validator: "\"v1\""))
    }

    /// RFC 9110 §13.1.5: never a weak tag, and a date only without any tag and when it is a
    /// strong validator (a second or more before the response's `Date`).
    @Test func aWeakEntityTagRulesOutBothTheTagAndTheDate() {
        let modified = "Wed, 21 Oct 2026 07:28:00 GMT"
        #expect(DownloadResumption.validator(in: ["ETag": "W/\"v1\"", "Last-Modified": modified, "Date": "Thu, 22 Oct 2026 07:28:00 GMT"]) == nil)
        #expect(DownloadResumption.validator(in: ["ETag": "W/\"v1\""]) == nil)
        #expect(DownloadResumption.validator(in: ["Last-Modified": modified, "Date": "Wed, 21 Oct 2026 07:28:01 GMT"]) == modified)
        #expect(DownloadResumption.validator(in: ["Last-Modified": modified, "Date": modified]) == nil)
        #expect(DownloadResumption.validator(in: ["Last-Modified": modified]) == nil)
        #expect(DownloadResumption.validator(in: [:]) == nil)
    }

    /// Only a server that says it serves byte ranges has a download paced by stopping it.
    @Test func byteRangesAreServedWhenAcceptRangesNamesTheBytesToken() {
        #expect(DownloadResumption.servesByteRanges(["Accept-Ranges": "bytes"]))
        #expect(DownloadResumption.servesByteRanges(["accept-ranges": "Bytes"]))
        #expect(DownloadResumption.servesByteRanges(["Accept-Ranges": "items, bytes"]))
        var repeated = HeaderFields()
        repeated.append("none", for: "Accept-Ranges")
        repeated.append(" bytes ", for: "Accept-Ranges")
        #expect(DownloadResumption.servesByteRanges(repeated))
        #expect(!DownloadResumption.servesByteRanges(["Accept-Ranges": "none"]))
        #expect(!DownloadResumption.servesByteRanges(["Accept-Ranges": "bytesize"]))
        #expect(!DownloadResumption.servesByteRanges(["Accept-Ranges": "kilobytes"]))
        #expect(!DownloadResumption.servesByteRanges([:]))
    }

    @Test func anEncodedBodyCannotBeContinued() {
        let fields: HeaderFields = ["Content-Encoding": "gzip", "Content-Length": "300", "ETag": "\"v1\""]
        #expect(decide(200, fields, askedFrom: nil) == .fresh(total: nil, validator: nil))
    }

    @Test func thePartAskedForContinuesTheFile() {
        #expect(decide(206, ["Content-Range": "bytes 400-999/1000"], askedFrom: 400) == .continuing(total: 1000))
        #expect(decide(206, ["Content-Range": "bytes 400-999/1000"], askedFrom: 400, total: nil) == .continuing(total: 1000))
        #expect(decide(206, ["Content-Range": "bytes 400-999/*"], askedFrom: 400) == .continuing(total: 1000))
    }

    @Test func otherBytesAnotherTotalOrARefusedRangeStartAgain() {
        #expect(decide(206, ["Content-Range": "bytes 399-999/1000"], askedFrom: 400) == .mismatch)
        #expect(decide(206, ["Content-Range": "bytes 400-1000/1001"], askedFrom: 400) == .mismatch)
        #expect(decide(206, [:], askedFrom: 400) == .mismatch)
        #expect(decide(416, ["Content-Range": "bytes */1000"], askedFrom: 1000) == .mismatch)
    }

    @Test func anErrorStatusIsADocumentWhateverWasAsked() {
        #expect(decide(503, ["Content-Length": "20"], askedFrom: 400) == .document)
        #expect(decide(404, [:], askedFrom: nil) == .document)
    }
}

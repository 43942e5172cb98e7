import Foundation

// What a download makes of a response head when bytes of the body may already be on disk
// (RFC 9110 §13.1.5 If-Range, §14 Range requests). Pure functions of the head, so that every
// rule can be pinned without a server.

/// What to do with a download's response, given the bytes asked for with `Range`.
enum DownloadResumption: Equatable {
    /// A whole representation: the file starts again from its first byte. `total` is its length
    /// when it is known, `validator` what a later `If-Range` sends (`nil`: it cannot be resumed).
    case fresh(total: Int64?, validator: String?)
    /// The rest of the representation on disk: appended after it; `total` is the full length.
    case continuing(total: Int64?)
    /// A `206` for other bytes than those asked for, or a `416`: the bytes on disk are
    /// dropped and the download starts again without `Range`.
    case mismatch
    /// Not the body of the representation (an error status): the bytes on disk stay as they are.
    case document

    /// The decision for a response with `statusCode` and `headerFields` to a request that asked
    /// for the bytes from `offset` on (`nil`: it asked for the whole representation) of a
    /// representation of `expectedTotal` bytes, when that is known.
    static func of(statusCode: Int, headerFields: HeaderFields, askedFrom offset: Int64?, expectedTotal: Int64?) -> Self {
        guard let offset else { return (200..<300).contains(statusCode) ? fresh(headerFields) : .document }
        switch statusCode {
        case 206:
            guard let range = ContentRange(headerFields["Content-Range"]), range.start == offset,
                  range.total == nil || expectedTotal == nil || range.total == expectedTotal
            else { return .mismatch }
            return .continuing(total: range.total ?? expectedTotal)
        case 416:
            return .mismatch
        case 200..<300:
            // The representation changed (If-Range did not match) or the server ignores ranges.
            return fresh(headerFields)
        default:
            return .document
        }
    }

    /// A whole representation: its length and validator, neither when an engine decoded it
    /// (a `Content-Encoding`): the bytes on disk then are not the ones a `Range` counts.
    private static func fresh(_ headerFields: HeaderFields) -> Self {
        guard headerFields["Content-Encoding"] == nil else { return .fresh(total: nil, validator: nil) }
        return .fresh(total: headerFields.expectedBodyLength, validator: validator(in: headerFields))
    }

    /// Whether the response says its server serves byte ranges: `bytes` among the tokens of its
    /// `Accept-Ranges` (RFC 9110 §14.3), in any case; `none` or no field says it does not.
    static func servesByteRanges(_ headerFields: HeaderFields) -> Bool {
        headerFields.values(for: "Accept-Ranges").contains { value in
            value.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces).lowercased() == "bytes" }
        }
    }

    /// What `If-Range` may carry for a response (RFC 9110 §13.1.5): its entity tag when it is
    /// strong; with no entity tag at all, its `Last-Modified` date when that is a strong validator,
    /// at least a second before the response's `Date` (§8.8.2.2); else `nil`: a weak tag rules
    /// the date out too.
    static func validator(in headerFields: HeaderFields) -> String? {
        if let etag = headerFields["ETag"]?.trimmingCharacters(in: .whitespaces) {
            return etag.hasPrefix("\"") ? etag : nil
        }
        guard let text = headerFields["Last-Modified"], let modified = HTTPDate.parse(text),
              let date = headerFields["Date"].flatMap(HTTPDate.parse), date.timeIntervalSince(modified) >= 1
        else { return nil }
        return text
    }
}

/// A `Content-Range: bytes first-last/total` header of a `206` (`total` may be `*`, unknown).
struct ContentRange: Equatable {
    let start: Int64
    let end: Int64
    let total: Int64?

    /// `nil` for anything else, an unsatisfied range (`bytes */1000`) included.
    init?(_ value: String?) {
        guard let value else { return nil }
        let parts = value.trimmingCharacters(in: .whitespaces).split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bytes" else { return nil }
        let rangeAndTotal = parts[1].split(separator: "/", omittingEmptySubsequences: false)
        guard rangeAndTotal.count == 2 else { return nil }
        let bounds = rangeAndTotal[0].split(separator: "-", omittingEmptySubsequences: false)
        guard bounds.count == 2, let start = Int64(bounds[0]), let end = Int64(bounds[1]), start <= end else { return nil }
        let total = rangeAndTotal[1] == "*" ? nil : Int64(rangeAndTotal[1])
        guard rangeAndTotal[1] == "*" || (total.map { $0 > end } ?? false) else { return nil }
        self.start = start
        self.end = end
        self.total = total
    }
}

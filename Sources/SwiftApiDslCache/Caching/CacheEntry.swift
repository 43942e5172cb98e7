import Foundation
import SwiftApiDsl

/// One stored response: its head and complete body, when its request was sent and its answer
/// received, and what it needs to be chosen and aged again (RFC 9111, sections 4.1 and 4.2).
struct CacheEntry: Sendable, Equatable {
    /// The URL it answers, without fragment: the first half of its key.
    let url: String
    /// A digest of the credentials its request carried (`""` for none): the second half of its key.
    let partition: String
    /// The status code (200).
    let statusCode: Int
    /// The header fields as received, updated by each `304` that revalidated it.
    let headerFields: HeaderFields
    /// The complete body.
    var body: Data
    /// When the request that got it (or its last revalidation) was sent.
    let requestTime: Date
    /// When that response arrived.
    let responseTime: Date
    /// The request's values of the header fields its `Vary` names (lowercased names; `nil`
    /// for a field the request did not carry).
    let varied: [String: String?]
    /// The response's directives, read once: a hit reads none of its header fields again.
    let control: CacheControl
    /// How long the response stays fresh, in seconds, as a private cache counts it: `max-age`,
    /// else `Expires` minus `Date`, else 0 (no heuristic: a response without explicit freshness
    /// is revalidated every time). `s-maxage` is for shared caches and does not count.
    let freshnessLifetime: TimeInterval
    /// Its age when it arrived, in seconds (RFC 9111, section 4.2.3): the larger of its apparent
    /// age (arrival minus `Date`) and its `Age` plus the time the request took.
    let initialAge: TimeInterval

    init(url: String, partition: String, statusCode: Int, headerFields: HeaderFields, body: Data,
         requestTime: Date, responseTime: Date, varied: [String: String?]) {
        self.url = url
        self.partition = partition
        self.statusCode = statusCode
        self.headerFields = headerFields
        self.body = body
        self.requestTime = requestTime
        self.responseTime = responseTime
        self.varied = varied
        control = CacheControl(headerFields)
        let date = headerFields["Date"].flatMap { HTTPDate.parse($0.trimmingCharacters(in: .whitespaces)) } ?? responseTime
        freshnessLifetime = Self.lifetime(control, headerFields, date: date)
        let apparentAge = max(0, responseTime.timeIntervalSince(date))
        let ageValue = headerFields["Age"].flatMap { TimeInterval($0.trimmingCharacters(in: .whitespaces)) }.map { max(0, $0) } ?? 0
        initialAge = max(apparentAge, ageValue + responseTime.timeIntervalSince(requestTime))
    }

    /// Its size in a store: the body, the header fields and the key.
    var size: Int {
        body.count + url.utf8.count + partition.utf8.count + headerFields.fields.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
    }

    /// The names its `Vary` lists, lowercased; `["*"]` when it varies on everything.
    static func varyNames(_ fields: HeaderFields) -> [String] {
        fields.values(for: "Vary").flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .filter { !$0.isEmpty }
    }

    /// `request`'s value of the header field `name` as `Vary` compares it: every value, each
    /// trimmed, joined with `", "`; `nil` when absent.
    static func variedValue(of name: String, in request: HeaderFields) -> String? {
        let values = request.values(for: name)
        return values.isEmpty ? nil : values.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", ")
    }

    /// The request's values of the fields `names` lists, but for secret ones (`Authorization`,
    /// `Cookie`…): the entry's partition is already a digest of every secret field, so their
    /// values need not, and must not, be kept in memory or written to disk.
    static func varied(_ names: [String], in request: HeaderFields) -> [String: String?] {
        Dictionary(names.filter { !HeaderField($0).isRedacted }.map { ($0, variedValue(of: $0, in: request)) },
                   uniquingKeysWith: { first, _ in first })
    }

    /// Whether this entry may answer a request with these header fields: every field its
    /// `Vary` names has the value it had (RFC 9111, section 4.1). `Vary: *` never matches.
    func matches(_ request: HeaderFields) -> Bool {
        varied.allSatisfy { name, value in name != "*" && Self.variedValue(of: name, in: request) == value }
    }

    // MARK: Freshness (RFC 9111, section 4.2)

    /// `max-age`, else `Expires` minus `date`; an invalid `Expires`, such as "0", means already expired.
    private static func lifetime(_ control: CacheControl, _ fields: HeaderFields, date: Date) -> TimeInterval {
        if let maxAge = control.maxAge { return TimeInterval(maxAge) }
        guard let expires = fields["Expires"], let expiry = HTTPDate.parse(expires.trimmingCharacters(in: .whitespaces)) else { return 0 }
        return expiry.timeIntervalSince(date)
    }

    /// The age, in seconds, at `now`: its age on arrival plus the time since.
    func currentAge(at now: Date) -> TimeInterval {
        initialAge + now.timeIntervalSince(responseTime)
    }

    /// Whether a request with `request` directives may be answered with this entry at `now`
    /// without asking the server (RFC 9111, sections 4.2.4 and 5.2.1): it is fresh enough for
    /// the request, or stale within its `max-stale` and not `must-revalidate`.
    func canAnswer(_ request: CacheControl, at now: Date) -> Bool {
        guard !control.noCache, !request.noCache else { return false }
        let age = currentAge(at: now)
        let lifetime = freshnessLifetime
        if let maxAge = request.maxAge, age > TimeInterval(maxAge) { return false }
        if let minFresh = request.minFresh, lifetime - age < TimeInterval(minFresh) { return false }
        if lifetime > age { return true }
        guard !control.mustRevalidate, let maxStale = request.maxStale else { return false }
        return maxStale == .max || age - lifetime <= TimeInterval(maxStale)
    }

    // MARK: Revalidation (RFC 9111, section 4.3)

    /// `request` made conditional with this entry's validators: `If-None-Match` from its `ETag`,
    /// `If-Modified-Since` from its `Last-Modified`; `nil` when it has neither.
    func conditional(_ request: TransportRequest) -> TransportRequest? {
        let etag = headerFields["ETag"]
        let lastModified = headerFields["Last-Modified"]
        guard etag != nil || lastModified != nil else { return nil }
        var conditional = request
        if let etag { conditional.headerFields.set(etag, for: "If-None-Match") }
        if let lastModified { conditional.headerFields.set(lastModified, for: "If-Modified-Since") }
        return conditional
    }

    /// This entry after a `304` with `fields` revalidated it: its header fields updated as RFC 9111
    /// says (``HeaderFields/updated(byNotModified:)``), and its age starts again.
    func revalidated(by fields: HeaderFields, requestTime: Date, responseTime: Date, request: HeaderFields) -> CacheEntry {
        let updated = headerFields.updated(byNotModified: fields)
        return CacheEntry(url: url, partition: partition, statusCode: statusCode, headerFields: updated, body: body,
                          requestTime: requestTime, responseTime: responseTime,
                          varied: Self.varied(Self.varyNames(updated), in: request))
    }
}

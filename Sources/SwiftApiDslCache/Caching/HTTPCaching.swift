import Foundation
import SwiftApiDsl
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// What the cache does with one request on the wire (RFC 9111):
//   1. an unsafe method goes on; a non-error answer removes what is stored for its URL (4.4)
//   2. a request that opts out (no-store) or brings its own conditions or range goes on untouched
//   3. a stored response for the URL and credentials whose Vary fields match, and that the
//      request's and response's directives let answer now (4.2), answers without the network
//   4. otherwise the request goes on, conditional when a stored response has validators (4.3):
//      a 304 refreshes and returns the stored response with status 200; any other answer is
//      returned, and stored once its body has arrived whole, when it may be (3) and the call
//      reads it into memory, or announces its length within the entry limit (a download's or a
//      stream's body of unknown or larger length is never collected)
// Each response carries which of these happened as its `source`, and says it in a
// `Cache-Status` member for logs (RFC 9211); the library never reads that field back.

extension HTTPCache {
    /// The cache's answer to `request`, from the store or through `next`.
    func respond(to request: TransportRequest, next: Middleware.Next, call: Middleware.Call) async throws -> TransportResponse {
        guard let url = request.url else { return try await next(request) }
        guard request.method == .get || request.method == .head else {
            let response = try await next(request)
            if Self.unsafeMethods.contains(request.method), (200..<400).contains(response.statusCode) {
                invalidate(after: response, to: url)
            }
            return response
        }
        let requestControl = CacheControl(request.headerFields)
        if requestControl.noStore || Self.conditionFields.contains(where: { request.headerFields[$0] != nil }) {
            return Self.marked(try await next(request), "fwd=request")
        }
        let key = Self.key(of: url)
        let partition = Self.partition(of: request, cookies: call.transport.cookieField(for: url))
        let found = store.entry(url: key, partition: partition)
        let stored = found.flatMap { $0.matches(request.headerFields) ? $0 : nil }
        let start = now()
        if let stored, stored.canAnswer(requestControl, at: start) {
            return Self.answer(from: stored, age: stored.currentAge(at: start), to: request)
        }
        if requestControl.onlyIfCached {
            return Self.marked(TransportResponse(statusCode: 504), "fwd=miss; detail=only-if-cached")
        }
        let reason = stored != nil ? "fwd=stale" : found != nil ? "fwd=vary-miss" : "fwd=uri-miss"
        guard request.method == .get else { return Self.marked(try await next(request), reason) }

        let conditional = stored?.conditional(request)
        let response = try await next(conditional ?? request)
        let arrival = now()
        if let stored, conditional != nil, response.statusCode == 304 {
            await response.body.drain()
            let refreshed = stored.revalidated(by: response.headerFields, requestTime: start, responseTime: arrival, request: request.headerFields)
            if refreshed.control.noStore { store.removeEntries(url: key) } else { store.store(refreshed) }
            var answer = TransportResponse(statusCode: refreshed.statusCode, headerFields: refreshed.headerFields,
                                           httpVersion: response.httpVersion, body: ResponseBody(refreshed.body))
            answer.headerFields.set(String(Int(refreshed.currentAge(at: arrival))), for: "Age")
            answer.sentRequest = response.sentRequest
            answer.source = .revalidated
            return Self.marked(answer, "fwd=stale; fwd-status=304")
        }
        let status = stored != nil ? "; fwd-status=\(response.statusCode)" : ""
        // A download's or a stream's body is collected only when its length is announced within
        // the entry limit: never an event stream, a chunked body or a large file.
        let (expected, limit) = (response.headerFields.expectedBodyLength, store.entryLimit)
        guard !call.takesBodyAsItArrives || expected.map({ $0 <= Int64(limit) }) == true,
              let entry = storable(response, to: request, key: key, partition: partition, sent: start, received: arrival) else {
            if stored != nil, response.statusCode == 200 { store.removeEntries(url: key) }
            return Self.marked(response, reason + status)
        }
        var storing = Self.marked(response, reason + status + "; stored")
        // Only a complete body is stored: not one that fails midway, is not read to its end, grows
        // past the entry limit, or does not have its announced length.
        let collected = Locked<Data?>(Data())
        storing.body = response.body.tapped({ chunk in
            collected.withLock { data in
                if let count = data?.count { if count + chunk.count <= limit { data?.append(chunk) } else { data = nil } }
            }
        }, onEnd: { [store] whole in
            guard whole, let body = collected.withLock({ $0 }), expected.map({ $0 == Int64(body.count) }) ?? true else { return }
            var complete = entry
            complete.body = body
            store.store(complete)
        })
        return storing
    }

    /// The methods whose success makes what is stored for their URL out of date.
    private static let unsafeMethods: Set<HttpMethod> = [.post, .put, .patch, .delete]

    /// Request fields that make the request the caller's own conditional or partial one.
    private static let conditionFields = ["If-None-Match", "If-Modified-Since", "If-Match", "If-Unmodified-Since", "If-Range", "Range"]

    /// The entry to store for `response` once its body has arrived (the body still empty), or
    /// `nil` when it may not or need not be stored: only a `200` to a `GET`, without
    /// `no-store` or `Vary: *`, with a freshness lifetime or a validator; for a request with
    /// `Authorization`, only when the response allows it (RFC 9111, section 3.5) or the store is
    /// one caller's own (a resource's: the rule guards answers shared between callers).
    private func storable(_ response: TransportResponse, to request: TransportRequest, key: String, partition: String,
                          sent: Date, received: Date) -> CacheEntry? {
        guard response.statusCode == 200 else { return nil }
        let control = CacheControl(response.headerFields)
        let vary = CacheEntry.varyNames(response.headerFields)
        guard !control.noStore, !vary.contains("*") else { return nil }
        if request.headerFields["Authorization"] != nil, !store.isOneCallers,
           !(control.isPublic || control.isPrivate || control.mustRevalidate || control.sharedMaxAge != nil) {
            return nil
        }
        var fields = response.headerFields
        fields.set(nil, for: "Cache-Status")
        // A secret field (`Set-Cookie`…) is the answer's to this caller alone: it is not kept.
        for name in Set(fields.fields.map(\.name)) where HeaderField(name).isRedacted { fields.set(nil, for: name) }
        let entry = CacheEntry(url: key, partition: partition, statusCode: 200, headerFields: fields, body: Data(),
                               requestTime: sent, responseTime: received, varied: CacheEntry.varied(vary, in: request.headerFields))
        return fields["ETag"] != nil || fields["Last-Modified"] != nil || entry.freshnessLifetime > 0 ? entry : nil
    }

    /// Removes what is stored for `url` and for the `Location` and `Content-Location` of
    /// `response` that share its origin (RFC 9111, section 4.4).
    private func invalidate(after response: TransportResponse, to url: URL) {
        store.removeEntries(url: Self.key(of: url))
        for name in ["Location", "Content-Location"] {
            guard let value = response.headerFields[name], let target = URL(string: value, relativeTo: url)?.absoluteURL,
                  target.origin == url.origin
            else { continue }
            store.removeEntries(url: Self.key(of: target))
        }
    }

    /// The stored response as the answer to `request`, `age` seconds old; without its body for a `HEAD`.
    private static func answer(from entry: CacheEntry, age: TimeInterval, to request: TransportRequest) -> TransportResponse {
        var fields = entry.headerFields
        fields.set(String(Int(age)), for: "Age")
        let ttl = Int(entry.freshnessLifetime - age)
        var hit = TransportResponse(statusCode: entry.statusCode, headerFields: fields, body: request.method == .head ? .empty : ResponseBody(entry.body))
        hit.source = .stored
        hit.sentRequest = request // the request this hop answers, as an exchange's answer carries
        return marked(hit, "hit" + (ttl > 0 ? "; ttl=\(ttl)" : ""))
    }

    /// `response` with this cache's `Cache-Status` member added last, e.g. `SwiftApiDsl; hit`:
    /// for people reading logs; the outcome itself is `TransportResponse.source`.
    static func marked(_ response: TransportResponse, _ parameters: String) -> TransportResponse {
        var marked = response
        marked.headerFields.append("\(cacheName); \(parameters)", for: "Cache-Status")
        return marked
    }

    /// The name this cache gives itself in `Cache-Status`.
    static let cacheName = "SwiftApiDsl"

    /// The first half of an entry's key: the URL without its fragment.
    static func key(of url: URL) -> String {
        let text = url.absoluteString
        return text.utf8.firstIndex(of: UInt8(ascii: "#")).map { String(text[..<$0]) } ?? text
    }

    /// The second half: a digest of the request's credentials (every header field whose value
    /// the library redacts: `Authorization`, `Cookie`, `X-Api-Key`…, and the `cookies` the
    /// transport will add from its storage), `""` when it has none.
    static func partition(of request: TransportRequest, cookies: String?) -> String {
        var secrets = request.headerFields.fields.filter { HeaderField($0.name).isRedacted }.map { "\($0.name.lowercased()): \($0.value)" }
        if let cookies { secrets.append("session cookie: \(cookies)") }
        guard !secrets.isEmpty else { return "" }
        return SHA256.hex(Data(secrets.sorted().joined(separator: "\n").utf8))
    }
}

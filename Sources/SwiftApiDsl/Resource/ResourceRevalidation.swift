import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A resource's value with the head of the response it came in: what a reload sends back to the
/// server (`If-None-Match`, `If-Modified-Since`) and what a `304 Not Modified` keeps.
struct ValidatedValue<Value: Sendable>: Sendable {
    var value: Value
    /// The header fields of the `200` that carried the value, updated by every `304` since.
    var headerFields: HeaderFields

    /// Whether a conditional request can ask about this value: it came with an `ETag` or a `Last-Modified`.
    var canRevalidate: Bool { headerFields["ETag"] != nil || headerFields["Last-Modified"] != nil }

    /// The same value with the header fields of a `304` that confirmed it, updated by the rule
    /// the HTTP cache follows too (``HeaderFields/updated(byNotModified:)``).
    func updated(by notModified: HeaderFields) -> ValidatedValue {
        ValidatedValue(value: value, headerFields: headerFields.updated(byNotModified: notModified))
    }
}

extension Endpoint where Value: Sendable {
    /// Loads the value on `client` (steps 1 to 7, observed like any call). With a `current` value
    /// that has validators, a GET or HEAD asks the server whether it changed: `304` keeps
    /// `current` without decoding (`notModified` is then true), `200` is decoded as usual.
    func load(on client: ApiClient, revalidating current: ValidatedValue<Value>?) async throws -> (loaded: ValidatedValue<Value>, notModified: Bool) {
        guard let current, current.canRevalidate, method == .get || method == .head else {
            let (response, raw, _) = try await performed(on: client, mapsErrors: false)
            return (ValidatedValue(value: response.body, headerFields: raw.headerFields), false)
        }
        // The head of the 304 that answered the last request on the wire, if it did.
        let confirmed = Locked<HeaderFields?>(nil)
        let conditional = middleware(Middleware.revalidating(current, confirmed: confirmed))
        let builder = conditional.request(on: client)
        return try await builder.observed(mapsErrors: false) { trace in
            let (raw, request) = try await builder.execute(trace: trace)
            if let notModified = confirmed.withLock({ $0 }) { return (current.updated(by: notModified), true) }
            // A cache around the call may answer with its stored copy (a hit, or its own 304):
            // the same strong entity tag is the same representation, so the value is kept too.
            if let etag = raw.headerFields["ETag"], !etag.hasPrefix("W/"), etag == current.headerFields["ETag"] {
                return (ValidatedValue(value: current.value, headerFields: raw.headerFields), true)
            }
            let value = try conditional.decode(raw, of: request, clientDecoder: client.jsonDecoder)
            return (ValidatedValue(value: value, headerFields: raw.headerFields), false)
        }
    }
}

extension Middleware {
    /// Sends the validators of `current` (unless the request already carries a condition of its
    /// own) and turns the `304` they bring into the head of the stored `200`, with an empty body,
    /// so that the call's validators judge the response the value came in instead of failing a
    /// 304; `confirmed` gets the 304's header fields. Runs for each request on the wire (each
    /// redirect hop and retry): the last one decides.
    static func revalidating<Value>(_ current: ValidatedValue<Value>, confirmed: Locked<HeaderFields?>) -> Middleware {
        Middleware("resource revalidation") { request, next in
            var request = request
            let asks = request.headerFields["If-None-Match"] == nil && request.headerFields["If-Modified-Since"] == nil
            if asks {
                request.headerFields.set(current.headerFields["ETag"], for: "If-None-Match")
                request.headerFields.set(current.headerFields["Last-Modified"], for: "If-Modified-Since")
            }
            let response = try await next(request)
            guard asks, response.statusCode == 304 else {
                confirmed.withLock { $0 = nil }
                return response
            }
            // A 304 has no body; reading it to its end lets the connection serve the next request.
            for try await _ in response.body {}
            confirmed.withLock { $0 = response.headerFields }
            return TransportResponse(statusCode: 200, headerFields: current.updated(by: response.headerFields).headerFields,
                                     httpVersion: response.httpVersion)
        }
    }
}

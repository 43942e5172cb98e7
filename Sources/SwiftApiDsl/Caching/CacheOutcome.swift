import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension HTTPCache {
    /// Where a response came from, as the client's ``HTTPCache`` tells it in the response's
    /// `Cache-Status` field (RFC 9211): read it as ``Response/cacheOutcome``, or in an
    /// observer as ``RequestMetrics/cacheOutcome``.
    ///
    /// ```swift
    /// let response = try await client.get("catalog").perform()
    /// if response.cacheOutcome == .hit { print("no request was sent") }
    /// ```
    public enum Outcome: String, Sendable, Equatable {
        /// From the store, without the network (`SwiftApiDsl; hit`).
        case hit
        /// From the store after the server answered `304 Not Modified` to a conditional request
        /// (`SwiftApiDsl; fwd=stale; fwd-status=304`); the status is the stored one, `200`.
        case revalidated
        /// From the network: there is no cache, the cache had nothing to use, or it was bypassed.
        case network

        /// The outcome `fields` record: the last `Cache-Status` member this library's cache added.
        init(_ fields: HeaderFields) {
            let ours = HTTPCache.statusMembers(of: fields)
                .map { $0.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) } }
                .last { $0.first == HTTPCache.cacheName }
            guard let parameters = ours?.dropFirst() else {
                self = .network
                return
            }
            if parameters.contains("hit") { self = .hit }
            else if parameters.contains("fwd-status=304") { self = .revalidated }
            else { self = .network }
        }
    }

    /// The name this cache gives itself in `Cache-Status`.
    static let cacheName = "SwiftApiDsl"

    /// The members of `fields`' `Cache-Status` (RFC 9211), in order, each field split at its commas.
    static func statusMembers(of fields: HeaderFields) -> [Substring] {
        fields.values(for: "Cache-Status").flatMap { $0.split(separator: ",") }
    }

    /// `fields` without the `Cache-Status` members in this cache's name: a response from the wire
    /// that carries one did not come from this cache, and must not read as its hit.
    static func withoutOwnStatus(_ fields: HeaderFields) -> HeaderFields {
        let members = statusMembers(of: fields)
        let others = members.filter { $0.split(separator: ";").first?.trimmingCharacters(in: .whitespaces) != cacheName }
        guard others.count < members.count else { return fields }
        var cleaned = fields
        cleaned.set(others.isEmpty ? nil : others.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", "),
                    for: "Cache-Status")
        return cleaned
    }
}

extension TransportResponse {
    /// What the client's ``HTTPCache`` did, for a middleware added before it (the ones added
    /// after it see only requests that reach the network): read from `Cache-Status`.
    ///
    /// ```swift
    /// let log = Middleware("log") { request, next in
    ///     let response = try await next(request)
    ///     print(request.url?.path ?? "", response.cacheOutcome)   // hit, revalidated or network
    ///     return response
    /// }
    /// let client = ApiClient(baseUrl: url).middleware(log).cache(.memory())
    /// ```
    public var cacheOutcome: HTTPCache.Outcome { HTTPCache.Outcome(headerFields) }
}

extension Response {
    /// Whether this response came from the client's ``HTTPCache`` (``HTTPCache/Outcome/hit``),
    /// from it after a `304` (``HTTPCache/Outcome/revalidated``), or from the network.
    public var cacheOutcome: HTTPCache.Outcome { HTTPCache.Outcome(headerFields) }
}

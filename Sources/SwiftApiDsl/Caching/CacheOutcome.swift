import Foundation

extension HTTPCache {
    /// Where a response came from, as the client's ``HTTPCache`` sets it: read it as
    /// ``Response/cacheOutcome``, in a middleware as ``TransportResponse/cacheOutcome``, or in
    /// an observer as ``RequestMetrics/cacheOutcome``. Only the cache sets it; the
    /// `Cache-Status` field it also writes (RFC 9211) is for logs and is never read back.
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
    }

    /// The name this cache gives itself in `Cache-Status`.
    static let cacheName = "SwiftApiDsl"
}

extension Response {
    /// Whether this response came from the client's ``HTTPCache`` (``HTTPCache/Outcome/hit``),
    /// from it after a `304` (``HTTPCache/Outcome/revalidated``), or from the network.
    public var cacheOutcome: HTTPCache.Outcome { head.cacheOutcome }
}

import Foundation
import SwiftApiDsl
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A private HTTP cache (RFC 9111) for `GET` and `HEAD`, as a `Middleware`: the same on every
/// transport (URLSession, AsyncHTTPClient, the mock). Turn it on per client:
///
/// ```swift
/// let client = ApiClient(baseUrl: url).cache(.memory(limit: 20 << 20))
/// let response = try await client.get("catalog").perform()
/// response.source      // .network, then .stored while fresh, .revalidated after a 304
/// ```
/// - A `200` to a `GET` is stored when it can be used again: it has a freshness lifetime
///   (`Cache-Control: max-age`, or `Expires`) or a validator (`ETag`, `Last-Modified`), and
///   neither the request nor the response says `no-store`. Only a complete body is stored.
/// - While fresh (its age, from `Date` and `Age`, below its lifetime) it answers without the
///   network. Once stale, or under `no-cache`, the request is sent with `If-None-Match` /
///   `If-Modified-Since`; a `304` refreshes the stored header fields and the stored response is
///   returned with status `200`, so validators and decoding see what they saw the first time.
/// - `Vary` makes the request header fields it names part of the match (`Vary: *` never
///   matches). Credentials (`Authorization`, cookies, API-key headers) are part of the key: a
///   response is never served to a request with other credentials; and a response to a request
///   with `Authorization` is stored only when it says `public`, `private`, `must-revalidate` or
///   `s-maxage` (RFC 9111, section 3.5).
/// - `POST`, `PUT`, `PATCH` and `DELETE` answered with a non-error status remove the stored
///   responses of their URL (and of their `Location` and `Content-Location` on the same origin).
/// - Requests that carry their own `If-None-Match`, `If-Modified-Since`, `If-Match`,
///   `If-Unmodified-Since`, `If-Range` or `Range`, and requests with `Cache-Control: no-store`,
///   go to the network untouched. One call skips the cache with
///   ``SwiftApiDsl/RequestModifier/cachePolicy(_:)`` (`.cachePolicy(.reloadIgnoringCache)`).
///
/// Every response that passes through says what the cache did in a `Cache-Status` field (RFC
/// 9211), e.g. `SwiftApiDsl; hit; ttl=42`, for logs and servers' tools. In code, read the typed
/// source the cache records beside it: `Response.source`, `RequestMetrics.source` and, in a
/// middleware added before the cache, `TransportResponse.source`; the field is written, never
/// read back. The middlewares added before the cache see every call; those added after it, the
/// observers' wire events and the transport see only the requests that reach the network.
///
/// The URLSession transport gives its session no `URLCache`, so nothing is cached twice.
/// <doc:Caching> tells the whole story, and lists the public seams of the core the cache is
/// built on, for a caching middleware of your own.
public final class HTTPCache: Sendable, CustomReflectable {
    /// Where the entries live.
    let store: any CacheStore
    /// The clock ages are counted with (a test's own clock in unit tests).
    let now: @Sendable () -> Date

    /// Only the store's kind and limit: the entries hold URLs and responses, shown nowhere.
    public var customMirror: Mirror {
        Mirror(self, children: ["store": String(describing: type(of: store)), "limit": store.limit], displayStyle: .class)
    }

    init(store: any CacheStore, now: @escaping @Sendable () -> Date = { Date() }) {
        self.store = store
        self.now = now
    }

    /// A cache in memory of up to `limit` bytes (bodies and header fields), 10 MiB unless
    /// given; past it, the responses used least recently are dropped. It lasts as long as the
    /// cache does: share one value between clients to share the entries. A response larger
    /// than `entryLimit` (a quarter of `limit` unless given) is neither collected nor stored.
    public static func memory(limit: Int = 10 << 20, entryLimit: Int? = nil) -> HTTPCache {
        HTTPCache(store: MemoryCacheStore(limit: limit, entryLimit: entryLimit ?? limit / 4))
    }

    /// A cache in the folder `directory` (made if needed), kept across launches, of up to
    /// `limit` bytes of files, 50 MiB unless given; past it, the responses used least recently
    /// are removed. Each response is written whole to its own file (a temporary one renamed into
    /// place); a file found cut short or altered is a miss and is removed. A folder that cannot
    /// be written leaves the cache empty: requests still go to the network.
    ///
    /// ```swift
    /// let folder = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask)[0].appendingPathComponent("api")
    /// let client = ApiClient(baseUrl: url).cache(.directory(folder))
    /// ```
    /// One folder belongs to one cache value at a time: two processes, or two `directory(_:)`
    /// caches, sharing a folder do not see each other's size accounting. A response larger
    /// than `entryLimit` (a quarter of `limit` unless given) is neither collected nor stored.
    public static func directory(_ directory: URL, limit: Int = 50 << 20, entryLimit: Int? = nil) -> HTTPCache {
        HTTPCache(store: DirectoryCacheStore(directory: directory, limit: limit, entryLimit: entryLimit ?? limit / 4))
    }

    /// Removes every stored response (for example when the user signs out).
    public func removeAll() {
        store.removeAll()
    }

    /// The cache as a middleware; ``SwiftApiDsl/RequestModifiable/cache(_:)`` adds it to a client.
    /// It asks the call's transport for the cookies it adds from its own storage
    /// (`HTTPTransport.cookieField(for:)`): they are part of the key.
    public var middleware: Middleware {
        Middleware(Self.middlewareName, seeingCall: { request, next, call in
            try await self.respond(to: request, next: next, call: call)
        })
    }

    /// The name of every cache's middleware, by which a ``Resource`` finds a client's cache.
    static let middlewareName = "cache"
}

extension RequestModifiable where Self == ApiClient {
    /// Returns a copy whose `GET` and `HEAD` requests go through `cache` (see ``HTTPCache``),
    /// at this place among the client's middlewares.
    ///
    /// ```swift
    /// let client = ApiClient(baseUrl: url).cache(.memory(limit: 20 << 20))
    /// let fresh = try await client.get("catalog").perform()                                   // stored
    /// let again = try await client.get("catalog").perform()                                   // .stored while fresh
    /// let latest = try await client.get("catalog").cachePolicy(.reloadIgnoringCache).perform() // network
    /// ```
    /// Clients made from this one share `cache`.
    public func cache(_ cache: HTTPCache) -> ApiClient {
        middleware(cache.middleware)
    }
}

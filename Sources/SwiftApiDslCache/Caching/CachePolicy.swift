import Foundation
import SwiftApiDsl
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension HTTPCache {
    /// How one call uses the client's ``HTTPCache``, set with
    /// ``SwiftApiDsl/RequestModifier/cachePolicy(_:)``. Each policy is the request's
    /// standard `Cache-Control` directive, so it also reaches the server and any cache between.
    public enum Policy: Sendable, Equatable {
        /// A fresh stored response answers; a stale one is revalidated (the default): removes
        /// the request's `Cache-Control` field.
        case useCache
        /// A stored response is revalidated even when fresh; the answer is stored
        /// (`Cache-Control: no-cache`).
        case revalidate
        /// The request goes to the network as if there were no cache, and nothing is stored
        /// (`Cache-Control: no-store`).
        case reloadIgnoringCache
        /// Only a stored response that can answer without the network, else a `504 Gateway
        /// Timeout` made by the cache (`Cache-Control: only-if-cached`).
        case onlyIfCached

        /// The request's `Cache-Control` value.
        var directive: String? {
            switch self {
            case .useCache: nil
            case .revalidate: "no-cache"
            case .reloadIgnoringCache: "no-store"
            case .onlyIfCached: "only-if-cached"
            }
        }
    }
}

extension RequestModifier {
    /// Sets how this call uses the client's ``HTTPCache``; see ``HTTPCache/Policy``.
    ///
    /// ```swift
    /// client.get("catalog").cachePolicy(.reloadIgnoringCache)   // straight to the network, not stored
    /// client.get("catalog").cachePolicy(.revalidate)            // ask the server, even when fresh
    /// ```
    /// It sets the request's `Cache-Control` field, replacing one set before.
    public static func cachePolicy(_ policy: HTTPCache.Policy) -> RequestModifier {
        .header(.cacheControl, policy.directive)
    }
}

extension RequestModifiable {
    /// Sets how this call uses the client's ``HTTPCache``; see ``HTTPCache/Policy``.
    public func cachePolicy(_ policy: HTTPCache.Policy) -> Self { modifier(.cachePolicy(policy)) }
}

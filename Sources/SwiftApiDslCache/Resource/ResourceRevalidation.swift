import Foundation
import SwiftApiDsl
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A resource's value with the digest of the body it was decoded from: an answer from the HTTP
/// cache with the very same bytes keeps the value, undecoded.
struct ValidatedValue<Value: Sendable>: Sendable {
    var value: Value
    /// ``SHA256`` of the body the value was decoded from.
    var bodyDigest: String
}

extension Endpoint where Value: Sendable {
    /// Loads the value on `client` (steps 1 to 7, observed like any call), whose ``HTTPCache``
    /// makes every conditional request: a resource loads through its client's cache, or through a
    /// private one (``Resource/loader``). With a `current` value, a GET asks the cache to
    /// revalidate (`Cache-Control: no-cache`), so the server is asked whether the stored answer
    /// changed. An answer from the store (after a `304`, or a hit) with the bytes `current` was
    /// decoded from keeps `current` without decoding (`notModified` is then true); any other
    /// answer is decoded as usual.
    func load(on client: ApiClient, revalidating current: ValidatedValue<Value>?) async throws -> (loaded: ValidatedValue<Value>, notModified: Bool) {
        let endpoint = current != nil && method == .get ? cachePolicy(.revalidate) : self
        // The client's own error mapping is applied by the resource, which keeps the RequestError.
        return try await client.mapError { $0 }.perform(endpoint.decoding { raw, decoded in
            let digest = SHA256.hex(raw.body)
            if let current, raw.source != .network, digest == current.bodyDigest { return (current, true) }
            return (ValidatedValue(value: try decoded(), bodyDigest: digest), false)
        })
    }
}

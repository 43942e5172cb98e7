import Foundation
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
        let pipeline = RequestPipeline(client: client, call: endpoint.call)
        return try await pipeline.observed(mapsErrors: false) { trace in
            let (raw, request) = try await pipeline.execute(trace: trace)
            let digest = SHA256.hex(raw.body)
            if let current, raw.cacheOutcome != .network, digest == current.bodyDigest { return (current, true) }
            let value = try endpoint.decode(raw, of: request, clientDecoder: client.jsonDecoder)
            return (ValidatedValue(value: value, bodyDigest: digest), false)
        }
    }
}

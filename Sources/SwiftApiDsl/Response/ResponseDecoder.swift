import Foundation

/// Turns a response body into a value: the one decoding seam, for bodies, error bodies and
/// server-sent events alike. `JSONDecoder` (the default) and `PropertyListDecoder` adopt it
/// here; any decoder with the same `decode(_:from:)` adopts it in one line.
///
/// ```swift
/// import XMLCoder
/// extension XMLDecoder: @retroactive ResponseDecoder {}
///
/// let s3 = ApiClient(baseUrl: bucketUrl, jsonDecoder: XMLDecoder())
/// let listing = try await s3.get("").queryItem(name: "list-type", "2").perform(as: ListBucketResult.self)
/// ```
/// In a module that isolates declarations to the main actor by default, write the conformance
/// `nonisolated` (`extension XMLDecoder: nonisolated ResponseDecoder {}`): calls decode off the
/// main actor.
public protocol ResponseDecoder: Sendable {
    /// Decodes a value of `type` from `data`; throws when the body is not one.
    func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T
}

extension JSONDecoder: ResponseDecoder {}
extension PropertyListDecoder: ResponseDecoder {}

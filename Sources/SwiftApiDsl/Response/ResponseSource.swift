import Foundation

/// Where a response came from: the network, or a cache in the client's middleware chain.
/// Read it as ``Response/source``, in a middleware as ``TransportResponse/source``, or in an
/// observer as ``RequestMetrics/source``.
///
/// Every exchange's response leaves the transport as ``network``, whatever the engine or the
/// server said; only a middleware can say otherwise, by setting ``TransportResponse/source``
/// on the response it returns (the `HTTPCache` of `SwiftApiDslCache` does, and so can a cache
/// of your own). A header field, such as a server's `Cache-Status`, never changes it.
///
/// ```swift
/// let response = try await client.get("catalog").perform()
/// if response.source == .stored { print("no request was sent") }
/// ```
public enum ResponseSource: String, Sendable, Equatable {
    /// From the network: no cache answered.
    case network
    /// From a cache's store, without the network.
    case stored
    /// From a cache's store after the server answered `304 Not Modified` to its conditional
    /// request; the status is the stored one.
    case revalidated
}

extension Response {
    /// Where this response came from: the network, or a cache's store; see ``ResponseSource``.
    public var source: ResponseSource { head.source }
}

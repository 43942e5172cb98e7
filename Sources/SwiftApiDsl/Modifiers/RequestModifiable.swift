import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A value that takes request modifiers: ``ApiClient`` (for every request it starts) and
/// ``RequestBuilder`` (for one request). Each call returns a new value; the receiver is unchanged.
///
/// Add your own chained modifiers in an extension, so they read like the built-ins:
/// ```swift
/// extension RequestModifiable {
///     func noCache() -> Self { modifier(.noCache()) }
/// }
/// ```
public protocol RequestModifiable: Sendable {
    /// Returns a copy with `modifier` appended.
    func modifier(_ modifier: RequestModifier) -> Self
}

extension RequestModifiable {
    /// Returns a copy with a modifier that edits the `URLRequest`; it may `await` and `throw`.
    ///
    /// ```swift
    /// client.modifier { $0.allowsCellularAccess = false }
    /// ```
    ///
    /// Every spelling compiles without annotations: `{ $0.timeoutInterval = 5 }`, `{ _ in … }`,
    /// `{ request in … }` with several statements. A closure that ignores the request still names
    /// it (`{ _ in log("sending") }`): `{ log("sending") }` takes no parameter.
    public func modifier(_ edit: @escaping @Sendable (inout URLRequest) async throws -> Void) -> Self {
        modifier(RequestModifier(edit))
    }

    /// Returns a copy with a modifier computed when the request is built.
    ///
    /// ```swift
    /// client.modifier { .header("X-Request-Id", try await nextRequestId()) }
    /// ```
    public func modifier(_ compute: @escaping @Sendable () async throws -> RequestModifier) -> Self {
        modifier(RequestModifier(compute))
    }
}

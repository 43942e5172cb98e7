import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A step that shapes a request before it is sent: sets a header, a query item, a body…
///
/// Modifiers may `await` and `throw`; a thrown error fails the request as
/// ``RequestError/modify(_:_:)``. Every built-in modifier is a static member, so it is found by
/// completion, and also a chained method on clients and requests (see ``RequestModifiable``):
/// ```swift
/// extension RequestModifier {
///     static func wifiOnly() -> RequestModifier {
///         .init { $0.allowsCellularAccess = false }
///     }
/// }
/// ```
public struct RequestModifier: Sendable {
    let apply: @Sendable (inout RequestDraft) async throws -> Void

    /// Creates a modifier from a closure that edits the `URLRequest`.
    ///
    /// Setting `httpBody` replaces any body set earlier, a streamed one included.
    public init(_ modify: @escaping @Sendable (inout URLRequest) async throws -> Void) {
        // The request makes a `URLRequest` for the closure and takes it back afterwards.
        apply = { draft in try await modify(&draft.request.urlRequest) }
    }

    /// Creates a modifier that first computes another one, e.g. from a token fetched asynchronously.
    ///
    /// ```swift
    /// RequestModifier { .bearer(try await tokenStore.token()) }
    /// ```
    public init(_ make: @escaping @Sendable () async throws -> RequestModifier) {
        apply = { draft in try await make().apply(&draft) }
    }

    /// Creates a modifier that edits the request in the library's own form, as the built-in
    /// header, query, body and timeout modifiers do: no `URLRequest` is made for it, so it costs
    /// what a built-in costs.
    ///
    /// ```swift
    /// extension RequestModifier {
    ///     static func traceId(_ id: String) -> RequestModifier {
    ///         RequestModifier(editing: { $0.headerFields.set(id, for: "X-Trace-Id") })
    ///     }
    /// }
    /// ```
    /// What it leaves is checked before anything is sent: a header name or value HTTP cannot
    /// carry (a CR or LF, say) fails the request as ``RequestError/modify(_:_:)``, on every platform.
    public init(editing edit: @escaping @Sendable (inout TransportRequest) async throws -> Void) {
        apply = { draft in try await edit(&draft.request) }
    }

    /// Creates a modifier that edits the whole call: its request and the settings that are not
    /// part of the request (redirect and retry policies, size limit, progress handlers), as the
    /// built-in `retryPolicy`, `redirectPolicy`, `maxResponseSize`, progress and JSON-body
    /// modifiers do. See ``RequestDraft``.
    ///
    /// ```swift
    /// extension RequestModifier {
    ///     static var noRedirects: RequestModifier {
    ///         RequestModifier(editingDraft: { $0.redirectPolicy = .doNotFollow })
    ///     }
    /// }
    /// ```
    public init(editingDraft edit: @escaping @Sendable (inout RequestDraft) async throws -> Void) {
        self.apply = edit
    }
}

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Authentication is a modifier that runs after the client's modifiers and before the request's,
// and that a request skips with `bypassAuth: true`. A later call replaces an earlier one.

extension ApiClient {
    /// Returns a copy that authenticates requests with `modifier`.
    ///
    /// ```swift
    /// client.authentication(.basic(userId: "me", password: secret))
    /// ```
    public func authentication(_ modifier: RequestModifier) -> ApiClient {
        with { $0.authenticationModifier = modifier }
    }

    /// Returns a copy that authenticates requests by editing them; the closure may `await` and `throw`.
    ///
    /// ```swift
    /// client.authentication {
    ///     let token = try await getToken()
    ///     $0.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
    /// }
    /// ```
    public func authentication(_ modify: @escaping @Sendable (inout URLRequest) async throws -> Void) -> ApiClient {
        authentication(RequestModifier(modify))
    }

    /// Returns a copy that authenticates requests with a modifier computed for each request.
    ///
    /// ```swift
    /// client.authentication {
    ///     let token = try await getToken()
    ///     return .bearer(token)
    /// }
    /// ```
    public func authentication(_ make: @escaping @Sendable () async throws -> RequestModifier) -> ApiClient {
        authentication(RequestModifier(make))
    }
}

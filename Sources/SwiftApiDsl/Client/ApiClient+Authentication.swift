import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Authentication is a modifier that runs after the client's modifiers and before the request's,
// and that a request skips with `bypassAuth: true`. A later call replaces an earlier one.
// Like the other settings, it sits in a constrained extension so that `client.` lists the verbs
// first (see ApiClient+Configuration.swift). The parameter names are what an editor shows in
// place of labels, and they sort the per-request forms above the value form.

extension RequestModifiable where Self == ApiClient {
    /// Returns a copy that authenticates each request with a modifier computed **for that
    /// request**: the closure runs every time a request is performed, so a token read from a
    /// store is always the current one. This is the form to use for tokens that change.
    ///
    /// ```swift
    /// client.authentication {
    ///     let token = try await tokenStore.token()
    ///     return .bearer(token)
    /// }
    /// ```
    /// A thrown error fails the request as ``RequestError/modify(_:_:)``.
    public func authentication(_ perRequest: @escaping @Sendable () async throws -> RequestModifier) -> ApiClient {
        authentication(RequestModifier(perRequest))
    }

    /// Returns a copy that authenticates each request by editing it; the closure runs for every
    /// request and may `await` and `throw`.
    ///
    /// ```swift
    /// client.authentication { request in
    ///     let token = try await tokenStore.token()
    ///     request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
    /// }
    /// ```
    public func authentication(_ perRequestEdit: @escaping @Sendable (inout URLRequest) async throws -> Void) -> ApiClient {
        authentication(RequestModifier(perRequestEdit))
    }

    /// Returns a copy that authenticates requests with `modifier`, **evaluated once, now**.
    ///
    /// Its arguments are read when this line runs, never again: in
    /// `client.authentication(.bearer(try await store.token()))` the token is fetched once, when
    /// the client is built, and every later request sends that same token, even after it
    /// expired. For a value that changes, pass a closure instead, which runs for each request:
    /// `client.authentication { .bearer(try await store.token()) }`.
    ///
    /// ```swift
    /// client.authentication(.basic(userId: "me", password: secret)) // fixed credentials
    /// ```
    public func authentication(_ valueCapturedOnce: RequestModifier) -> ApiClient {
        self.with { $0.authenticationModifier = valueCapturedOnce }
    }
}

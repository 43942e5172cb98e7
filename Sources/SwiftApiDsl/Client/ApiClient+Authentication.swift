import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Authentication is a modifier that runs after the client's modifiers and before the request's,
// and that a request skips with `bypassAuth: true`. A later call replaces an earlier one.
// Like the other settings, it sits in a constrained extension so that `client.` lists the verbs
// first (see ApiClient.swift). The parameter names are what an editor shows in
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
        self.with { $0.authentication = .modifier(valueCapturedOnce) }
    }

    /// Returns a copy that sends a bearer token read **for each request** from `token`, and that
    /// renews it with `refresh` when the server refuses it with `401`.
    ///
    /// ```swift
    /// let client = ApiClient(baseUrl: baseUrl)
    ///     .authentication(token: { try await session.accessToken() },
    ///                     refresh: { expired in try await session.refresh(expired) })
    /// ```
    /// However many requests are refused at once, **one** refresh runs: the others wait for it.
    /// Each refused request is then sent once more with the new token; refused again, it fails
    /// like any other response (no loop). A request refused with a token that was already
    /// renewed is sent again with the new one without another refresh. If `refresh` throws,
    /// every request waiting for it fails with that error as ``RequestError/modify(_:_:)``, and
    /// the next refusal tries again. `refresh` should store the new token where `token` reads
    /// it; if it does not, the client still sends the new one in place of the expired one.
    public func authentication(
        token: @escaping @Sendable () async throws -> String,
        refresh: @escaping @Sendable (_ expiredToken: String) async throws -> String
    ) -> ApiClient {
        authentication(credential: token, apply: { .bearer($0) }, refresh: refresh)
    }

    /// Returns a copy that authenticates with any credential read for each request, applied by
    /// `apply`, and renewed by `refresh` when `isExpired` says the server refused it (by
    /// default: status `401`). The rules are those of ``authentication(token:refresh:)``.
    ///
    /// ```swift
    /// client.authentication(credential: { try await keychain.apiKey() },
    ///                       apply: { .header("X-Api-Key", $0) },
    ///                       refresh: { _ in try await keychain.rotateApiKey() },
    ///                       isExpired: { $0.statusCode == 401 || $0.statusCode == 419 })
    /// ```
    public func authentication<Credential: Sendable & Equatable>(
        credential: @escaping @Sendable () async throws -> Credential,
        apply: @escaping @Sendable (Credential) -> RequestModifier,
        refresh: @escaping @Sendable (_ expired: Credential) async throws -> Credential,
        isExpired: @escaping @Sendable (Response<Data>) -> Bool = { $0.statusCode == 401 }
    ) -> ApiClient {
        let renewable = RefreshingCredential(current: credential, apply: apply, refresh: refresh, isExpired: isExpired)
        return self.with { $0.authentication = .renewable(renewable) }
    }
}

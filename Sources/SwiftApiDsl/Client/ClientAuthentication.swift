import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How a client authenticates its requests: a modifier, or a credential it can renew when the
/// server refuses it (`authentication(token:refresh:)`).
enum ClientAuthentication: Sendable {
    case modifier(RequestModifier)
    case renewable(any RenewableCredential)

    /// Authenticates `draft`; returns the renewable credential used, if any, so that a refusal
    /// can renew exactly that one.
    func authenticate(_ draft: inout RequestDraft) async throws -> UsedCredential? {
        switch self {
        case .modifier(let modifier):
            try await modifier.apply(&draft)
            return nil
        case .renewable(let credential):
            return UsedCredential(value: try await credential.authenticate(&draft), renewal: credential)
        }
    }
}

/// The credential one attempt was sent with, and what can renew it.
struct UsedCredential: Sendable {
    let value: any Sendable
    let renewal: any RenewableCredential

    /// Whether the server refused this credential in `response`.
    func isRefused(by response: Response<Data>) -> Bool { renewal.isExpired(response) }

    /// Renews this credential, or waits for the renewal already running, or returns at once
    /// when it was renewed already. `false` when the request is the renewal's own call, which
    /// is not renewed (it would wait for itself).
    func renew() async throws -> Bool { try await renewal.renew(after: value) }
}

/// A credential that can be renewed, with its type erased so that a client can hold any.
protocol RenewableCredential: Sendable {
    /// Applies the current credential to `draft` and returns it.
    func authenticate(_ draft: inout RequestDraft) async throws -> any Sendable
    /// Whether `response` says the credential it was sent with has expired.
    func isExpired(_ response: Response<Data>) -> Bool
    /// Renews `used`, once for any number of requests refused with it; `false` when the caller
    /// is the renewal's own request.
    func renew(after used: any Sendable) async throws -> Bool
}

/// A credential read for each request, applied by a modifier, and renewed by a refresh that runs
/// once for every request refused with the same credential (see ``CredentialRefresher``).
final class RefreshingCredential<Credential: Sendable & Equatable>: RenewableCredential {
    private let current: @Sendable () async throws -> Credential
    private let apply: @Sendable (Credential) -> RequestModifier
    private let expired: @Sendable (Response<Data>) -> Bool
    private let refresher: CredentialRefresher<Credential>

    init(
        current: @escaping @Sendable () async throws -> Credential,
        apply: @escaping @Sendable (Credential) -> RequestModifier,
        refresh: @escaping @Sendable (Credential) async throws -> Credential,
        isExpired: @escaping @Sendable (Response<Data>) -> Bool
    ) {
        self.current = current
        self.apply = apply
        self.expired = isExpired
        self.refresher = CredentialRefresher(refresh: refresh)
    }

    func authenticate(_ draft: inout RequestDraft) async throws -> any Sendable {
        // A store that was not told of a refresh still hands out the old credential: use the new one.
        let credential = refresher.current(try await current())
        try await apply(credential).apply(&draft)
        return credential
    }

    func isExpired(_ response: Response<Data>) -> Bool { expired(response) }

    func renew(after used: any Sendable) async throws -> Bool {
        guard let used = used as? Credential else { return false }
        return try await refresher.replacement(for: used) != nil
    }
}

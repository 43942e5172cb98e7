import Foundation
import SwiftApiDsl

// Seed 001's `EndPoint` enum, `Authorization`, `Method` and `call` function, as declarations.
// The server's error document and every other failure become the app's own error enum
// (AppError.swift), empty bodies decode as `EmptyResponse`, and the login skips authentication.

/// The error document the Vitesse server sends: `{"error": true, "reason": "…"}`.
public struct VitesseError: Decodable, Error, Sendable, Equatable {
    public let reason: String
}

/// The Vitesse candidates API.
public enum Candidates {
    /// The client: a bearer token on every call but the login, 200 or 201 only, errors decoded
    /// and thrown as the app's own ``Candidates/Error``.
    public static func client(baseUrl: URL, token: @escaping @Sendable () async throws -> String) -> ApiClient {
        ApiClient(baseUrl: baseUrl)
            .authentication { .bearer(try await token()) }
            .httpStatusCodeRange(200...201)
            .decodingErrorBody(VitesseError.self)
            .mapError(Error.translate)
    }

    /// Opens a session.
    public static func login(_ credentials: Credentials) -> Endpoint<Session> {
        Endpoint(.post, "user/auth", body: credentials, bypassAuth: true)
    }
    /// Every candidate.
    public static func all() -> Endpoint<[Candidate]> { Endpoint(.get, "candidate") }
    /// Creates a candidate.
    public static func create(_ candidate: Candidate) -> Endpoint<Candidate> { Endpoint(.post, "candidate", body: candidate) }
    /// Replaces a candidate.
    public static func update(_ candidate: Candidate) -> Endpoint<Candidate> { Endpoint(.put, "candidate/\(candidate.id)", body: candidate) }
    /// Deletes a candidate.
    public static func delete(id: String) -> Endpoint<EmptyResponse> { Endpoint(.delete, "candidate/\(id)") }
    /// Marks or unmarks a candidate as a favorite (admins only).
    public static func toggleFavorite(id: String) -> Endpoint<Candidate> { Endpoint(.put, "candidate/\(id)/favorite") }
}

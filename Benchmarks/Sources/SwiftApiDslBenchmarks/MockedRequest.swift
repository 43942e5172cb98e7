import Foundation
import SwiftApiDsl
import SwiftApiDslMock

/// One request answered by `SwiftApiDslMock` from a route stub.
enum MockedRequest {
    /// The GET, returning the raw body: what the mock and the DSL cost.
    static func raw() throws -> @Sendable () async throws -> Void {
        let client = try stubbedClient()
        return { try await client.get("users/7").perform() }
    }

    /// The same GET decoded into the 458-byte `UserRecord`: what a test pays per call.
    static func decoded() throws -> @Sendable () async throws -> Void {
        let client = try stubbedClient()
        return { let _: UserRecord = try await client.get("users/7").perform() }
    }

    private static func stubbedClient() throws -> ApiClient {
        guard let baseUrl = URL(string: "https://api.example.com/v1") else { throw URLError(.badURL) }
        let mock = ApiClientMock(baseUrl: baseUrl)
        try mock.stub(.get, "users/:id", body: UserRecord.sample)
        return mock.client
    }
}

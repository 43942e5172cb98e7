import Foundation
import SwiftApiDsl
import SwiftApiDslMock

/// One request answered by `SwiftApiDslMock` from a stub, and decoded into `UserRecord`.
enum MockedRequest {
    static let title = "mocked GET through ApiClientMock (route stub), decoded into the 458-byte record"

    static func operation() throws -> @Sendable () async throws -> Void {
        guard let baseUrl = URL(string: "https://api.example.com/v1") else { throw URLError(.badURL) }
        let mock = ApiClientMock(baseUrl: baseUrl)
        try mock.stub(.get, "users/:id", body: UserRecord.sample)
        let client = mock.client
        return {
            let _: UserRecord = try await client.get("users/7").perform()
        }
    }
}

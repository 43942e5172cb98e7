#if OpenAPI && AsyncHTTPClient
import Foundation
import GeneratedClient
import SwiftApiDsl
import SwiftApiDslOpenAPI
import Testing

/// The library's authentication with refresh, driving a generated client against Airflow: an
/// expired token is refused with `401`, the client refreshes once and the operation succeeds.
@Suite struct GeneratedClientRefreshTests {
    /// Where the test keeps the current token, and what the refresh was asked to replace.
    actor TokenStore {
        var current: String
        var refreshed: [String] = []
        init(_ token: String) { current = token }

        func refresh(_ expired: String) async throws -> String {
            refreshed.append(expired)
            current = try await Airflow.newToken()
            return current
        }
    }

    @Test(arguments: Engine.allCases)
    func expiredTokenIsRefreshedOnceAndTheOperationSucceeds(engine: Engine) async throws {
        let expiring = try await Airflow.expiringToken()
        try await Task.sleep(for: .milliseconds(2100))
        // Without refresh, the generated client sees Airflow's documented 401.
        let fixed = Client(serverURL: try Airflow.url(), configuration: Airflow.configuration,
                           transport: ApiClientTransport(try engine.apiClient().authentication(.bearer(expiring))))
        let refused = try await fixed.getPools(query: .init(limit: 1))
        guard case .unauthorized(let unauthorized) = refused else {
            Issue.record("expected 401 for an expired token, got \(refused)")
            return
        }
        #expect(try unauthorized.body.json.detail.value1 == "Token Expired")

        let store = TokenStore(expiring)
        let api = try engine.apiClient().authentication(token: { await store.current },
                                                        refresh: { expired in try await store.refresh(expired) })
        let client = Client(serverURL: try Airflow.url(), configuration: Airflow.configuration, transport: ApiClientTransport(api))
        let pools = try await client.getPools(query: .init(limit: 1, poolNamePattern: "default_pool")).ok.body.json
        #expect(pools.pools.map(\.name) == ["default_pool"])
        #expect(await store.refreshed == [expiring])
        // A second operation sends the new token: no second refresh.
        _ = try await client.getPools(query: .init(limit: 1)).ok
        #expect(await store.refreshed == [expiring])
    }
}
#endif

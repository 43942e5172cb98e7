#if OpenAPI && AsyncHTTPClient
import Foundation
import GeneratedClient
import SwiftApiDsl
import SwiftApiDslMock
import SwiftApiDslOpenAPI
import Testing

/// An app's tests of code that uses the generated client, with `ApiClientMock` as its transport:
/// stubs by method and path answer the generated operations, and the recordings keep what the
/// generated code sent. No server.
@Suite struct GeneratedClientMockTests {
    static let serverURL = URL(string: "https://airflow.example/")!

    /// A pool as Airflow describes one, every slot open.
    static func pool(_ name: String, slots: Int) -> Components.Schemas.PoolResponse {
        .init(name: name, slots: slots, includeDeferred: false, occupiedSlots: 0, runningSlots: 0, queuedSlots: 0,
              scheduledSlots: 0, openSlots: slots, deferredSlots: 0)
    }

    @Test func stubAnswersAGeneratedReadAndTheRecordingKeepsItsQuery() async throws {
        let mock = ApiClientMock(baseUrl: Self.serverURL)
        try mock.stub(.get, "api/v2/pools", body: Components.Schemas.PoolCollectionResponse(
            pools: [Self.pool("etl", slots: 4)], totalEntries: 1))
        let client = Client(serverURL: Self.serverURL, transport: ApiClientTransport(mock))

        let page = try await client.getPools(query: .init(limit: 10, orderBy: ["-name"])).ok.body.json
        #expect(page.pools.map(\.name) == ["etl"])
        #expect(page.totalEntries == 1)
        let recorded = mock.recordedRequests(method: .get, path: "api/v2/pools")
        #expect(recorded.count == 1)
        #expect(recorded.first?.queryItems == [URLQueryItem(name: "limit", value: "10"), URLQueryItem(name: "order_by", value: "-name")])
        #expect(recorded.first?.header(.accept) == "application/json")
    }

    @Test func stubAnswersAGeneratedCreateAndTheRecordingKeepsItsJSONBody() async throws {
        let mock = ApiClientMock(baseUrl: Self.serverURL)
        try mock.stub(.post, "api/v2/pools", body: Self.pool("etl", slots: 4), statusCode: 201)
        let client = Client(serverURL: Self.serverURL, transport: ApiClientTransport(mock))

        let created = try await client.postPool(body: .json(.init(name: "etl", slots: 4))).created.body.json
        #expect(created.openSlots == 4)
        let sent = try #require(mock.recordedRequests(method: .post, path: "api/v2/pools").first)
        let body = try sent.decodedBody(as: Components.Schemas.PoolBody.self)
        #expect(body.name == "etl")
        #expect(body.slots == 4)
        #expect(sent.header(.contentType) == "application/json; charset=utf-8")
    }

    @Test func unstubbedStatusReachesTheGeneratedCodeAsUndocumented() async throws {
        let mock = ApiClientMock(baseUrl: Self.serverURL)
        mock.stub(.delete, "api/v2/pools/:name", statusCode: 418)
        let client = Client(serverURL: Self.serverURL, transport: ApiClientTransport(mock))

        let output = try await client.deletePool(path: .init(poolName: "etl"))
        guard case .undocumented(statusCode: 418, _) = output else {
            Issue.record("expected the undocumented 418, got \(output)")
            return
        }
        #expect(mock.recordedRequests(method: .delete, path: "api/v2/pools/etl").count == 1)
    }
}
#endif

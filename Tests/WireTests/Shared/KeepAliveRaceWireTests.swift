#if WIRE_SUITES
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// The keep-alive race, without timing: `/faults/keep-alive-race/<key>` answers the first request
/// on a connection and closes the connection, unanswered, when the next request arrives on it
/// (`Scripts/testserver/routes_faults.py`). Each test has a transport of its own, so that its
/// second request goes on the connection its first one left open.
@Suite struct KeepAliveRaceWireTests {
    /// A client on the race route, on a transport with a connection pool of its own.
    static func raceClient() throws -> ApiClient {
        ApiClient(transport: WireTransport.fresh(), baseUrl: try TestServer.url("/faults/keep-alive-race/"))
    }

    /// How many requests the server received for `key`, answered or not.
    static func requestsReceived(_ key: String) async throws -> Int {
        struct Stats: Decodable { let requests: Int }
        let stats: Stats = try await TestServer.client("/faults/keep-alive-race-stats/").get(key).perform()
        return stats.requests
    }

    @Test func getThatMeetsTheRaceIsSentOnceMoreAndSucceeds() async throws {
        let client = try Self.raceClient()
        let key = UUID().uuidString
        let first = try await client.get(key).perform()
        let recorder = ObserverWireTests.Recorder()
        let second = try await client.observer(recorder.observe).get(key).perform()
        #expect(first.body == Data("ok".utf8))
        #expect(second.statusCode == 200)
        #expect(second.body == Data("ok".utf8))
        // Answered, lost with its connection, sent again on a new one.
        #expect(try await Self.requestsReceived(key) == 3)
        // The engine's resend is not an attempt of the retry policy: observers see one exchange.
        #expect(recorder.lines == ["prepared /faults/keep-alive-race/\(key)", "head 200", "finished ok"])
    }
}
#endif

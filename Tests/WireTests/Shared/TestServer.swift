#if WIRE_SUITES
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// The project's own loopback server (`Scripts/testserver`), which `Scripts/test` starts beside
/// httpbin and announces in `TESTSERVER_URL`: routes httpbin lacks (pages, events, faults…).
enum TestServer {
    /// The server's root URL joined with `path`; throws (failing the test) when the server was not started.
    static func url(_ path: String = "") throws -> URL {
        try loopbackServerURL(variable: "TESTSERVER_URL", name: "the test server", path: path)
    }

    /// A client on the package's wire transport, based at `path` on the server.
    static func client(_ path: String = "") throws -> ApiClient {
        ApiClient(transport: WireTransport.shared, baseUrl: try url(path))
    }
}

@Suite struct TestServerWireTests {
    @Test func testServerAnswersItsHealthRoute() async throws {
        let response = try await TestServer.client().get("health").perform()
        #expect(response.statusCode == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"ok": true}"#)
    }
}
#endif

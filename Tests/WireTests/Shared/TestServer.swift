import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// The project's own loopback server (`Scripts/testserver`), which `Scripts/test` starts beside
/// httpbin and announces in `TESTSERVER_URL`: routes httpbin lacks (pages, events, faults…).
enum TestServer {
    struct NotRunning: Error, CustomStringConvertible {
        var description: String { "TESTSERVER_URL is not set: run the tests through Scripts/test, which starts the test server" }
    }

    /// The server's root URL joined with `path`; throws (failing the test) when the server was not started.
    static func url(_ path: String = "") throws -> URL {
        guard let root = ProcessInfo.processInfo.environment["TESTSERVER_URL"], let url = URL(string: root + path) else {
            throw NotRunning()
        }
        return url
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

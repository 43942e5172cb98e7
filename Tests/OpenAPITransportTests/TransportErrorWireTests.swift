#if OpenAPI && AsyncHTTPClient
import Foundation
import OpenAPIRuntime
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl
import SwiftApiDslOpenAPI

/// A failure on the wire reaches the generated code as the generated client's `ClientError`, with
/// the library's `RequestError` as its underlying error, on both engines.
@Suite struct TransportErrorWireTests {
    /// A loopback port that nothing listens on (bound for a moment, never listened to), so a
    /// connection there is refused.
    static func closedServer() throws -> URL {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return try #require(URL(string: "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))"))
    }

    @Test(arguments: Engine.allCases)
    func aRefusedConnectionIsTheClientErrorsUnderlyingRequestError(engine: Engine) async throws {
        let server = try Self.closedServer()
        let api = TodosAPI(serverURL: server, transport: ApiClientTransport(engine.client(server)))
        let error = try await #require(throws: ClientError.self) { try await api.getTodo(id: 1) }
        #expect(error.operationID == "getTodo")
        let requestError = try #require(error.underlyingError as? RequestError)
        guard case .transport(let request, _) = requestError else {
            Issue.record("expected .transport, got \(requestError)")
            return
        }
        #expect(request.url == server.appendingPathComponent("todos/1"))
    }
}
#endif

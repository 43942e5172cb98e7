import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import SwiftApiDsl

/// A transport for pipeline tests: records what it is asked to send and answers with `respond`.
final class RecordingTransport: HTTPTransport {
    typealias Responder = @Sendable (TransportRequest) throws -> (Data, Int, [String: String])

    private let received = Locked<[TransportRequest]>([])
    private let respond: Responder

    init(respond: @escaping Responder = { _ in (Data(), 200, [:]) }) {
        self.respond = respond
    }

    var requests: [TransportRequest] { received.withLock { $0 } }

    func data(for request: TransportRequest) async throws -> (Data, HTTPURLResponse) {
        received.withLock { $0.append(request) }
        let (body, status, headers) = try respond(request)
        let url = request.urlRequest.url ?? URL(fileURLWithPath: "/")
        guard let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers) else {
            throw URLError(.badServerResponse)
        }
        return (body, response)
    }

    func download(for request: TransportRequest, to file: URL) async throws -> HTTPURLResponse {
        let (body, response) = try await data(for: request)
        try body.write(to: file)
        return response
    }
}

let exampleBase = URL(string: "https://api.example.com/v1")!

extension ApiClient {
    /// A client on `transport` based at https://api.example.com/v1.
    static func recording(_ transport: RecordingTransport) -> ApiClient {
        ApiClient(transport: transport, baseUrl: exampleBase)
    }
}

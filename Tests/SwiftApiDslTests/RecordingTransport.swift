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

    func send(_ request: TransportRequest, control: ExchangeControl) async throws -> TransportResponse {
        received.withLock { $0.append(request) }
        let (body, status, headers) = try respond(request)
        return TransportResponse(statusCode: status, headerFields: HeaderFields(headers.map { .init(name: $0.key, value: $0.value) }),
                                 body: ResponseBody(body))
    }
}

let exampleBase = URL(string: "https://api.example.com/v1")!

extension ApiClient {
    /// A client on `transport` based at https://api.example.com/v1.
    static func recording(_ transport: RecordingTransport) -> ApiClient {
        ApiClient(transport: transport, baseUrl: exampleBase)
    }
}

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// The cost of the DSL itself, with no I/O: a request built and run through the pipeline to a
/// transport that answers at once from memory.
enum InMemoryRequests {
    /// Answers every request with the same 200 and JSON body, without touching the network.
    struct CannedTransport: HTTPTransport {
        let body: Data
        let response: HTTPURLResponse

        init(body: Data) throws {
            guard let response = HTTPURLResponse(
                url: URL(fileURLWithPath: "/"), statusCode: 200, httpVersion: "HTTP/1.1",
                headerFields: ["Content-Type": "application/json"]
            ) else { throw URLError(.badServerResponse) }
            self.body = body
            self.response = response
        }

        func send(_ request: TransportRequest, control: ExchangeControl) async throws -> TransportResponse {
            TransportResponse(response, body: ResponseBody(body))
        }
    }

    /// A request with 8 modifiers (one of them a JSON body), authentication and 3 validators,
    /// built and performed; the raw body is returned, nothing is decoded.
    static func fullyDressedRequest() throws -> @Sendable () async throws -> Void {
        let base = try apiClient(transport: try CannedTransport(body: try UserRecord.json()))
        return {
            try await base.post("users/7")
                .queryItem(name: "expand", "roles")
                .queryItem(name: "lang", "en")
                .header("X-Trace-Id", "0af7651916cd43dd")
                .timeoutInterval(30)
                .jsonBody(UserRecord.sample.address)
                .validator { response in
                    if response.body.isEmpty { throw RoundTrip.UnexpectedAnswer(description: "empty body") }
                }
                .perform()
        }
    }

    /// What Foundation alone charges for the same request on Linux, with no DSL: the URL
    /// parsed, a `URLRequest` with the same 6 header fields and JSON body, and an
    /// `HTTPURLResponse` with nginx's 8 header fields. The DSL cannot cost less than this.
    static func foundationFloor() -> @Sendable () async throws -> Void {
        let encoder = JSONEncoder()
        return {
            guard let url = URL(string: "https://api.example.com/v1/users/7?expand=roles&lang=en") else { throw URLError(.badURL) }
            var request = URLRequest(url: url, timeoutInterval: 30)
            request.httpMethod = "POST"
            request.setValue("SwiftApiDslBenchmarks/1.0", forHTTPHeaderField: "User-Agent")
            request.setValue("application/json", forHTTPHeaderField: "Accept")
            request.setValue("5.0.1", forHTTPHeaderField: "X-Client-Version")
            request.setValue("Bearer eyJhbGciOiJIUzI1NiJ9.e30.ZRrHA1JJJW8opsbCGfG_HACGpVUMN_a9IV7pAx_Zmeo", forHTTPHeaderField: "Authorization")
            request.setValue("0af7651916cd43dd", forHTTPHeaderField: "X-Trace-Id")
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = try encoder.encode(UserRecord.sample.address)
            _ = HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: [
                "Server": "nginx/1.22.1", "Date": "Sat, 21 Nov 2026 09:00:00 GMT", "Content-Type": "application/json",
                "Content-Length": "458", "Last-Modified": "Sat, 21 Nov 2026 08:59:00 GMT", "Connection": "keep-alive",
                "ETag": "\"66f1a2b3-1ca\"", "Accept-Ranges": "bytes",
            ])
        }
    }

    /// The client half of ``fullyDressedRequest()``: 3 modifiers, authentication, 2 validators.
    static func apiClient(transport: any HTTPTransport) throws -> ApiClient {
        guard let baseUrl = URL(string: "https://api.example.com/v1") else { throw URLError(.badURL) }
        return ApiClient(transport: transport, baseUrl: baseUrl)
            .userAgent("SwiftApiDslBenchmarks/1.0")
            .accept("application/json")
            .header("X-Client-Version", "5.0.1")
            .authentication(.bearer("eyJhbGciOiJIUzI1NiJ9.e30.ZRrHA1JJJW8opsbCGfG_HACGpVUMN_a9IV7pAx_Zmeo"))
            .httpStatusCodeRange()
            .acceptableContentTypes(["application/json"])
    }
}

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl
import SwiftApiDslMock
import Testing

/// The `.response(…)` helpers that build mocked answers.
@Suite struct ResultResponseTests {
    let request = URLRequest(url: URL(string: "https://example.com/api/todos/7")!)

    @Test func encodableBodyIsJsonWithStatus200() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let response = try Result.response(request, body: ["b": 2, "a": 1], jsonEncoder: encoder).get()
        #expect(response.body == Data(#"{"a":1,"b":2}"#.utf8))
        #expect(response.httpResponse.statusCode == 200)
        #expect(response.httpResponse.url == request.url)
        #expect(response.httpResponse.value(forHTTPHeaderField: "Content-Type") == "application/json")
    }

    @Test func givenStatusAndHeadersAreKeptAndAGivenContentTypeWins() throws {
        let response = try Result.response(request, body: ["error": "bad"], statusCode: 422,
                                           headers: ["content-type": "application/problem+json", "X-Trace": "1"]).get()
        #expect(response.httpResponse.statusCode == 422)
        #expect(response.httpResponse.value(forHTTPHeaderField: "Content-Type") == "application/problem+json")
        #expect(response.httpResponse.value(forHTTPHeaderField: "X-Trace") == "1")
    }

    @Test func dataBodyIsSentAsIsWithoutContentType() throws {
        let response = try Result.response(request, body: Data([0xFF, 0x00])).get()
        #expect(response.body == Data([0xFF, 0x00]))
        #expect(response.httpResponse.value(forHTTPHeaderField: "Content-Type") == nil)
    }

    @Test func statusOnlyResponseHasAnEmptyBody() throws {
        let response = try Result.response(request, statusCode: 204, headers: ["ETag": "\"v2\""]).get()
        #expect(response.body.isEmpty)
        #expect(response.httpResponse.statusCode == 204)
        #expect(response.httpResponse.value(forHTTPHeaderField: "ETag") == "\"v2\"")
    }

    @Test func bodyThatDoesNotEncodeGivesATransportFailure() {
        let result = Result.response(request, body: [Double.infinity])
        guard case .failure(.transport(let failed, let error)) = result else {
            Issue.record("expected a transport failure, got \(result)")
            return
        }
        #expect(failed.url == request.url)
        #expect(error is EncodingError)
    }

    @Test func requestWithoutUrlGivesNotHTTPResponse() {
        var request = request
        request.url = nil
        guard case .failure(.fatal(.notHTTPResponse(_, nil))) = Result.response(request) else {
            Issue.record("expected notHTTPResponse")
            return
        }
    }
}

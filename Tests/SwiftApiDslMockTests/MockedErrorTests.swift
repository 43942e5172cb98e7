import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl
import SwiftApiDslMock
import Testing

/// A mocked `RequestError` of any case reaches the caller unchanged.
@Suite struct MockedErrorTests {
    /// One mocked error per `RequestError` case, each carrying `Marker(id:)` where it can.
    enum Case: String, CaseIterable, Sendable {
        case modify, transport, validate, fatalUnexpected, fatalNotHTTP

        func error(for request: URLRequest) -> RequestError {
            switch self {
            case .modify: .modify(request, Marker(id: 1))
            case .transport: .transport(request, Marker(id: 2))
            case .validate:
                .validate(request, data: Data("problem".utf8),
                          response: Fixtures.httpResponse(Fixtures.baseUrl, statusCode: 422), error: Marker(id: 3))
            case .fatalUnexpected: .fatal(.unexpected(Marker(id: 4)))
            case .fatalNotHTTP: .fatal(.notHTTPResponse(request, nil))
            }
        }
    }

    @Test(arguments: Case.allCases)
    func returnedFailureReachesTheCallerUnchanged(_ kind: Case) async throws {
        let mock = ApiClientMock(baseUrl: Fixtures.baseUrl)
        mock.resultProvider = { .failure(kind.error(for: $0)) }
        let error = await #expect(throws: RequestError.self) { try await mock.post("todos").perform() }
        expect(try #require(error), is: kind)
    }

    @Test(arguments: Case.allCases)
    func thrownRequestErrorReachesTheCallerUnchanged(_ kind: Case) async throws {
        let mock = ApiClientMock(baseUrl: Fixtures.baseUrl)
        mock.stub(.post, "todos") { throw kind.error(for: $0.urlRequest) }
        let error = await #expect(throws: RequestError.self) { try await mock.post("todos").perform() }
        expect(try #require(error), is: kind)
    }

    @Test func otherThrownErrorBecomesATransportError() async throws {
        let mock = ApiClientMock(baseUrl: Fixtures.baseUrl)
        mock.resultProvider = { _ in throw Marker(id: 5) }
        let error = await #expect(throws: RequestError.self) { try await mock.get("todos").perform() }
        guard case .transport(let request, let underlying) = error else {
            Issue.record("expected a transport error, got \(String(describing: error))")
            return
        }
        #expect(request.url?.absoluteString == "https://example.com/api/todos")
        #expect(underlying as? Marker == Marker(id: 5))
    }

    private func expect(_ error: RequestError, is kind: Case) {
        let url = "https://example.com/api/todos"
        switch (kind, error) {
        case (.modify, .modify(let request, let underlying)):
            #expect(request.url?.absoluteString == url)
            #expect(underlying as? Marker == Marker(id: 1))
        case (.transport, .transport(let request, let underlying)):
            #expect(request.url?.absoluteString == url)
            #expect(underlying as? Marker == Marker(id: 2))
        case (.validate, .validate(let request, let data, let response, let underlying)):
            #expect(request.url?.absoluteString == url)
            #expect(data == Data("problem".utf8))
            #expect(response.statusCode == 422)
            #expect(underlying as? Marker == Marker(id: 3))
        case (.fatalUnexpected, .fatal(.unexpected(let underlying))):
            #expect(underlying as? Marker == Marker(id: 4))
        case (.fatalNotHTTP, .fatal(.notHTTPResponse(let request, let response))):
            #expect(request.url?.absoluteString == url)
            #expect(response == nil)
        default:
            Issue.record("expected \(kind.rawValue), got \(error)")
        }
    }
}

/// A client's `mapError` applies on its mock as on the wire.
@Suite struct MockedErrorMappingTests {
    enum AppError: Error, Equatable { case notFound, other }

    @Test func aMockedClientThrowsTheAppsErrors() async throws {
        let client = ApiClient(baseUrl: Fixtures.baseUrl)
            .httpStatusCodeRange()
            .mapError { $0.statusCode == 404 ? AppError.notFound : AppError.other }
        let mock = client.mocked()
        mock.appliesValidators = true
        mock.stub(.get, "todos/7", statusCode: 404)
        await #expect(throws: AppError.notFound) { try await mock.client.get("todos/7").perform() }
        // A mocked transport failure goes through the same mapping.
        mock.resultProvider = { .failure(.transport($0, URLError(.notConnectedToInternet))) }
        await #expect(throws: AppError.other) { try await mock.client.get("todos/8").perform() }
    }
}

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl
import SwiftApiDslMock
import Testing

/// Status ranges that replace the client's, and server error bodies decoded into the caller's type.
@Suite struct ValidationRulesTests {
    struct ApiProblem: Decodable, Error, Equatable {
        let error: Bool
        let reason: String
    }

    struct Teapot: Error, Equatable {}

    let mock: ApiClientMock = {
        let mock = ApiClientMock(baseUrl: Fixtures.baseUrl)
        mock.appliesValidators = true
        return mock
    }()

    private func client(_ configure: (ApiClient) -> ApiClient) -> ApiClient {
        configure(mock.client)
    }

    @Test func closedRangeAcceptsItsUpperBound() async throws {
        mock.stub(.get, "a", statusCode: 299)
        mock.stub(.get, "b", statusCode: 300)
        let client = self.client { $0.httpStatusCodeRange(200...299) }
        #expect(try await client.get("a").perform().statusCode == 299)
        let error = await #expect(throws: RequestError.self) { try await client.get("b").perform() }
        #expect(error?.validationError as? ApiClientError == ApiClientError(.unacceptableStatusCode, message: "status code 300 is outside 200..<300", statusCode: 300, acceptableStatusCodes: 200..<300))
    }

    @Test func requestRangeReplacesTheClientsAndKeepsItsOtherValidators() async throws {
        mock.stub(.get, "users/x", statusCode: 404)
        let client = self.client { $0.httpStatusCodeRange().validator { if $0.statusCode == 404 { throw Teapot() } } }
        let error = await #expect(throws: RequestError.self) {
            try await client.get("users/x").httpStatusCodeRange(200...404).perform()
        }
        #expect(error?.validationError as? Teapot == Teapot())

        let plain = self.client { $0.httpStatusCodeRange() }
        #expect(try await plain.get("users/x").httpStatusCodeRange(200..<405).perform().statusCode == 404)
        // The client itself is unchanged: its next request still rejects a 404.
        await #expect(throws: RequestError.self) { try await plain.get("users/x").perform() }
    }

    @Test func aLaterRangeOnTheSameClientReplacesTheEarlierInItsPlace() async throws {
        mock.stub(.get, "users/x", statusCode: 404)
        let order = Locked<[String]>([])
        let client = self.client {
            $0.httpStatusCodeRange()
                .validator { _ in order.withLock { $0.append("after") } }
                .validator(ResponseValidator(id: ResponseValidator.httpStatusCodeRangeId) { _ in order.withLock { $0.append("range") } })
        }
        #expect(try await client.get("users/x").perform().statusCode == 404)
        #expect(order.withLock { $0 } == ["range", "after"])
    }

    @Test func validatorsWithoutIdAreAdditive() async throws {
        let calls = Locked(0)
        let client = self.client { $0.validator { _ in calls.withLock { $0 += 1 } } }
        try await client.get("a").validator { _ in calls.withLock { $0 += 10 } }.validator { _ in calls.withLock { $0 += 100 } }.perform()
        #expect(calls.withLock { $0 } == 111)
    }

    @Test func errorBodyIsDecodedAndThrownAsTheValidationError() async throws {
        mock.stub(.get, "candidates") { .response($0.urlRequest, body: ApiProblemBody(error: true, reason: "Bad token"), statusCode: 401) }
        let client = self.client { $0.decodingErrorBody(ApiProblem.self).httpStatusCodeRange() }
        let error = await #expect(throws: RequestError.self) { try await client.get("candidates").perform() }
        #expect(error?.validationError as? ApiProblem == ApiProblem(error: true, reason: "Bad token"))
        #expect(error?.statusCode == 401)
    }

    @Test func undecodableErrorBodyKeepsTheStatusErrorAndTheBody() async throws {
        mock.stub(.get, "page") { .response($0.urlRequest, body: Data("<html>oops</html>".utf8), statusCode: 502) }
        let client = self.client { $0.httpStatusCodeRange().decodingErrorBody(ApiProblem.self) }
        let error = await #expect(throws: RequestError.self) { try await client.get("page").perform() }
        #expect(error?.validationError as? ApiClientError == ApiClientError(.unacceptableStatusCode, message: "status code 502 is outside 200..<300", statusCode: 502, acceptableStatusCodes: 200..<300))
        #expect(error?.responseBody == Data("<html>oops</html>".utf8))
    }

    @Test func anAcceptedStatusIsNotTurnedIntoAnErrorBody() async throws {
        mock.stub(.get, "users/x") { .response($0.urlRequest, body: ApiProblemBody(error: true, reason: "Not found"), statusCode: 404) }
        let client = self.client { $0.httpStatusCodeRange().decodingErrorBody(ApiProblem.self) }
        #expect(try await client.get("users/x").httpStatusCodeRange(200...404).perform().statusCode == 404)
    }

    @Test func endpointErrorBodyOfAnotherTypeIsTriedAfterTheClients() async throws {
        mock.stub(.get, "problem") {
            .response($0.urlRequest, body: Data(#"{"title":"Out of credit","status":403,"detail":"Balance is 30"}"#.utf8),
                      statusCode: 403, headers: ["Content-Type": "application/problem+json"])
        }
        let client = self.client { $0.httpStatusCodeRange().decodingErrorBody(ApiProblem.self) }
        let endpoint = Endpoint<Data>(.get, "problem").decodingErrorBody(ProblemDetails.self)
        let error = await #expect(throws: RequestError.self) { try await client.perform(endpoint) }
        let problem = try #require(error?.validationError as? ProblemDetails)
        #expect(problem == ProblemDetails(title: "Out of credit", status: 403, detail: "Balance is 30"))
        #expect(problem.type == "about:blank")
        #expect(problem.description == "Out of credit (403): Balance is 30")
    }

    @Test func problemDetailsDoesNotDecodeAnotherApisDocument() throws {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ProblemDetails.self, from: Data(#"{"reason":"x"}"#.utf8)) }
    }

    @Test func userValidatorWithAnIdReplacesTheClientsOne() async throws {
        let client = self.client { $0.validator(ResponseValidator(id: "auth-check") { _ in throw Teapot() }) }
        try await client.get("a").validator(ResponseValidator(id: "auth-check") { _ in }).perform()
        await #expect(throws: RequestError.self) { try await client.get("a").perform() }
    }
}

/// Vitesse's error document, as the server encodes it.
private struct ApiProblemBody: Encodable {
    let error: Bool
    let reason: String
}

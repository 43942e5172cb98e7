import Foundation
import SwiftApiDsl
import SwiftApiDslMock
import Testing

/// Validators are off on a mock unless `appliesValidators` is set.
@Suite struct ValidatorsSwitchTests {
    @Test func validatorsAreOffByDefault() async throws {
        let mock = ApiClient(baseUrl: Fixtures.baseUrl)
            .validator { _ in throw Marker(id: 1) }
            .mocked()
        mock.stub(.get, "missing", statusCode: 404)
        #expect(mock.appliesValidators == false)

        let response = try await mock.get("missing").validator { _ in throw Marker(id: 2) }.perform()
        #expect(response.httpResponse.statusCode == 404)
    }

    @Test func appliesValidatorsRunsClientValidatorsThenRequestValidators() async throws {
        let mock = ApiClient(baseUrl: Fixtures.baseUrl).httpStatusCodeRange().mocked()
        mock.appliesValidators = true
        try mock.stub(.get, "missing", body: Data("gone".utf8), statusCode: 404)
        mock.stub(.get, "present", statusCode: 200)

        let rejected = await #expect(throws: RequestError.self) { try await mock.get("missing").perform() }
        guard case .validate(let request, let data, let response, let error) = rejected else {
            Issue.record("expected a validate error, got \(String(describing: rejected))")
            return
        }
        #expect(request.url?.absoluteString == "https://example.com/api/missing")
        #expect(data == Data("gone".utf8))
        #expect(response.statusCode == 404)
        let rejection = error as? ApiClientError
        #expect(rejection?.statusCode == 404)
        #expect(rejection?.acceptableStatusCodes == 200..<300)

        let requestRejected = await #expect(throws: RequestError.self) {
            try await mock.get("present").validator { _ in throw Marker(id: 3) }.perform()
        }
        #expect(requestRejected?.validationError as? Marker == Marker(id: 3))
    }

    @Test func switchCanBeTurnedBackOff() async throws {
        let mock = ApiClient(baseUrl: Fixtures.baseUrl).httpStatusCodeRange().mocked()
        mock.stub(nil, "**", statusCode: 500)
        mock.appliesValidators = true
        await #expect(throws: RequestError.self) { try await mock.get("x").perform() }
        mock.appliesValidators = false
        #expect(try await mock.get("x").perform().httpResponse.statusCode == 500)
    }
}

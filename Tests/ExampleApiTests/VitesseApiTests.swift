import Foundation
import SwiftApiDsl
import SwiftApiDslMock
import Testing
import VitesseApi

/// Seed 001's candidates API, tested with the mock as an app would.
@Suite struct VitesseApiTests {
    static let ada = Candidate(id: "A1", firstName: "Ada", lastName: "Lovelace", email: "ada@example.com")

    let mock: ApiClientMock = {
        let mock = Candidates.client(baseUrl: URL(string: "http://192.168.1.59:8080")!, token: { "t0ken" }).mocked()
        mock.appliesValidators = true
        return mock
    }()

    @Test func loginSkipsAuthenticationAndOtherCallsCarryTheToken() async throws {
        try mock.stub(.post, "user/auth", body: Session(token: "t0ken", isAdmin: true))
        try mock.stub(.get, "candidate", body: [Self.ada])
        let session = try await mock.perform(Candidates.login(Credentials(email: "admin@vitesse.com", password: "test123")))
        let candidates = try await mock.perform(Candidates.all())
        #expect(session == Session(token: "t0ken", isAdmin: true))
        #expect(candidates == [Self.ada])
        #expect(mock.recordedRequests.map { $0.header(.authorization) } == [nil, "Bearer t0ken"])
    }

    @Test func theServersReasonIsTheThrownError() async throws {
        mock.stub(.put, "candidate/:id/favorite") {
            .response($0.urlRequest, body: Data(#"{"error":true,"reason":"Not an admin"}"#.utf8), statusCode: 401)
        }
        await #expect(throws: Candidates.Error.custom(reason: "Not an admin")) { try await mock.perform(Candidates.toggleFavorite(id: "A1")) }
    }

    @Test func createdAndEmptyAnswersAreAccepted() async throws {
        try mock.stub(.post, "candidate", body: Self.ada, statusCode: 201)
        mock.stub(.delete, "candidate/:id")
        #expect(try await mock.perform(Candidates.create(Self.ada)) == Self.ada)
        #expect(try await mock.perform(Candidates.delete(id: "A1")) == EmptyResponse())
        #expect(mock.recordedRequests(method: .delete, path: "candidate/A1").count == 1)
    }

    @Test(arguments: [(204, Candidates.Error.internalServerError), (401, .unauthorized), (404, .notFound), (500, .internalServerError)])
    func aStatusWithoutADocumentBecomesTheAppsError(status: Int, expected: Candidates.Error) async throws {
        mock.stub(.get, "candidate", statusCode: status)
        await #expect(throws: expected) { try await mock.perform(Candidates.all()) }
    }

    @Test func everyOtherFailureBecomesTheAppsErrorAndACancellationStaysOne() async throws {
        mock.stub(.get, "candidate") { .response($0.urlRequest, body: Data("[{}]".utf8)) }
        await #expect(throws: Candidates.Error.malformed) { try await mock.perform(Candidates.all()) }
        mock.removeAllStubs()
        mock.stub(.get, "candidate") { .failure(.transport($0.urlRequest, URLError(.notConnectedToInternet))) }
        await #expect(throws: Candidates.Error.responseError) { try await mock.perform(Candidates.all()) }
        await #expect(throws: Candidates.Error.badRequest) { try await mock.perform(Candidates.delete(id: "A\u{0}1")) }
        mock.removeAllStubs()
        mock.stub(.get, "candidate") { .failure(.transport($0.urlRequest, CancellationError())) }
        let error = await #expect(throws: RequestError.self) { try await mock.perform(Candidates.all()) }
        #expect(error?.isCancellation == true)
    }
}

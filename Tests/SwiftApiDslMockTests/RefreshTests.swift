import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl
import SwiftApiDslMock

/// `authentication(token:refresh:)`: one refresh for any number of refused requests, one replay each.
@Suite struct RefreshTests {
    /// Where the app keeps its token; counts refreshes.
    actor TokenStore {
        private(set) var token = "token-1"
        private(set) var refreshes = 0
        var failure: Error?
        /// Until it says yes, a refresh waits: requests refused meanwhile pile up behind it.
        private var ready: @Sendable () -> Bool = { true }

        func refresh(_ expired: String) async throws -> String {
            refreshes += 1
            var polls = 0
            while !ready(), polls < 1_000 {
                polls += 1
                try await Task.sleep(nanoseconds: 10_000_000)
            }
            if let failure { throw failure }
            token = "token-\(refreshes + 1)"
            return token
        }

        func failRefreshes(with error: Error) { failure = error }

        func refreshWhen(_ ready: @escaping @Sendable () -> Bool) { self.ready = ready }
    }

    struct RefreshFailed: Error, Equatable {}

    /// A mock whose `me` route accepts only `Bearer <valid>` and answers 401 otherwise, and a
    /// client on it that refreshes its token through `store`.
    func mocked(store: TokenStore, valid: String = "token-2") -> (mock: ApiClientMock, client: ApiClient) {
        let mock = ApiClientMock(baseUrl: Fixtures.baseUrl)
        mock.stub(.get, "me") { request in
            request.header(.authorization) == "Bearer \(valid)"
                ? .response(request.urlRequest, body: ["ok": true])
                : .response(request.urlRequest, statusCode: 401)
        }
        mock.appliesValidators = true
        let client = mock.client
            .httpStatusCodeRange()
            .authentication(token: { await store.token }, refresh: { try await store.refresh($0) })
        return (mock, client)
    }

    func mock(store: TokenStore, valid: String = "token-2") -> ApiClient { mocked(store: store, valid: valid).client }

    @Test func concurrentRefusalsShareOneRefreshAndEachIsReplayedOnce() async throws {
        // The refresh waits until all 20 were refused, so none of them starts with the new token.
        let store = TokenStore()
        let (mock, client) = mocked(store: store)
        await store.refreshWhen { mock.recordedRequests.count >= 20 }
        let answers = try await withThrowingTaskGroup(of: [String: Bool].self) { group in
            for _ in 0..<20 { group.addTask { try await client.get("me").perform() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(answers == Array(repeating: ["ok": true], count: 20))
        #expect(await store.refreshes == 1)
        let sent = mock.recordedRequests.map { $0.header(.authorization) ?? "" }
        #expect(sent.filter { $0 == "Bearer token-1" }.count == 20)
        #expect(sent.filter { $0 == "Bearer token-2" }.count == 20)
    }

    @Test func aRequestWithTheRenewedTokenIsNotRefreshedAgain() async throws {
        let store = TokenStore()
        let client = mock(store: store)
        let first: [String: Bool] = try await client.get("me").perform()
        let second: [String: Bool] = try await client.get("me").perform()
        #expect(first == ["ok": true] && second == ["ok": true])
        #expect(await store.refreshes == 1)
    }

    @Test func aReplayRefusedAgainFailsWithoutASecondRefresh() async throws {
        let store = TokenStore()
        let client = mock(store: store, valid: "never")
        let error = await #expect(throws: RequestError.self) { try await client.get("me").perform() }
        #expect(error?.statusCode == 401)
        #expect((error?.validationError as? ApiClientError)?.statusCode == 401)
        #expect(await store.refreshes == 1)
    }

    @Test func aFailingRefreshFailsEveryWaitingRequestAsModify() async throws {
        let store = TokenStore()
        await store.failRefreshes(with: RefreshFailed())
        let (mock, client) = mocked(store: store)
        // The refresh fails only once all 10 were refused: they all wait for that one refresh.
        await store.refreshWhen { mock.recordedRequests.count >= 10 }
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<10 {
                group.addTask {
                    do {
                        try await client.get("me").perform()
                        return false
                    } catch let error as RequestError {
                        guard case .modify(_, let cause) = error else { return false }
                        return (cause as? ApiClientError)?.code == .credentialRefreshFailed && error.underlyingError is RefreshFailed && error.isAuthenticationFailure
                    } catch {
                        return false
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes == Array(repeating: true, count: 10))
        #expect(await store.refreshes == 1)
    }

    @Test func aStoreThatIsNotToldOfTheRefreshStillSendsTheNewToken() async throws {
        let client = mock(store: TokenStore()).authentication(token: { "token-1" }, refresh: { _ in "token-2" })
        let first: [String: Bool] = try await client.get("me").perform()
        let second: [String: Bool] = try await client.get("me").perform()
        #expect(first == ["ok": true] && second == ["ok": true])
    }

    @Test func aCustomCredentialAndExpiryTest() async throws {
        let mock = ApiClientMock(baseUrl: Fixtures.baseUrl)
        mock.stub(.get, "report") { request in
            request.header("X-Api-Key") == "key-2" ? .response(request.urlRequest, body: ["ok": true]) : .response(request.urlRequest, statusCode: 419)
        }
        let client = mock.client.authentication(
            credential: { "key-1" }, apply: { .header("X-Api-Key", $0) },
            refresh: { _ in "key-2" }, isExpired: { $0.statusCode == 419 })
        let answer: [String: Bool] = try await client.get("report").perform()
        #expect(answer == ["ok": true])
        #expect(mock.recordedRequests.map { $0.header("X-Api-Key") } == ["key-1", "key-2"])
    }

    @Test func aRequestThatBypassesAuthenticationIsNeverRefreshed() async throws {
        let store = TokenStore()
        let client = mock(store: store)
        let error = await #expect(throws: RequestError.self) { try await client.get("me", bypassAuth: true).perform() }
        #expect(error?.statusCode == 401)
        #expect(await store.refreshes == 0)
    }

    @Test func observersSeeTheReplayAsASecondAttempt() async throws {
        final class Retries: @unchecked Sendable {
            private let lock = NSLock()
            private var seen: [String] = []
            var all: [String] { lock.lock(); defer { lock.unlock() }; return seen }
            func observe(_ event: RequestEvent) {
                guard case .retrying(let attempt, let error, _) = event.kind else { return }
                let status = error.statusCode ?? 0
                let reason = (error.validationError as? ApiClientError)?.statusCode.map { "\($0)" } ?? "?"
                lock.lock(); seen.append("attempt \(attempt) after \(status) (\(reason))"); lock.unlock()
            }
        }
        let retries = Retries()
        let client = mock(store: TokenStore()).observer(retries.observe)
        try await client.get("me").perform()
        #expect(retries.all == ["attempt 2 after 401 (401)"])
    }
}

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Observation)
import Observation
#endif
import SwiftApiDsl
import SwiftApiDslMock
import Testing

/// A resource loads once for every concurrent caller, keeps its last value, and reports each state.
@Suite struct ResourceTests {
    let mock = ApiClientMock(baseUrl: Fixtures.baseUrl)
    let endpoint = Endpoint<[String]>(.get, "todos")

    /// Holds the mocked answers until ``open()``: a load stays in flight as long as a test needs.
    final class Gate: Sendable {
        private let state = Locked<(isOpen: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

        func pass() async {
            await withCheckedContinuation { continuation in
                let isOpen = state.withLock { state in
                    if !state.isOpen { state.waiting.append(continuation) }
                    return state.isOpen
                }
                if isOpen { continuation.resume() }
            }
        }

        func open() {
            let waiting = state.withLock { state in
                state.isOpen = true
                defer { state.waiting = [] }
                return state.waiting
            }
            waiting.forEach { $0.resume() }
        }
    }

    /// Answers the n-th request with `["v<n>"]`, or with a 500 for the numbers in `failing`,
    /// once `gate` (if any) is open.
    private func serveNumbered(failing: Set<Int> = [], gate: Gate? = nil) {
        let count = Locked(0)
        mock.appliesValidators = true
        mock.resultProvider = { request in
            await gate?.pass()
            let number = count.withLock { $0 += 1; return $0 }
            if failing.contains(number) { return .response(request, statusCode: 500) }
            return .response(request, body: ["v\(number)"])
        }
    }

    @Test func aHundredConcurrentCallersMakeOneRequest() async throws {
        serveNumbered()
        mock.latency = 0.05
        let todos = mock.resource(endpoint.httpStatusCodeRange())
        let values = try await withThrowingTaskGroup(of: [String].self) { group in
            for _ in 0..<100 { group.addTask { try await todos.value() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(values.count == 100)
        #expect(values.allSatisfy { $0 == ["v1"] })
        #expect(mock.recordedRequests(method: .get, path: "todos").count == 1)
        #expect(try await todos.value() == ["v1"])
        #expect(mock.recordedRequests.count == 1)
    }

    @Test func cancellingOneWaiterDoesNotCancelTheLoadForTheOthers() async throws {
        let gate = Gate()
        serveNumbered(gate: gate)
        let todos = mock.resource(endpoint)
        let cancelled = Task { try await todos.value() }
        let other = Task { try await todos.value() }
        while mock.recordedRequests.isEmpty { await Task.yield() }
        // The load waits at the gate until the cancelled waiter has given up.
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        gate.open()
        #expect(try await other.value == ["v1"])
        #expect(mock.recordedRequests.count == 1)
        #expect(todos.state.name == "loaded(v1)")
    }

    @Test func aFailedReloadKeepsThePreviousValueAndReportsTheError() async throws {
        serveNumbered(failing: [2])
        let todos = mock.resource(endpoint.httpStatusCodeRange())
        #expect(try await todos.value() == ["v1"])
        let error = await #expect(throws: RequestError.self) { try await todos.reload() }
        #expect(error?.statusCode == 500)
        #expect(todos.state.name == "failed(500)")
        #expect(todos.latestValue == ["v1"])
        #expect(try await todos.value() == ["v3"])
        #expect(todos.latestValue == ["v3"])
    }

    @Test func observersSeeEveryTransitionInOrder() async throws {
        serveNumbered(failing: [2])
        let todos = mock.resource(endpoint.httpStatusCodeRange())
        let first = todos.states
        let second = todos.states
        _ = try await todos.value()
        _ = try? await todos.reload()
        todos.invalidate()
        _ = try await todos.value()
        let expected = ["idle", "loading", "loaded(v1)", "loading", "failed(500)", "idle", "loading", "loaded(v3)"]
        #expect(await first.prefix(expected.count).reduce(into: []) { $0.append($1.name) } == expected)
        #expect(await second.prefix(expected.count).reduce(into: []) { $0.append($1.name) } == expected)
        // A late observer starts from the current state.
        #expect(await todos.states.first { _ in true }.map(\.name) == "loaded(v3)")
    }

    @Test func invalidateForgetsTheValueAndTheNextCallLoadsAgain() async throws {
        serveNumbered()
        let todos = mock.resource(endpoint)
        #expect(try await todos.value() == ["v1"])
        todos.invalidate()
        #expect(todos.state.name == "idle")
        #expect(todos.latestValue == nil)
        #expect(try await todos.value() == ["v2"])
        #expect(try await todos.reload() == ["v3"])
        #expect(mock.recordedRequests.count == 3)
    }

    #if canImport(Observation)
    @Test func observationReportsAStateChange() async throws {
        serveNumbered()
        let todos = mock.resource(endpoint)
        let changed = Locked(0)
        withObservationTracking {
            _ = todos.state
        } onChange: {
            changed.withLock { $0 += 1 }
        }
        _ = try await todos.value()
        #expect(changed.withLock { $0 } == 1)
    }
    #endif
}

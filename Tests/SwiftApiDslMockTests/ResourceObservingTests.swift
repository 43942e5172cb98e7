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

/// Code that does not await drives a resource: it reads the state at once, starts and cancels a
/// load, and registers and removes an observer without owning a task.
@Suite struct ResourceObservingTests {
    let mock = ApiClientMock(baseUrl: Fixtures.baseUrl)
    let endpoint = Endpoint<[String]>(.get, "todos").httpStatusCodeRange()

    /// Answers the n-th request with `["v<n>"]`, once `gate` (if any) is open.
    private func serveNumbered(gate: ResourceTests.Gate? = nil) {
        let count = Locked(0)
        mock.appliesValidators = true
        mock.resultProvider = { request in
            await gate?.pass()
            let number = count.withLock { $0 += 1; return $0 }
            return .response(request, body: ["v\(number)"])
        }
    }

    /// Records the names of the states a handler gets.
    final class Log: Sendable {
        private let names = Locked<[String]>([])
        var all: [String] { names.withLock { $0 } }
        func add(_ name: String) { names.withLock { $0.append(name) } }
    }

    @Test func loadReturnsAtOnceWithTheStateLoadingAndTheValueFollows() async throws {
        let gate = ResourceTests.Gate()
        serveNumbered(gate: gate)
        let todos = mock.resource(endpoint)
        todos.load()
        #expect(todos.state.name == "loading")
        // A caller that waits joins the load started: one request.
        let waiter = Task { try await todos.value() }
        gate.open()
        #expect(try await waiter.value == ["v1"])
        #expect(todos.state.name == "loaded(v1)")
        #expect(mock.recordedRequests.count == 1)
    }

    @Test func loadOnALoadedResourceLoadsAgainAndKeepsTheValueMeanwhile() async throws {
        serveNumbered()
        let todos = mock.resource(endpoint)
        _ = try await todos.value()
        let gate = ResourceTests.Gate()
        serveNumbered(gate: gate)
        todos.load()
        #expect(todos.state.name == "loading")
        #expect(todos.latestValue == ["v1"])
        let states = todos.states
        gate.open()
        let loaded = await states.first { if case .loaded = $0 { true } else { false } }
        #expect(loaded.map(\.name) == "loaded(v1)")   // the counter restarted with the gate
        #expect(mock.recordedRequests.count == 2)
    }

    @Test func loadReturnsTheRunningLoadToAwaitOrToCancel() async throws {
        serveNumbered()
        let todos = mock.resource(endpoint)
        let load = todos.load()
        #expect(todos.load() == load)                 // a second call joins the running load
        #expect(try await load.value == ["v1"])
        #expect(todos.state.name == "loaded(v1)")
        mock.latency = 60                             // the reload runs until cancelled
        let reload = todos.load()
        reload.cancel()                               // as `cancelLoading()` does
        await #expect(throws: CancellationError.self) { try await reload.value }
        #expect(todos.state.name == "loaded(v1)")
        #expect(mock.recordedRequests.count == 2)
    }

    @Test func cancelLoadingReturnsToTheValueHeldOrToIdle() async throws {
        let gate = ResourceTests.Gate()
        serveNumbered(gate: gate)
        defer { gate.open() }
        let todos = mock.resource(endpoint)
        let log = Log()
        let stop = todos.observe { log.add($0.name) }
        todos.load()
        todos.cancelLoading()
        #expect(todos.state.name == "idle")
        todos.cancelLoading()                        // nothing runs: nothing happens
        mock.resultProvider = { .response($0, body: ["fresh"]) }
        #expect(try await todos.value() == ["fresh"])
        todos.load()
        todos.cancelLoading()                        // (or the load ended first: the same state)
        #expect(todos.state.name == "loaded(fresh)")
        #expect(todos.latestValue == ["fresh"])
        #expect(log.all == ["idle", "loading", "idle", "loading", "loaded(fresh)", "loading", "loaded(fresh)"])
        stop()
    }

    @Test func observeCallsTheHandlerWithTheCurrentStateAtOnceThenWithEveryChange() async throws {
        serveNumbered()
        let todos = mock.resource(endpoint)
        let log = Log()
        let stop = todos.observe { log.add($0.name) }
        #expect(log.all == ["idle"])
        todos.load()
        #expect(log.all == ["idle", "loading"])
        _ = try await todos.value()
        // The handler hears of the value before the callers waiting for it get it.
        #expect(log.all == ["idle", "loading", "loaded(v1)"])
        todos.invalidate()
        #expect(log.all == ["idle", "loading", "loaded(v1)", "idle"])
        stop()
    }

    @Test func aCancelledOrReleasedObservationHearsNothingMore() async throws {
        serveNumbered()
        let todos = mock.resource(endpoint)
        let cancelled = Log()
        let released = Log()
        let kept = Log()
        let stopCancelled = todos.observe { cancelled.add($0.name) }
        var dropped: (@Sendable () -> Void)? = todos.observe { released.add($0.name) }
        let keeps = todos.observe { kept.add($0.name) }
        stopCancelled()
        stopCancelled()
        dropped = nil
        _ = try await todos.value()
        #expect(cancelled.all == ["idle"])
        #expect(released.all == ["idle"])
        #expect(kept.all == ["idle", "loading", "loaded(v1)"])
        #expect(dropped == nil)
        keeps()
    }

    @Test func aHandlerMayReadTheResourceStartALoadAndCancelItsOwnObservation() async throws {
        serveNumbered()
        let todos = mock.resource(endpoint)
        let log = Log()
        let observation = Locked<(@Sendable () -> Void)?>(nil)
        observation.withLock { slot in
            slot = todos.observe { state in
                log.add(state.name)
                if case .loaded = state {
                    // The handler runs outside the resource's lock: it reads back the same state.
                    log.add("read \(todos.state.name) \(todos.latestValue ?? [])")
                    todos.load()                                   // queued after this call returns
                    observation.withLock { $0 }?()
                }
            }
        }
        _ = try await todos.value()
        #expect(log.all == ["idle", "loading", "loaded(v1)", "read loaded(v1) [\"v1\"]"])
        #expect(try await todos.value() == ["v2"])   // the load the handler started
        #expect(log.all.count == 4)
    }

    #if canImport(Observation)
    @Test func observationIsToldOfARealStateChangeOnly() async throws {
        let gate = ResourceTests.Gate()
        serveNumbered(gate: gate)
        let todos = mock.resource(endpoint)
        let changes = Log()
        func track(_ label: String) {
            withObservationTracking { _ = todos.state } onChange: { changes.add(label) }
        }
        track("load")
        todos.invalidate()                       // idle already
        todos.cancelLoading()                    // nothing runs
        #expect(changes.all == [])
        todos.load()
        #expect(changes.all == ["load"])
        track("loaded")
        todos.load()                             // joins the running load
        #expect(changes.all == ["load"])
        gate.open()
        _ = try await todos.value()
        #expect(changes.all == ["load", "loaded"])
    }
    #endif

    @MainActor
    @Test func aMainActorScreenReadsLoadsAndObservesWithoutATask() async throws {
        serveNumbered()
        let todos = mock.resource(endpoint)
        let log = Log()
        let stop = todos.observe { state in
            DispatchQueue.main.async { log.add(state.name) }
        }
        todos.load()
        if case .loading = todos.state {} else { Issue.record("not loading: \(todos.state)") }
        _ = try await todos.value()
        await withCheckedContinuation { done in DispatchQueue.main.async { done.resume() } }
        #expect(log.all == ["idle", "loading", "loaded(v1)"])
        stop()
    }
}

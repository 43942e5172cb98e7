import Foundation
import Testing
@testable import SwiftApiDsl
@testable import SwiftApiDslCache

/// `Resource`'s single flight under each ordering of its callers, its load and `invalidate()`:
/// every load is an exchange of the scripted transport that answers when the test says (load
/// `n` answers `["v<n>"]`), and a step that needs callers waiting first waits for
/// `Resource.waiting`. `Scripts/tsan` runs it.
@Suite struct ResourceInterleavingTests {
    private let transport: ScriptedTransport
    private let todos: Resource<[String]>

    init() {
        self.init(ScriptedTransport())
    }

    private init(_ transport: ScriptedTransport) {
        self.transport = transport
        todos = scriptedClient(transport).resource(Endpoint<[String]>(.get, "todos").httpStatusCodeRange())
    }

    /// Answers load `index` (from 0) with `["v<index + 1>"]`, once it has started.
    private func answer(_ index: Int) async throws {
        try await transport.exchange(index).answer(200, body: #"["v\#(index + 1)"]"#)
    }

    private func waiting(_ count: Int) async throws {
        try await waitUntil("\(count) callers wait") { [todos] in todos.waiting == count }
    }

    private var state: String { todos.state.name }

    @Test func callersArrivingDuringALoadJoinItAndOneRequestAnswersThemAll() async throws {
        let first = Task { [todos] in try await todos.value() }
        let load = try await transport.exchange(0)
        // Half of them ask for a reload: one running already counts as it.
        let others = (0..<10).map { index in
            Task { [todos] in index.isMultiple(of: 2) ? try await todos.value() : try await todos.reload() }
        }
        try await waiting(11)
        load.answer(200, body: #"["v1"]"#)
        #expect(try await first.value == ["v1"])
        for other in others { #expect(try await other.value == ["v1"]) }
        #expect(transport.count == 1)
        #expect(state == "loaded(v1)")
    }

    @Test func aLoadInvalidatedWhileRunningAnswersItsWaitersButItsValueIsNotKept() async throws {
        let waiter = Task { [todos] in try await todos.value() }
        try await waiting(1)
        todos.invalidate()
        #expect(state == "idle")
        try await answer(0)
        #expect(try await waiter.value == ["v1"])
        #expect(state == "idle")
        #expect(todos.latestValue == nil)
        // The next caller loads again.
        let next = Task { [todos] in try await todos.value() }
        try await answer(1)
        #expect(try await next.value == ["v2"])
        #expect(state == "loaded(v2)")
    }

    @Test(arguments: [true, false])
    func aReloadAfterAnInvalidateRunsItsOwnLoadAndOnlyItsValueIsKept(staleLoadEndsFirst: Bool) async throws {
        let stale = Task { [todos] in try await todos.value() }
        try await waiting(1)
        todos.invalidate()
        let current = Task { [todos] in try await todos.reload() }
        try await waiting(2)
        if staleLoadEndsFirst {
            try await answer(0)
            #expect(try await stale.value == ["v1"])
            // Its waiter was answered; the current load's still waits, and nothing was kept.
            #expect(todos.waiting == 1)
            #expect(state == "loading")
            #expect(todos.latestValue == nil)
            try await answer(1)
            #expect(try await current.value == ["v2"])
        } else {
            try await answer(1)
            #expect(try await current.value == ["v2"])
            // The current load answered only its own waiter.
            #expect(todos.waiting == 1)
            try await answer(0)
            #expect(try await stale.value == ["v1"])
        }
        #expect(state == "loaded(v2)")
        #expect(todos.latestValue == ["v2"])
    }

    @Test func anInvalidateDuringAReloadForgetsTheOldValueAndDropsTheReloadsResult() async throws {
        let first = Task { [todos] in try await todos.value() }
        try await answer(0)
        #expect(try await first.value == ["v1"])
        let reload = Task { [todos] in try await todos.reload() }
        try await waiting(1)
        #expect(todos.latestValue == ["v1"])            // kept while reloading
        todos.invalidate()
        #expect(todos.latestValue == nil)
        try await answer(1)
        #expect(try await reload.value == ["v2"])
        #expect(state == "idle")
        #expect(todos.latestValue == nil)
    }

    @Test func aWaiterCancelledWhileTheLoadRunsEndsAtOnceAndTheLoadGoesOnForTheOthers() async throws {
        let cancelled = Task { [todos] in try await todos.value() }
        let other = Task { [todos] in try await todos.value() }
        try await waiting(2)
        cancelled.cancel()
        // The load is still unanswered: the cancelled caller ended without it.
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        #expect(todos.waiting == 1)
        let load = try await transport.exchange(0)
        #expect(load.aborts == [])
        load.answer(200, body: #"["v1"]"#)
        #expect(try await other.value == ["v1"])
        #expect(state == "loaded(v1)")
    }

    @Test func aLoadEveryCallerLeftStillEndsAndIsKept() async throws {
        let cancelled = Task { [todos] in try await todos.value() }
        try await waiting(1)
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        #expect(todos.waiting == 0)
        try await answer(0)
        try await waitUntil("the load was kept") { [todos] in todos.latestValue == ["v1"] }
        #expect(try await todos.value() == ["v1"])     // from memory
        #expect(transport.count == 1)
    }

    @Test func aCallerAlreadyCancelledNeitherWaitsNorStartsALoad() async throws {
        let cancelled = Task { [todos] in
            withUnsafeCurrentTask { $0?.cancel() }
            return try await todos.value()
        }
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        #expect(transport.count == 0)
        #expect(state == "idle")
    }

    @Test func aFailingLoadFailsEveryCallerThatJoinedItAndTheNextCallerLoadsAgain() async throws {
        let joined = (0..<5).map { _ in Task { [todos] in try await todos.value() } }
        try await waiting(5)
        try await transport.exchange(0).answer(500, body: "")
        for caller in joined {
            #expect(cause(of: await caller.result) == "ApiClientError unacceptableStatusCode")
        }
        #expect(state == "failed(500)")
        let next = Task { [todos] in try await todos.value() }
        try await answer(1)
        #expect(try await next.value == ["v2"])
        #expect(state == "loaded(v2)")
    }

    @Test(.timeLimit(.minutes(5)))
    func twoHundredRandomRacesOfCallersWithAFailingLoadGiveEachTheFailureOrTheNextLoad() async throws {
        let seed = SeededGenerator.runSeed
        var random = SeededGenerator(seed: seed)
        var outcomes: [String: Int] = [:]
        for round in 0..<200 {
            let replay = "round \(round) of seed \(seed) (INTERLEAVING_SEED=\(seed) replays it)"
            // The first load fails when a thread says so; any later one succeeds at once.
            let transport = ScriptedTransport(autoAnswer: { $0 == 0 ? nil : (200, #"["v2"]"#) })
            let todos = scriptedClient(transport).resource(Endpoint<[String]>(.get, "todos").httpStatusCodeRange())
            let first = Task { try await todos.value() }
            let load = try await transport.exchange(0)
            let failure = Int.random(in: 0...200, using: &random)
            let callers = (0..<8).map { _ in (yields: Int.random(in: 0...20, using: &random), reloads: Bool.random(using: &random)) }
            let failer = Thread {
                jitter(failure)
                load.answer(500, body: "")
            }
            failer.start()
            let calls = callers.map { caller in
                Task {
                    for _ in 0..<caller.yields { await Task.yield() }
                    return caller.reloads ? try await todos.reload() : try await todos.value()
                }
            }
            var results = [await first.result]
            for call in calls { results.append(await call.result) }
            let seen = results.map { result in
                (try? result.get()).map { "value \($0.joined())" } ?? cause(of: result)
            }
            let allowed: Set = ["ApiClientError unacceptableStatusCode", "value v2"]
            #expect(seen[0] == "ApiClientError unacceptableStatusCode", "the first caller: \(replay)")
            #expect(Set(seen).isSubset(of: allowed), "\(seen): \(replay)")
            // One load for the failure, and at most one more for each caller that did not get it.
            let later = seen.filter { $0 == "value v2" }.count
            #expect(later == 0 ? transport.count == 1 : (2...1 + later).contains(transport.count),
                    "\(transport.count) loads for \(later) later callers: \(replay)")
            for outcome in seen { outcomes[outcome, default: 0] += 1 }
            guard Set(seen).isSubset(of: allowed) else { return }
        }
        print("ResourceInterleavingTests: 200 races, seed \(seed): \(outcomes.sorted { $0.key < $1.key })")
    }

    @Test(.timeLimit(.minutes(5)))
    func twoHundredRandomMixesOfCallsInvalidationsAndCancellationsEndEveryCallAndLeaveAConsistentState() async throws {
        let seed = SeededGenerator.runSeed
        var random = SeededGenerator(seed: seed)
        for round in 0..<200 {
            let replay = "round \(round) of seed \(seed) (INTERLEAVING_SEED=\(seed) replays it)"
            let transport = ScriptedTransport(autoAnswer: { (200, #"["v\#($0 + 1)"]"#) })
            let todos = scriptedClient(transport).resource(Endpoint<[String]>(.get, "todos"))
            enum Step { case value, reload, invalidate }
            let plan = (0..<10).map { _ in
                (step: [Step.value, .reload, .invalidate].randomElement(using: &random)!,
                 yields: Int.random(in: 0...10, using: &random),
                 cancelAfter: Bool.random(using: &random) ? Int.random(in: 0...10, using: &random) : nil)
            }
            let calls = plan.map { call in
                Task { () -> [String]? in
                    for _ in 0..<call.yields { await Task.yield() }
                    switch call.step {
                    case .value: return try await todos.value()
                    case .reload: return try await todos.reload()
                    case .invalidate: todos.invalidate(); return nil
                    }
                }
            }
            for (call, task) in zip(plan, calls) {
                guard let yields = call.cancelAfter else { continue }
                Task {
                    for _ in 0..<yields { await Task.yield() }
                    task.cancel()
                }
            }
            for task in calls {
                let result = await task.result
                let ended = switch result {
                case .success(let value): value.map { $0.count == 1 && $0[0].hasPrefix("v") } ?? true
                case .failure(let error): error is CancellationError
                }
                #expect(ended, "\(result): \(replay)")
            }
            #expect(todos.waiting == 0, "\(replay)")
            try await waitUntil("no load runs: \(replay)") { [todos] in
                if case .loading = todos.state { return false } else { return true }
            }
            switch todos.state {
            case .idle: #expect(todos.latestValue == nil, "\(replay)")
            case .loaded(let value): #expect(todos.latestValue == value, "\(replay)")
            case .loading, .failed: Issue.record("state \(todos.state): \(replay)")
            }
        }
    }
}

import Foundation
import Testing
@testable import SwiftApiDsl
@testable import SwiftApiDslCache

/// `Resource` driven without awaiting: a load started with `load()` and stopped with
/// `cancelLoading()` at each point of its life, and `observe(_:)` handlers under concurrent
/// changes. Each load is an exchange of the scripted transport (load `n` answers `["v<n>"]`).
/// `Scripts/tsan` runs it.
@Suite struct ResourceControlInterleavingTests {
    private let transport = ScriptedTransport()
    private let todos: Resource<[String]>

    init() {
        todos = scriptedClient(transport).resource(Endpoint<[String]>(.get, "todos").httpStatusCodeRange())
    }

    private var state: String { todos.state.name }

    @Test func aStartedLoadCancelledStopsItsExchangeEndsItsWaitersAndIsNotKept() async throws {
        todos.load()
        #expect(state == "loading")
        let load = try await transport.exchange(0)
        let waiter = Task { [todos] in try await todos.value() }
        try await waitUntil("the caller joined the load") { [todos] in todos.waiting == 1 }
        todos.cancelLoading()
        #expect(state == "idle")
        await #expect(throws: CancellationError.self) { try await waiter.value }
        #expect(todos.waiting == 0)
        try await waitUntil("the exchange was aborted") { !load.aborts.isEmpty }
        // The next caller loads again, and only that load is kept.
        let next = Task { [todos] in try await todos.value() }
        try await transport.exchange(1).answer(200, body: #"["v2"]"#)
        #expect(try await next.value == ["v2"])
        #expect(state == "loaded(v2)")
        #expect(transport.count == 2)
    }

    @Test func aCancelledReloadLeavesTheValueHeldAndAnAnswerArrivingLateIsDropped() async throws {
        let transport = ScriptedTransport(onAbort: .ignore)
        let todos = scriptedClient(transport).resource(Endpoint<[String]>(.get, "todos"))
        todos.load()
        try await transport.exchange(0).answer(200, body: #"["v1"]"#)
        #expect(try await todos.value() == ["v1"])
        todos.load()
        let reload = try await transport.exchange(1)
        todos.cancelLoading()
        #expect(todos.state.name == "loaded(v1)")
        // An engine that ignores the abort answers anyway: the answer is not kept.
        reload.answer(200, body: #"["v2"]"#)
        let next = Task { try await todos.reload() }
        try await transport.exchange(2).answer(200, body: #"["v3"]"#)
        #expect(try await next.value == ["v3"])
        #expect(todos.latestValue == ["v3"])
    }

    @Test(.timeLimit(.minutes(5)))
    func aHundredRandomRacesOfLoadsCancelsAndInvalidationsTellEveryObserverEveryStateInTurnOneAtATime() async throws {
        let seed = SeededGenerator.runSeed
        var random = SeededGenerator(seed: seed)
        for round in 0..<100 {
            let replay = "round \(round) of seed \(seed) (INTERLEAVING_SEED=\(seed) replays it)"
            let isLast = Locked(false)
            let transport = ScriptedTransport(autoAnswer: { index in (200, isLast.withLock { $0 } ? #"["last"]"# : #"["v\#(index + 1)"]"#) })
            let todos = scriptedClient(transport).resource(Endpoint<[String]>(.get, "todos"))
            let stream = todos.states
            // One log for three handlers: who was told what, in the order they were told.
            let seen = Locked<(told: [(observer: Int, state: String)], inside: Int, overlapped: Bool)>(([], 0, false))
            let observations = (0..<3).map { observer in
                todos.observe { state in
                    seen.withLock { seen in
                        seen.inside += 1
                        seen.overlapped = seen.overlapped || seen.inside > 1
                    }
                    jitter(3)
                    seen.withLock { seen in
                        seen.told.append((observer, state.name))
                        seen.inside -= 1
                    }
                }
            }
            enum Step { case load, cancel, invalidate }
            let threads = (0..<4).map { _ in
                (0..<6).map { _ in (step: [Step.load, .cancel, .invalidate].randomElement(using: &random)!,
                                    pause: Int.random(in: 0...50, using: &random)) }
            }
            let ends = threads.map { steps in
                let end = OneShot<Void>()
                Thread {
                    for (step, pause) in steps {
                        jitter(pause)
                        switch step {
                        case .load: todos.load()
                        case .cancel: todos.cancelLoading()
                        case .invalidate: todos.invalidate()
                        }
                    }
                    end.settle(.success(()))
                }.start()
                return end
            }
            for end in ends { try await end.value() }
            // A last load answers with a body no earlier one kept (a load cancelled or invalidated
            // may still answer, unkept): once the handlers have seen it, they have seen everything.
            try await waitUntil("no load runs: \(replay)") { if case .loading = todos.state { false } else { true } }
            isLast.withLock { $0 = true }
            let last = "loaded(last)"
            todos.load()
            try await waitUntil("the handlers saw \(last): \(replay)") {
                seen.withLock { $0.told.filter { $0.state == last }.count } == observations.count
            }
            observations.forEach { $0() }
            let told = seen.withLock { $0.told.map { "\($0.observer) \($0.state)" } }
            let names = seen.withLock { $0.told.filter { $0.observer == 0 }.map(\.state) }
            let emitted = await stream.prefix(names.count).reduce(into: []) { $0.append($1.name) }
            #expect(names == emitted, "\(replay)")
            // Each state goes to handler 0, 1 and 2 in turn, before any is told of the next one.
            let inTurn = told == names.flatMap { state in (0..<3).map { "\($0) \(state)" } }
            #expect(inTurn, "\(replay): \(told)")
            #expect(!seen.withLock { $0.overlapped }, "\(replay)")
            guard names == emitted, inTurn else { return }
        }
    }
}

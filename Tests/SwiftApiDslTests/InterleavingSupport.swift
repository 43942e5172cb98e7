import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import SwiftApiDsl

// What the interleaving suites share: a transport whose every step happens when the test says,
// a wait for a real counter, and the seeded randomness of the stress tests.

/// A transport that performs each exchange under the test's control: the head comes when the
/// test calls ``ScriptedExchange/answer(_:headerFields:)``, the body is a chunk queue the test
/// pushes to, and the test holds the pipeline's ``ExchangeControl`` to drive the idle timeout.
final class ScriptedTransport: HTTPTransport {
    /// What the engine does when the pipeline aborts an exchange.
    enum AbortBehaviour: Sendable {
        /// Fails the head (if it has not come) and the body with an engine error of its own.
        case failExchange
        /// Ends the body quietly, as an `AsyncThrowingStream` does when its task is cancelled.
        case endBodyQuietly
        /// Nothing: the engine goes on as if it had not been told.
        case ignore
    }

    private let abortBehaviour: AbortBehaviour
    private let registersAbortLate: Bool
    private let autoAnswer: (@Sendable (Int) -> (status: Int, body: String)?)?
    private let started = Locked<[ScriptedExchange]>([])

    /// `registersAbortLate`: each exchange says how to stop only once the test calls
    /// ``ScriptedExchange/registerAbort()``. `autoAnswer`, if given, answers the exchange
    /// started `n`-th (from 0) at once with the status and body it returns for `n`; the others
    /// wait for the test.
    init(onAbort abortBehaviour: AbortBehaviour = .failExchange, registersAbortLate: Bool = false,
         autoAnswer: (@Sendable (Int) -> (status: Int, body: String)?)? = nil) {
        self.abortBehaviour = abortBehaviour
        self.registersAbortLate = registersAbortLate
        self.autoAnswer = autoAnswer
    }

    /// How many exchanges have started.
    var count: Int { started.withLock { $0.count } }

    /// The exchange started `index`-th (from 0), once it has started; waits up to 10 s.
    func exchange(_ index: Int, sourceLocation: SourceLocation = #_sourceLocation) async throws -> ScriptedExchange {
        try await waitUntil("exchange \(index) started", sourceLocation: sourceLocation) { self.count > index }
        return started.withLock { $0[index] }
    }

    func send(_ request: TransportRequest, control: ExchangeControl) async throws -> TransportResponse {
        let exchange = ScriptedExchange(control: control)
        let index = started.withLock { started in
            defer { started.append(exchange) }
            return started.count
        }
        if registersAbortLate { try await exchange.abortRegistration.value() }
        control.onAbort { [abortBehaviour] reason in exchange.aborted(reason, behaviour: abortBehaviour) }
        if let (status, body) = autoAnswer?(index) { exchange.answer(status, body: body) }
        let (status, fields) = try await exchange.head.value()
        return TransportResponse(statusCode: status, headerFields: fields, body: exchange.body.body)
    }
}

/// One exchange of a ``ScriptedTransport``, seen from the test.
final class ScriptedExchange: Sendable {
    /// The engine's own error for an aborted exchange: the caller must see the abort's reason instead.
    static let engineError = URLError(.networkConnectionLost)

    /// The pipeline's handle on the exchange.
    let control: ExchangeControl
    /// The body, pushed to by the test.
    let body = ResponseChunkQueue()
    /// The response head, once the test answers (or an abort fails it).
    fileprivate let head = OneShot<(Int, HeaderFields)>()
    /// Passed when the test lets a transport that registers its abort late do so.
    fileprivate let abortRegistration = OneShot<Void>()
    private let abortReasons = Locked<[String]>([])

    init(control: ExchangeControl) {
        self.control = control
    }

    /// The reasons the transport's abort closure was called with, by type name, in order.
    var aborts: [String] { abortReasons.withLock { $0 } }

    /// Lets the transport register how to stop the exchange (see `registersAbortLate`).
    func registerAbort() {
        abortRegistration.settle(.success(()))
    }

    /// Sends the response head; the body stays open for ``push(_:)``.
    func answer(_ statusCode: Int, headerFields: HeaderFields = [:]) {
        head.settle(.success((statusCode, headerFields)))
    }

    /// Queues the body's chunks, each a string's UTF-8 bytes.
    func push(_ chunks: String...) {
        for chunk in chunks { body.push(Data(chunk.utf8)) }
    }

    /// Answers with `statusCode` and a whole body.
    func answer(_ statusCode: Int, body text: String, headerFields: HeaderFields = [:]) {
        push(text)
        body.finish()
        answer(statusCode, headerFields: headerFields)
    }

    /// Waits until the reader of the body waits for a chunk; up to 10 s.
    func readerWaits(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try await waitUntil("the reader waits for a chunk", sourceLocation: sourceLocation) { self.body.isReaderWaiting }
    }

    /// An idle timeout firing now: the ticker's check at an hour past now, whatever the
    /// exchange's timeout (the tests give it an hour, so that the real ticker never fires).
    func idleTimeoutFires() {
        control.checkIdleness(at: DispatchTime.now().uptimeNanoseconds + 3_601 * 1_000_000_000)
    }

    fileprivate func aborted(_ reason: any Error, behaviour: ScriptedTransport.AbortBehaviour) {
        abortReasons.withLock { $0.append("\(type(of: reason))") }
        switch behaviour {
        case .failExchange:
            head.settle(.failure(Self.engineError))
            body.finish(throwing: Self.engineError)
        case .endBodyQuietly:
            body.finish()
        case .ignore:
            break
        }
    }
}

/// A result that one side settles once and the other awaits, in either order.
final class OneShot<Value: Sendable>: Sendable {
    private let state = Locked<(result: Result<Value, any Error>?, waiter: CheckedContinuation<Value, any Error>?)>((nil, nil))

    /// The result, once settled.
    func value() async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            let ready = state.withLock { state in
                if state.result == nil { state.waiter = continuation }
                return state.result
            }
            if let ready { continuation.resume(with: ready) }
        }
    }

    /// Settles the result; only the first call counts.
    func settle(_ result: Result<Value, any Error>) {
        let waiter = state.withLock { state -> CheckedContinuation<Value, any Error>? in
            guard state.result == nil else { return nil }
            state.result = result
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(with: result)
    }
}

/// A client of `transport` at `https://api.example.com/v1`.
func scriptedClient(_ transport: ScriptedTransport) -> ApiClient {
    ApiClient(transport: transport, baseUrl: URL(string: "https://api.example.com/v1")!)
}

/// Waits until `condition` holds, looking every millisecond; after 10 s records an issue
/// naming `what` and throws, so that a test never hangs on an ordering that did not happen.
func waitUntil(_ what: String, sourceLocation: SourceLocation = #_sourceLocation,
               _ condition: @Sendable () -> Bool) async throws {
    struct NeverHappened: Error {}
    let deadline = Date().addingTimeInterval(10)
    while !condition() {
        guard Date() < deadline else {
            Issue.record("never happened: \(what)", sourceLocation: sourceLocation)
            throw NeverHappened()
        }
        try await Task.sleep(nanoseconds: 1_000_000)
    }
}

/// The cause of a failed call, as `type: description`, for exact comparisons.
func cause(of result: Result<some Any, any Error>) -> String {
    guard case .failure(let error) = result else { return "success" }
    guard let requestError = error as? RequestError else { return "not a RequestError: \(error)" }
    guard let underlying = requestError.underlyingError else { return "no cause" }
    if let urlError = underlying as? URLError { return "URLError \(urlError.code.rawValue)" }
    if let failure = underlying as? ApiClientError { return "ApiClientError \(failure.code)" }
    return "\(type(of: underlying))"

}

/// SplitMix64: a small generator whose sequence depends only on its seed, so that a stress
/// round that fails can be replayed with `INTERLEAVING_SEED=<seed>`.
struct SeededGenerator: RandomNumberGenerator {
    /// The seed of this run: `INTERLEAVING_SEED` from the environment, else a random one.
    static let runSeed: UInt64 = ProcessInfo.processInfo.environment["INTERLEAVING_SEED"].flatMap { UInt64($0) }
        ?? UInt64.random(in: 0...UInt64.max)

    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Burns a few microseconds on the calling thread, a different number each round, so that two
/// threads meet at varying points. Never used to wait for something to happen.
func jitter(_ microseconds: Int) {
    if microseconds > 0 { usleep(UInt32(microseconds)) }
}

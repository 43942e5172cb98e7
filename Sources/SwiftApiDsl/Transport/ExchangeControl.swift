import Foundation

/// The pipeline's handle on one exchange, given to the transport that performs it.
///
/// The pipeline enforces the idle timeout, task cancellation and size limits for every engine
/// through it: the transport says once how to stop the exchange (``onAbort(_:)``) and reports
/// the request body's bytes as it sends them (``didSend(_:)``); the pipeline sees the response
/// chunks itself, and those a transport holds back are reported (``didReceive(_:)``). One process-wide ticker checks every exchange in flight for idleness, so an
/// exchange costs no timer and no extra task.
public final class ExchangeControl: Sendable {
    private struct State {
        var abort: (@Sendable (any Error) -> Void)?
        /// Run once when the exchange ends (``onEnd(_:)``).
        var endings: [@Sendable () -> Void] = []
        var reason: (any Error)?
        var lastActivity = DispatchTime.now().uptimeNanoseconds
        var bytesSent: Int64 = 0
        var isClosed = false
        /// The caller holds the body but is not reading it: not idleness of the network.
        var isPaused = false
        /// The reader asked to end the exchange when it falls behind (``readerFellBehind()``).
        var endsWhenBehind = false
        /// The engine reported a backlog.
        var fellBehind = false
        /// When the transport reported the first bytes of the answer it holds back (system uptime).
        var firstReceived: TimeInterval?
    }

    /// The longest time without traffic, in seconds; `0` or less for none.
    let idleTimeout: TimeInterval
    /// The URL named in a timeout error.
    private let url: URL?
    /// Told of the bytes sent, for upload progress.
    let uploadProgress: ProgressReporter?
    /// Whether the caller takes the body as it arrives (a download, a stream): the engine then
    /// hands the head over as soon as it has it. Otherwise it may hold the head until a small
    /// body is whole, so that the caller is woken once.
    public let takesBodyAsItArrives: Bool
    private let state = Locked(State())

    /// A handle for calling a transport directly (in a test, say): nothing watches it, and
    /// nothing aborts the exchange unless the transport itself does. Pass `takesBodyAsItArrives`
    /// as a stream or a download would.
    public convenience init(takesBodyAsItArrives: Bool = false) {
        self.init(idleTimeout: 0, url: nil, takesBodyAsItArrives: takesBodyAsItArrives)
    }

    init(idleTimeout: TimeInterval, url: URL?, uploadProgress: ProgressReporter? = nil, takesBodyAsItArrives: Bool) {
        self.idleTimeout = idleTimeout
        self.url = url
        self.uploadProgress = uploadProgress
        self.takesBodyAsItArrives = takesBodyAsItArrives
    }

    /// Registers how to stop the exchange at once (cancel the engine's task, close the
    /// connection). If the exchange was already aborted, `abort` runs now. The transport then
    /// throws whatever it likes: the caller sees the reason of the abort.
    public func onAbort(_ abort: @escaping @Sendable (any Error) -> Void) {
        let reason: (any Error)? = state.withLock { state in
            guard state.reason == nil else { return state.reason }
            state.abort = abort
            return nil
        }
        if let reason { abort(reason) }
    }

    /// Registers `ending` to run once when the exchange ends, however it ends: aborted (the idle
    /// timeout, a cancellation), or over (its response body read or dropped, or its failure
    /// reported); at once if it has ended already. Unlike ``onAbort(_:)`` it may be called any
    /// number of times. What depends on the exchange stops here, such as the reading of a
    /// streamed request body (``StreamedBody/makeChunks(endingWith:)``).
    public func onEnd(_ ending: @escaping @Sendable () -> Void) {
        let hasEnded: Bool = state.withLock { state in
            guard state.reason == nil, !state.isClosed else { return true }
            state.endings.append(ending)
            return false
        }
        if hasEnded { ending() }
    }

    /// Reports that `byteCount` more bytes of the request body are on their way.
    public func didSend(_ byteCount: Int) {
        let sent: Int64 = state.withLock { state in
            state.bytesSent += Int64(byteCount)
            state.lastActivity = DispatchTime.now().uptimeNanoseconds
            return state.bytesSent
        }
        uploadProgress?.advance(to: sent)
    }

    /// Reports that `byteCount` bytes of the answer arrived that the transport holds back for
    /// now, so that the idle timeout counts from them: a transport that hands a small answer's
    /// head over only with its whole body calls it for the head (`0`) and each part it holds.
    /// Bytes handed over are seen by the pipeline itself.
    public func didReceive(_ byteCount: Int) {
        state.withLock { state in
            state.lastActivity = DispatchTime.now().uptimeNanoseconds
            if state.firstReceived == nil { state.firstReceived = ProcessInfo.processInfo.systemUptime }
        }
    }

    /// When the first bytes held back by the transport arrived (``didReceive(_:)``): the head's
    /// time for the call's metrics, which the pipeline sees later.
    var firstReceived: TimeInterval? { state.withLock { $0.firstReceived } }

    /// Reports that the response body arrives faster than it is read and the engine cannot slow
    /// down: call it when ``ResponseChunkQueue/push(_:)`` returns `false` and the engine has no
    /// way to pause (an engine that can pauses until ``ResponseChunkQueue/whenDrained(_:)``).
    /// A body whose reader asked for it (``ResponseBody/endWhenReaderFallsBehind()``, as a
    /// download that can be continued with `Range` does) then ends after what was queued, which
    /// bounds the memory it holds; any other body keeps being queued.
    ///
    /// ```swift
    /// if !queue.push(chunk) { control.readerFellBehind() }   // in the engine's callback
    /// ```
    public func readerFellBehind() { abortIfBehind { $0.fellBehind = true } }

    /// Lets ``readerFellBehind()`` abort the exchange; at once if the engine reported a backlog
    /// already (the body outran the reader's decision).
    func endWhenReaderFallsBehind() { abortIfBehind { $0.endsWhenBehind = true } }

    /// Records, with `change`, that the engine fell behind or that the reader asked to end then;
    /// aborts the exchange once both are true.
    private func abortIfBehind(after change: (inout State) -> Void) {
        let ends = state.withLock { state in
            change(&state)
            return state.fellBehind && state.endsWhenBehind
        }
        if ends { abort(Self.fellBehind) }
    }

    /// Why a body that fell behind ended.
    static let fellBehind = ApiClientError(.readerFellBehind, message: "the response body was read more slowly than it arrived, and its engine cannot slow down")

    /// Whether the exchange was aborted, for transports that poll between blocking steps.
    public var isAborted: Bool { state.withLock { $0.reason != nil } }

    /// Records that bytes moved just now.
    func noteActivity() {
        state.withLock { $0.lastActivity = DispatchTime.now().uptimeNanoseconds }
    }

    /// Pauses the idle timeout while the caller of a streamed body is not asking for a chunk,
    /// and restarts it, counting from now, when it asks again.
    func setPaused(_ paused: Bool) {
        state.withLock { state in
            state.isPaused = paused
            state.lastActivity = DispatchTime.now().uptimeNanoseconds
        }
    }

    /// Why the exchange was aborted, if it was.
    var abortReason: (any Error)? { state.withLock { $0.reason } }

    /// Stops the exchange for `reason`, once; nothing happens after ``close()``.
    func abort(_ reason: any Error) {
        let (abort, endings): ((@Sendable (any Error) -> Void)?, [@Sendable () -> Void]) = state.withLock { state in
            guard state.reason == nil, !state.isClosed else { return (nil, []) }
            state.reason = reason
            defer { (state.abort, state.endings) = (nil, []) }
            return (state.abort, state.endings)
        }
        abort?(reason)
        for ending in endings { ending() }
    }

    /// Marks the exchange as over: later aborts do nothing, the abort closure is released, and
    /// what waits for the end runs.
    func close() {
        let endings = state.withLock { state in
            state.isClosed = true
            state.abort = nil
            defer { state.endings = [] }
            return state.endings
        }
        for ending in endings { ending() }
    }

    /// Aborts with `URLError(.timedOut)` if the exchange has been idle for its timeout at `now`.
    func checkIdleness(at now: UInt64) {
        let (lastActivity, isPaused) = state.withLock { ($0.lastActivity, $0.isPaused) }
        guard !isPaused, now > lastActivity, TimeInterval(now - lastActivity) / 1_000_000_000 >= idleTimeout else { return }
        abort(URLError(.timedOut, userInfo: url.map { [NSURLErrorFailingURLErrorKey: $0] } ?? [:]))
    }
}

/// One ticker for the whole process that checks every exchange in flight for idleness.
///
/// A timer per exchange would cost a schedule and a cancel on every request; this one ticks
/// every ``interval`` while exchanges with a timeout run, which bounds how late a timeout
/// fires, and goes quiet when there is nothing to watch.
final class IdleTicker: Sendable {
    /// The ticker every exchange uses.
    static let shared = IdleTicker()

    /// How often exchanges are checked: a timeout fires at most this late.
    static let interval: TimeInterval = 0.02

    private struct State {
        var watched: [ObjectIdentifier: ExchangeControl] = [:]
        var isTicking = false
    }

    private let state = Locked(State())
    private let queue = DispatchQueue(label: "SwiftApiDsl.IdleTicker")

    /// Checks `control` at every tick until ``unwatch(_:)``; nothing for an exchange without a timeout.
    func watch(_ control: ExchangeControl) {
        guard control.idleTimeout > 0 else { return }
        let start: Bool = state.withLock { state in
            state.watched[ObjectIdentifier(control)] = control
            defer { state.isTicking = true }
            return !state.isTicking
        }
        if start { scheduleTick() }
    }

    /// Stops checking `control`.
    func unwatch(_ control: ExchangeControl) {
        guard control.idleTimeout > 0 else { return }
        state.withLock { _ = $0.watched.removeValue(forKey: ObjectIdentifier(control)) }
    }

    private func scheduleTick() {
        queue.asyncAfter(deadline: .now() + Self.interval) { [self] in tick() }
    }

    private func tick() {
        let watched: [ExchangeControl] = state.withLock { state in
            state.isTicking = !state.watched.isEmpty
            return Array(state.watched.values)
        }
        guard !watched.isEmpty else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        for control in watched { control.checkIdleness(at: now) }
        scheduleTick()
    }
}

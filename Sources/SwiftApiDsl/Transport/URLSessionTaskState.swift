import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What one URLSession task has received so far, and the caller waiting for it.
///
/// The session's delegate queue feeds it; the idle-timeout check reads it.
final class URLSessionTaskState: Sendable {
    /// Where the body goes.
    enum Sink {
        case memory
        case file(URL)
    }

    private typealias Continuation = CheckedContinuation<(Data, HTTPURLResponse), Error>

    /// Everything that changes while the task runs, behind one lock.
    private struct Progress {
        var continuation: Continuation?
        var response: URLResponse?
        var body = Data()
        var file: FileHandle?
        /// A failure of our own (timeout, write error): it wins over what URLSession reports.
        var failure: Error?
        var lastActivity = DispatchTime.now().uptimeNanoseconds
        var idleCheck: DispatchWorkItem?
        var completed = false
        /// The task was cancelled only to end an authentication challenge (Linux); its response stands.
        var challengeCancelled = false

        mutating func touch() { lastActivity = DispatchTime.now().uptimeNanoseconds }
    }

    private let request: URLRequest
    private let idleTimeout: TimeInterval
    private let progress: Locked<Progress>

    /// Opens the sink (truncating the file) so that an empty body still leaves an empty file.
    init(request: URLRequest, sink: Sink, idleTimeout: TimeInterval) throws {
        self.request = request
        self.idleTimeout = idleTimeout
        var progress = Progress()
        if case .file(let url) = sink {
            let handle = try FileHandle(forWritingTo: url)
            try handle.truncate(atOffset: 0)
            progress.file = handle
        }
        self.progress = Locked(progress)
    }

    /// Records the waiting caller and starts the idle-timeout check.
    func begin(_ task: URLSessionTask, continuation: CheckedContinuation<(Data, HTTPURLResponse), Error>) {
        progress.withLock {
            $0.continuation = continuation
            $0.touch()
        }
        scheduleIdleCheck(of: task, after: idleTimeout)
    }

    /// Checks for idleness when the timeout could have run out, and again later if data came
    /// meanwhile. A cancelled work item costs nothing, unlike a sleeping task that must be woken.
    private func scheduleIdleCheck(of task: URLSessionTask, after delay: TimeInterval) {
        guard idleTimeout > 0 else { return }
        // Weak captures: a cancelled item stays queued until its deadline, and must hold nothing.
        let check = DispatchWorkItem { [weak self, weak task] in
            guard let self, let task else { return }
            let idle = self.idleTime()
            if idle >= self.idleTimeout {
                self.fail(URLError(.timedOut, userInfo: [NSURLErrorFailingURLErrorKey: self.request.url as Any]))
                task.cancel()
            } else {
                self.scheduleIdleCheck(of: task, after: self.idleTimeout - idle)
            }
        }
        let scheduled: Bool = progress.withLock { progress in
            guard !progress.completed else { return false }
            progress.idleCheck = check
            return true
        }
        if scheduled { DispatchQueue.global().asyncAfter(deadline: .now() + delay, execute: check) }
    }

    func noteChallengeCancelled() {
        progress.withLock { $0.challengeCancelled = true }
    }

    func noteActivity() {
        progress.withLock { $0.touch() }
    }

    func receive(_ response: URLResponse) {
        progress.withLock {
            $0.response = response
            $0.touch()
        }
    }

    /// Appends to the body, or writes it to the file; a write error cancels the task.
    func receive(_ data: Data, cancelling task: URLSessionTask) {
        let writeFailed: Bool = progress.withLock { progress in
            progress.touch()
            guard progress.failure == nil else { return false }
            guard let file = progress.file else {
                progress.body.append(data)
                return false
            }
            do {
                try file.write(contentsOf: data)
                return false
            } catch {
                progress.failure = error
                return true
            }
        }
        if writeFailed { task.cancel() }
    }

    /// Resumes the caller with the response, or with the first failure seen.
    func complete(response taskResponse: URLResponse?, error: Error?) {
        let (continuation, result): (Continuation?, Result<(Data, HTTPURLResponse), Error>) = progress.withLock { progress in
            progress.idleCheck?.cancel()
            progress.completed = true
            try? progress.file?.close()
            progress.file = nil
            let continuation = progress.continuation
            progress.continuation = nil
            let received = progress.response ?? taskResponse
            let http = received as? HTTPURLResponse
            if let failure = progress.failure { return (continuation, .failure(failure)) }
            if let error, !(progress.challengeCancelled && http != nil) { return (continuation, .failure(error)) }
            guard let http else {
                return (continuation, .failure(RequestError.fatal(.notHTTPResponse(request, received))))
            }
            return (continuation, .success((progress.body, http)))
        }
        continuation?.resume(with: result)
    }

    private func fail(_ error: Error) {
        progress.withLock { if $0.failure == nil { $0.failure = error } }
    }

    private func idleTime() -> TimeInterval {
        progress.withLock { TimeInterval(DispatchTime.now().uptimeNanoseconds - $0.lastActivity) / 1_000_000_000 }
    }
}

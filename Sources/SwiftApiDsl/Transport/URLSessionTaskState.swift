import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What one URLSession task has received so far, and the caller waiting for it.
///
/// The session's delegate queue feeds it; the idle-timeout watchdog reads it. A lock guards it.
final class URLSessionTaskState: @unchecked Sendable {
    /// Where the body goes.
    enum Sink {
        case memory
        case file(URL)
    }

    private let lock = NSLock()
    private let request: URLRequest
    private let idleTimeout: TimeInterval
    private var continuation: CheckedContinuation<(Data, HTTPURLResponse), Error>?
    private var response: URLResponse?
    private var body = Data()
    private var file: FileHandle?
    private var failure: Error?
    private var lastActivity = DispatchTime.now().uptimeNanoseconds
    private var watchdog: Task<Void, Never>?
    /// The task was cancelled only to end an authentication challenge (Linux); its response stands.
    private var challengeCancelled = false

    /// Opens the sink (truncating the file) so that an empty body still leaves an empty file.
    init(request: URLRequest, sink: Sink, idleTimeout: TimeInterval) throws {
        self.request = request
        self.idleTimeout = idleTimeout
        if case .file(let url) = sink {
            let handle = try FileHandle(forWritingTo: url)
            try handle.truncate(atOffset: 0)
            file = handle
        }
    }

    /// Records the waiting caller and starts the idle-timeout watchdog.
    func begin(_ task: URLSessionTask, continuation: CheckedContinuation<(Data, HTTPURLResponse), Error>) {
        lock.withLock {
            self.continuation = continuation
            lastActivity = DispatchTime.now().uptimeNanoseconds
        }
        guard idleTimeout > 0 else { return }
        let watchdog = Task { [weak self, idleTimeout] in
            var wait = idleTimeout
            while true {
                try? await Task.sleep(nanoseconds: UInt64(wait * 1_000_000_000))
                guard !Task.isCancelled, let self else { return }
                let idle = self.idleTime()
                if idle >= idleTimeout {
                    self.fail(URLError(.timedOut, userInfo: [NSURLErrorFailingURLErrorKey: self.request.url as Any]))
                    task.cancel()
                    return
                }
                wait = idleTimeout - idle
            }
        }
        lock.withLock { self.watchdog = watchdog }
    }

    func noteChallengeCancelled() {
        lock.withLock { challengeCancelled = true }
    }

    func noteActivity() {
        lock.withLock { lastActivity = DispatchTime.now().uptimeNanoseconds }
    }

    func receive(_ response: URLResponse) {
        lock.withLock {
            self.response = response
            lastActivity = DispatchTime.now().uptimeNanoseconds
        }
    }

    /// Appends to the body, or writes it to the file; a write error cancels the task.
    func receive(_ data: Data, cancelling task: URLSessionTask) {
        let writeFailed: Bool = lock.withLock {
            lastActivity = DispatchTime.now().uptimeNanoseconds
            guard failure == nil else { return false }
            guard let file else {
                body.append(data)
                return false
            }
            do {
                try file.write(contentsOf: data)
                return false
            } catch {
                failure = error
                return true
            }
        }
        if writeFailed { task.cancel() }
    }

    /// Resumes the caller with the response, or with the first failure seen.
    func complete(response taskResponse: URLResponse?, error: Error?) {
        let (continuation, result): (CheckedContinuation<(Data, HTTPURLResponse), Error>?, Result<(Data, HTTPURLResponse), Error>) = lock.withLock {
            watchdog?.cancel()
            try? file?.close()
            file = nil
            let continuation = self.continuation
            self.continuation = nil
            let http = (response ?? taskResponse) as? HTTPURLResponse
            if let failure { return (continuation, .failure(failure)) }
            if let error, !(challengeCancelled && http != nil) { return (continuation, .failure(error)) }
            guard let http else {
                return (continuation, .failure(RequestError.fatal(.notHTTPResponse(request, response ?? taskResponse))))
            }
            return (continuation, .success((body, http)))
        }
        continuation?.resume(with: result)
    }

    private func fail(_ error: Error) {
        lock.withLock { if failure == nil { failure = error } }
    }

    private func idleTime() -> TimeInterval {
        lock.withLock { TimeInterval(DispatchTime.now().uptimeNanoseconds - lastActivity) / 1_000_000_000 }
    }
}

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The whole life of a download, in order: a hidden partial file next to the destination (for a
// resumable download, the one an earlier call left, when it can be continued), created before
// anything is sent; the body written as it arrives (DownloadTarget.swift), after the bytes
// already there when the server answers `Range` with them (DownloadResumption.swift); a body
// cut short continued with `Range` by a new attempt, a few times, and one that outran its
// reader on an engine that cannot slow down, the same way, as often as it does; an atomic rename once every
// validator passed; and after a failure the partial file removed, unless it is resumable.

extension RequestBuilder {
    /// Sends the request and streams the body to `destination`, returning the `HTTPURLResponse`.
    ///
    /// ```swift
    /// try await client.get("user/bills/8").download(destination: localUrl)
    /// try await client.get("videos/42.mp4").download(destination: movieUrl, resumable: true)
    /// ```
    /// The body is written to a hidden partial file in the destination's folder and moved to
    /// `destination` only after every validator passed, replacing an existing file there in one
    /// atomic rename. A directory at `destination` is never replaced: the download fails as
    /// ``FatalError/download(_:destination:error:)``, as it does when the folder does not exist.
    ///
    /// **Cut short.** When the connection fails after the body began, and the response had a
    /// strong `ETag` or a `Last-Modified` date, the call continues the file as its ``RetryPolicy``
    /// retries that failure (its attempts, its waits, its error codes; none with the default
    /// ``RetryPolicy/never``): it sends the request again, through the whole chain, with
    /// `Range: bytes=<on disk>-` and `If-Range`, and appends a `206` to the bytes on disk. A `200` (the file changed on the
    /// server) starts the file again; so does a `206` for other bytes or another total, or a
    /// `416`. The file's final length must be the announced one (else an ``ApiClientError`` with
    /// `.downloadLengthMismatch`). However the call ends, ``RequestError/attempts`` counts each
    /// request continued and the last request's own retries (for a retryable status); a request
    /// retried for its status and then cut counts once.
    /// The response returned (and seen by validators) then describes the file written, not the
    /// last range of it: status `200`, the whole `Content-Length`, no `Content-Range`, and the
    /// `206`'s `ETag` and `Last-Modified`, which `If-Range` matched.
    ///
    /// **Paced.** Over an engine that cannot slow down (URLSession), once 16 MiB wait unwritten,
    /// a response that can be continued (with `Accept-Ranges: bytes` and a known length too) is
    /// stopped and continued the same way, without counting a retry.
    ///
    /// **Resumable.** On any failure the partial file is removed, unless `resumable` is `true`:
    /// then bytes that can be continued are kept, as `.<name>.partial` with its state in
    /// `.<name>.partial.json` beside the destination, and a later resumable download of the same
    /// URL to the same destination, in this process or another, continues them. Cancelling such a
    /// download pauses it. Run one resumable download per destination at a time.
    ///
    /// Validators of a download see an empty body for a 2xx response (the body is on disk), and
    /// the server's body for any other status, up to 1 MiB, so an error document is kept; an
    /// error status that answers a continued download leaves the bytes on disk as they were.
    @discardableResult
    public func download(destination: URL, resumable: Bool = false) async throws -> HTTPURLResponse {
        let target = DownloadTarget(destination: destination, resumable: resumable)
        let attempt = modifier(target.rangeModifier)
        return try await pipeline.observed { trace in
            do {
                return try await RetryPolicy.retrying(trace: trace) { tries in
                    do {
                        let (response, request) = try await attempt.pipeline.execute(download: target, trace: trace)
                        try target.moveIntoPlace(for: request)
                        return .done(response.httpResponse)
                    } catch DownloadInterruption.restart, DownloadInterruption.paused {
                        // A restart (without `Range`, which cannot be answered with the wrong bytes)
                        // follows a cut (counted below) or an earlier call's file; a pause follows a
                        // backlog of the engine's whole buffer, written: each moves the download on.
                        return .again
                    } catch DownloadInterruption.cut(let error, let policy, let method) {
                        // A cut is a transport failure like any other: the call's policy decides. A body
                        // that ended short of its length is judged as the lost connection it was.
                        guard case .transport(let request, let cause) = error, !Task.isCancelled,
                              let delay = policy.delay(after: tries, method: method, now: Date(), failing: .transport(
                                  (cause as? ApiClientError)?.code == .downloadLengthMismatch ? URLError(.networkConnectionLost) : cause))
                        else { return .failed(error) }
                        return .retry(error, of: request, after: delay)
                    } catch let error as RequestError {
                        return .failed(error) // after a continuation, the error records the attempts
                    }
                }
            } catch {
                // Every way the call fails: the partial file is kept or removed.
                target.leaveAfterFailure()
                throw error
            }
        }
    }
}

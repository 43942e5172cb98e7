import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The life of a request, in the order it happens:
//   1. build     the base request: URL from base + path, method, the `body:` given at the start
//   2. modify    the client's modifiers, in the order they were chained
//   3. authenticate  the client's authentication, unless `bypassAuth`, and only for the base
//                    URL's origin unless the request opted in (`authenticatingAnyOrigin()`);
//                    a refused renewable credential is renewed and the request replayed once
//   4. modify    the request's own modifiers, so a request overrides its client; then the
//                finished request is checked (absolute http(s) URL, valid header fields)
//   5. send      through the transport, one exchange per hop (Exchange.swift), following
//                redirects per the `RedirectPolicy`; then read the body into memory or a file;
//                sent again after a failure that the `RetryPolicy` retries (none by default)
//   6. validate  the client's validators, then the request's; all of them run, except that a
//                validator with an `id` replaces an earlier one with the same `id`; a rejection
//                may be explained by `onRejection` validators (a decoded error body)
//   7. decode    in `perform()` (RequestBuilder+Perform.swift), move the file for a download,
//                or hand the body over unread in `stream()` (RequestBuilder+Stream.swift)
// Every failure leaves here as a `RequestError` naming its stage.
// Observers hear of it through `trace` (RequestTrace.swift) at the points marked `// observe:`.

extension RequestBuilder {
    /// Where a download's body goes while the request runs, and where it ends.
    struct DownloadTarget {
        let destination: URL
        let temporaryFile: URL
    }

    /// Where the body of the final response goes.
    enum BodyDestination {
        /// Into memory, for `perform()`.
        case memory
        /// Into the download's temporary file.
        case file(DownloadTarget)
        /// To the caller, as it arrives, for `stream()`.
        case caller
    }

    /// Runs steps 1 to 6 and returns the validated response with the request that received it.
    /// For a download the body stays on disk; see ``body(of:destination:limit:progress:)`` for what validators see.
    func execute(download: DownloadTarget? = nil, trace: RequestTrace?) async throws -> (Response<Data>, TransportRequest) {
        let (response, request, _) = try await execute(into: download.map { .file($0) } ?? .memory, trace: trace)
        return (response, request)
    }

    /// Runs steps 1 to 6; for ``BodyDestination/caller`` also returns the body still to read.
    func execute(into destination: BodyDestination, trace: RequestTrace?) async throws -> (Response<Data>, TransportRequest, ResponseBody?) {
        let (draft, credential) = try await prepare()
        trace?.prepared(draft.request) // observe: prepared
        var (response, request, streamed, attempts) = try await attempt(draft, into: destination, trace: trace)
        // 5½. A refused credential is renewed (once for all requests refused with it) and the
        //     request sent once more, from the start: a replay refused again is not renewed.
        if let credential, credential.isRefused(by: response), try await renewed(credential, refusedIn: request) {
            let refusal = ExpiredCredentialError(statusCode: response.statusCode)
            trace?.retrying(attempt: 2, error: .validate(request.urlRequest, data: response.body, response: response.httpResponse, error: refusal), delay: 0)
            (response, request, streamed, attempts) = try await attempt(try await prepare().draft, into: destination, trace: trace)
        }
        do {
            try await validate(response, of: request)
        } catch let error as RequestError where attempts > 1 {
            throw Self.recording(attempts, in: error)
        }
        return (response, request, streamed)
    }

    /// Step 5½: renews `credential`; `false` when this request is the renewal's own call (it
    /// goes on to the validators with its refusal). A failed renewal fails the request as
    /// ``RequestError/modify(_:_:)`` with a ``CredentialRefreshError``; a cancelled wait, as a
    /// cancellation.
    private func renewed(_ credential: UsedCredential, refusedIn request: TransportRequest) async throws -> Bool {
        do {
            return try await credential.renew()
        } catch is CancellationError {
            throw RequestError.modify(request.urlRequest, CancellationError())
        } catch {
            throw RequestError.modify(request.urlRequest, CredentialRefreshError(underlying: error))
        }
    }

    /// Step 5 under the draft's ``RetryPolicy``: sends the same request again after a failure
    /// that the policy retries, waiting as it says. Returns the last attempt's response (whatever
    /// its status: it goes on to the validators) and how many attempts were made; a thrown
    /// error records the count in a ``RetriedError`` when there was more than one.
    private func attempt(_ draft: RequestDraft, into destination: BodyDestination, trace: RequestTrace?) async throws
        -> (Response<Data>, TransportRequest, ResponseBody?, attempts: Int) {
        let policy = draft.retryPolicy
        // Most requests retry nothing: one send, and no bookkeeping.
        guard policy.maxAttempts > 1 else {
            let (response, request, streamed) = try await send(draft, into: destination, trace: trace)
            return (response, request, streamed, 1)
        }
        let method = draft.request.method
        var attempts = 1
        while true {
            let failed: (error: RequestError, delay: TimeInterval)
            do {
                let (response, request, streamed) = try await send(draft, into: destination, trace: trace)
                guard policy.retryableStatusCodes.contains(response.statusCode),
                      let delay = policy.delay(after: attempts, method: method, now: Date(), failing: .status(
                          response.statusCode, retryAfter: response.headerFields["Retry-After"]))
                else { return (response, request, streamed, attempts) }
                let status = UnacceptableStatusCode(statusCode: response.statusCode, acceptable: 200..<300)
                failed = (.validate(request.urlRequest, data: response.body, response: response.httpResponse, error: status), delay)
            } catch let error as RequestError {
                guard case .transport(_, let cause) = error, !error.isCancellation,
                      let delay = policy.delay(after: attempts, method: method, now: Date(), failing: .transport(cause))
                else { throw attempts > 1 ? Self.recording(attempts, in: error) : error }
                failed = (error, delay)
            }
            attempts += 1
            trace?.retrying(attempt: attempts, error: failed.error, delay: failed.delay) // observe: retry
            do {
                try await Task.sleep(nanoseconds: UInt64(min(failed.delay, 86_400) * 1_000_000_000))
            } catch {
                // Cancelled during the wait: the call ends at once.
                throw RequestError.transport(draft.request.urlRequest, error)
            }
        }
    }

    /// `error` with its cause wrapped in a ``RetriedError`` that records `attempts`.
    static func recording(_ attempts: Int, in error: RequestError) -> RequestError {
        switch error {
        case .transport(let request, let cause):
            .transport(request, RetriedError(attempts: attempts, lastError: cause))
        case .validate(let request, let data, let response, let cause):
            .validate(request, data: data, response: response, error: RetriedError(attempts: attempts, lastError: cause))
        default:
            error
        }
    }

    /// Steps 1 to 4: the request as it will be sent, and the renewable credential it carries.
    func prepare() async throws -> (draft: RequestDraft, credential: UsedCredential?) {
        var draft = try build()
        let built = draft.request.url
        try await modify(&draft, with: client.modifiers)
        var credential: UsedCredential?
        if !bypassAuth, let authentication = client.authentication,
           authenticatesAnyOrigin || hasBaseOrigin(draft.request.url, built: built) {
            do {
                credential = try await authentication.authenticate(&draft)
            } catch {
                throw RequestError.modify(draft.request.urlRequest, error)
            }
        }
        try await modify(&draft, with: modifiers)
        do {
            try FinishedRequestCheck.check(draft.request)
        } catch {
            throw RequestError.modify(draft.request.urlRequest, error)
        }
        return (draft, credential)
    }

    /// Step 3's rule: whether `url` has the base URL's origin, so that authentication may go there.
    private func hasBaseOrigin(_ url: URL?, built: URL?) -> Bool {
        // A path resolved against the base URL that no modifier moved has its origin: the
        // common case skips building two origins.
        if self.url == nil, url == built { return true }
        return url?.origin == client.baseUrl.origin
    }

    /// Step 1: the request before any modifier.
    private func build() throws -> RequestDraft {
        let url: URL
        do {
            url = try self.url.map(URLResolution.absolute) ?? client.resolutionBase.url(path: path)
        } catch {
            throw RequestError.modify(URLRequest(url: self.url ?? client.baseUrl), error)
        }
        var draft = RequestDraft(request: TransportRequest(url: url, method: method), jsonEncoder: jsonEncoder)
        switch encodedBody {
        case .success(let data):
            draft.request.setBody(data)
            draft.request.headerFields.set("application/json", for: HeaderField.contentType.rawValue)
        case .failure(let error):
            throw RequestError.modify(draft.request.urlRequest, error)
        case nil:
            break
        }
        return draft
    }

    /// Steps 2 to 4: runs `modifiers` in order; the first error stops the request.
    private func modify(_ draft: inout RequestDraft, with modifiers: [RequestModifier]) async throws {
        for modifier in modifiers {
            do {
                try await modifier.apply(&draft)
                // No modifier may run on a request without a URL: corelibs crashes on any change
                // to such a `URLRequest` (see `TransportRequest.urlRequest`).
                if draft.request.url == nil { try FinishedRequestCheck.check(draft.request) }
            } catch {
                throw RequestError.modify(draft.request.urlRequest, error)
            }
        }
    }

    /// Step 5: one exchange per hop, following redirects as the draft's policy says, then the
    /// body of the last response: in memory, or into the download's temporary file.
    private func send(_ draft: RequestDraft, into destination: BodyDestination, trace: RequestTrace?) async throws
        -> (Response<Data>, TransportRequest, ResponseBody?) {
        if case .file(let download) = destination { try create(download, for: draft.request) }
        var current = draft.request
        // The body's size is read (a file's from disk) only when someone follows the upload.
        let uploadSize = draft.uploadProgress == nil ? 0
            : current.httpBody.map { Int64($0.count) } ?? (try? current.body?.contentLength()) ?? 0
        let uploadProgress = draft.uploadProgress.map { ProgressReporter(total: uploadSize, handler: $0) }
        var hops = 0
        let middlewares = client.middlewares + self.middlewares
        while true {
            let exchange = try await Exchange.start(current, through: client.transport, middlewares: middlewares,
                                                    uploadProgress: uploadProgress, trace: trace)
            guard let next = try await redirect(after: exchange, policy: draft.redirectPolicy, hops: hops) else {
                // The server has answered: the body it took is all there is.
                uploadProgress?.finish(completed: uploadSize)
                let downloadProgress = draft.downloadProgress.map { ProgressReporter(total: exchange.expectedLength, handler: $0) }
                let (body, streamed) = try await body(of: exchange, destination: destination, limit: draft.maxResponseSize,
                                                      progress: downloadProgress)
                if streamed == nil { trace?.bodyReceived(body, file: destination.file) } // observe: bytes received
                return (Response(body: body, head: exchange.head), current, streamed)
            }
            await exchange.discard()
            hops += 1
            trace?.redirected(from: current.urlRequest, to: next, statusCode: exchange.head.statusCode) // observe: redirect
            // A streamed body goes along whenever the method is kept, as an in-memory one does.
            let keepsMethod = HttpMethod(next.httpMethod ?? HttpMethod.get.rawValue) == current.method
            current = TransportRequest(urlRequest: next, body: keepsMethod ? current.body : nil)
        }
    }

    /// The request to send after `exchange`, or `nil` when its response is the result.
    private func redirect(after exchange: Exchange, policy: RedirectPolicy, hops: Int) async throws -> URLRequest? {
        // The status first: the Foundation forms of the request and head are made only for a redirect.
        guard Redirect.statusCodes.contains(exchange.head.statusCode) else { return nil }
        let request = exchange.request.urlRequest
        guard let proposed = Redirect.proposedRequest(after: exchange.head.httpResponse, to: request)
        else { return nil }
        let redirect = Redirect(request: request, response: exchange.head.httpResponse, proposedRequest: proposed, count: hops + 1)
        let next: URLRequest?
        do {
            next = try await policy.decide(redirect)
        } catch {
            await exchange.discard()
            throw RequestError.transport(request, error)
        }
        guard next != nil else { return nil }
        guard hops < policy.maxRedirects else {
            await exchange.discard()
            throw RequestError.transport(request, URLError(.httpTooManyRedirects))
        }
        return next
    }

    /// The body of the final response as validators see it, and, for a stream, the caller's.
    ///
    /// In memory: everything received. A download writes the body to its file and keeps nothing
    /// for a 2xx, the error document otherwise. A stream keeps nothing for a 2xx and hands the
    /// body over unread; for another status it reads the error document first, and the
    /// caller's body holds it.
    private func body(of exchange: Exchange, destination: BodyDestination, limit: Int?,
                      progress: ProgressReporter?) async throws -> (Data, ResponseBody?) {
        switch destination {
        case .memory:
            return (try await collect(exchange, limit: limit, progress: progress), nil)
        case .file(let download):
            return (try await write(exchange, to: download, progress: progress), nil)
        case .caller:
            try check(exchange, against: limit)
            guard (200..<300).contains(exchange.response.statusCode) else {
                let document = try await exchange.collect(limit: Self.downloadErrorBodyLimit) ?? Data()
                return (document, ResponseBody(document))
            }
            return (Data(), StreamedBody(exchange, limit: limit, progress: progress).body)
        }
    }

    /// Writes the body to the download's temporary file; returns what its validators see.
    private func write(_ exchange: Exchange, to download: DownloadTarget, progress: ProgressReporter?) async throws -> Data {
        let file: FileHandle
        do {
            file = try FileHandle(forWritingTo: download.temporaryFile)
        } catch {
            await exchange.discard()
            throw RequestError.fatal(.download(exchange.request.urlRequest, destination: download.destination, error: error))
        }
        defer { try? file.close() }
        // A non-2xx body stays in memory too, up to the limit, for the validators.
        var errorBody: Data? = (200..<300).contains(exchange.response.statusCode) ? nil : Data()
        try await exchange.read(progress: progress) { chunk in
            try file.write(contentsOf: chunk)
            if let kept = errorBody?.count {
                if kept + chunk.count <= Self.downloadErrorBodyLimit { errorBody?.append(chunk) } else { errorBody = nil }
            }
            return true
        }
        return errorBody ?? Data()
    }

    /// The whole body in memory, within `limit` (see ``RequestModifier/maxResponseSize(_:)``).
    private func collect(_ exchange: Exchange, limit: Int?, progress: ProgressReporter?) async throws -> Data {
        guard let limit else { return try await exchange.collect(progress: progress) ?? Data() }
        try check(exchange, against: limit)
        guard let data = try await exchange.collect(limit: limit, progress: progress) else {
            throw RequestError.transport(exchange.request.urlRequest, ResponseTooLargeError(limit: limit))
        }
        return data
    }

    /// Fails, before a byte of the body is read, when its `Content-Length` is above `limit`.
    private func check(_ exchange: Exchange, against limit: Int?) throws {
        guard let limit,
              let declared = exchange.response.headerFields[HeaderField.contentLength.rawValue].flatMap({ Int64($0) }),
              declared > Int64(limit)
        else { return }
        exchange.abandon()
        throw RequestError.transport(exchange.request.urlRequest, ResponseTooLargeError(limit: limit, declaredLength: declared))
    }

    /// Step 6: every validator, the client's first; skipped on a mock unless it is told otherwise.
    private func validate(_ response: Response<Data>, of request: TransportRequest) async throws {
        if let transport = client.validatorsSwitch, !transport.appliesValidators { return }
        // Each list is already free of repeated ids (`append(replacingSameId:)`).
        let all = validators.contains(where: { $0.id != nil })
            ? ResponseValidator.replacingSameIds(client.validators + validators)
            : client.validators + validators
        for validator in all {
            do {
                try await validator.validate?(response)
            } catch {
                let explained = await ResponseValidator.explain(error, of: response, with: all, decoder: client.jsonDecoder)
                throw RequestError.validate(request.urlRequest, data: response.body, response: response.httpResponse, error: explained)
            }
        }
    }

    // MARK: Downloads

    /// The largest error document a download reads into memory for its validators; a larger
    /// one is not read at all, and validators see an empty body.
    static var downloadErrorBodyLimit: Int { 1 << 20 }

    /// Creates the temporary file next to the destination, so that the final move is a rename.
    private func create(_ download: DownloadTarget, for request: TransportRequest) throws {
        guard FileManager.default.createFile(atPath: download.temporaryFile.path, contents: nil) else {
            let error = CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: download.temporaryFile.path])
            throw RequestError.fatal(.download(request.urlRequest, destination: download.destination, error: error))
        }
    }
}

extension RequestBuilder.BodyDestination {
    /// The download's temporary file, for a download.
    var file: URL? {
        if case .file(let download) = self { download.temporaryFile } else { nil }
    }
}

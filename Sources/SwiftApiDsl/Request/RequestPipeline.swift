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
//   5. send      through the transport, following redirects per the `RedirectPolicy`
//   6. validate  the client's validators, then the request's; all of them run, except that a
//                validator with an `id` replaces an earlier one with the same `id`; a rejection
//                may be explained by `onRejection` validators (a decoded error body)
//   7. decode    in `perform()` (RequestBuilder+Perform.swift), or move the file for a download
// Every failure leaves here as a `RequestError` naming its stage.
// Observers hear of it through `trace` (RequestTrace.swift) at the points marked `// observe:`.

extension RequestBuilder {
    /// Where a download's body goes while the request runs, and where it ends.
    struct DownloadTarget {
        let destination: URL
        let temporaryFile: URL
    }

    /// Runs steps 1 to 6 and returns the validated response with the request that received it.
    /// For a download the body stays on disk; see ``downloadBody(of:response:)`` for what validators see.
    func execute(download: DownloadTarget? = nil, trace: RequestTrace?) async throws -> (Response<Data>, URLRequest) {
        let (draft, credential) = try await prepare()
        trace?.prepared(draft.transportRequest) // observe: prepared
        var (response, request) = try await send(draft, download: download, trace: trace)
        // 5½. A refused credential is renewed (once for all requests refused with it) and the
        //     request sent once more, from the start: a replay refused again is not renewed.
        if let credential, credential.isRefused(by: response) {
            do {
                try await credential.renew()
            } catch {
                throw RequestError.modify(request, error)
            }
            let refusal = ExpiredCredentialError(statusCode: response.statusCode)
            trace?.retrying(attempt: 2, error: .validate(request, data: response.body, response: response.httpResponse, error: refusal), delay: 0)
            (response, request) = try await send(try await prepare().draft, download: download, trace: trace)
        }
        try await validate(response, of: request)
        return (response, request)
    }

    /// Steps 1 to 4: the request as it will be sent, and the renewable credential it carries.
    func prepare() async throws -> (draft: RequestDraft, credential: UsedCredential?) {
        var draft = try build()
        let built = draft.urlRequest.url
        try await modify(&draft, with: client.modifiers)
        var credential: UsedCredential?
        if !bypassAuth, let authentication = client.authentication,
           authenticatesAnyOrigin || hasBaseOrigin(draft.urlRequest.url, built: built) {
            do {
                credential = try await authentication.authenticate(&draft)
            } catch {
                throw RequestError.modify(draft.urlRequest, error)
            }
        }
        try await modify(&draft, with: modifiers)
        do {
            try FinishedRequestCheck.check(draft.urlRequest)
        } catch {
            throw RequestError.modify(draft.urlRequest, error)
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
            url = try self.url.map(URLResolution.absolute) ?? URLResolution.url(base: client.baseUrl, path: path)
        } catch {
            throw RequestError.modify(URLRequest(url: self.url ?? client.baseUrl), error)
        }
        var request = URLRequest(url: url)
        request.httpMethod = method.rawValue
        var draft = RequestDraft(urlRequest: request, jsonEncoder: jsonEncoder)
        switch encodedBody {
        case .success(let data):
            draft.urlRequest.httpBody = data
            draft.urlRequest.setValue("application/json", forHTTPHeaderField: HeaderField.contentType.rawValue)
        case .failure(let error):
            throw RequestError.modify(draft.urlRequest, error)
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
            } catch {
                throw RequestError.modify(draft.urlRequest, error)
            }
        }
    }

    /// Step 5: one exchange per hop, following redirects as the draft's policy says.
    private func send(_ draft: RequestDraft, download: DownloadTarget?, trace: RequestTrace?) async throws -> (Response<Data>, URLRequest) {
        if let download { try create(download, for: draft.urlRequest) }
        var current = draft.transportRequest
        var hops = 0
        while true {
            trace?.sending(current) // observe: bytes sent
            let (body, httpResponse) = try await exchange(current, download: download)
            trace?.received(httpResponse, body: body, file: download?.temporaryFile, for: current.urlRequest) // observe: head, bytes received
            guard let proposed = Redirect.proposedRequest(after: httpResponse, to: current.urlRequest) else {
                return (Response(body: body, httpResponse: httpResponse), current.urlRequest)
            }
            let redirect = Redirect(request: current.urlRequest, response: httpResponse, proposedRequest: proposed, count: hops + 1)
            let next: URLRequest?
            do {
                next = try await draft.redirectPolicy.decide(redirect)
            } catch {
                throw RequestError.transport(current.urlRequest, error)
            }
            guard let next else { return (Response(body: body, httpResponse: httpResponse), current.urlRequest) }
            hops += 1
            guard hops <= draft.redirectPolicy.maxRedirects else {
                throw RequestError.transport(current.urlRequest, URLError(.httpTooManyRedirects))
            }
            trace?.redirected(from: current.urlRequest, to: next, statusCode: httpResponse.statusCode) // observe: redirect
            // A streamed body goes along whenever the method is kept, as an in-memory one does.
            let keepsMethod = next.httpMethod == current.urlRequest.httpMethod
            current = TransportRequest(urlRequest: next, body: keepsMethod ? current.body : nil)
        }
    }

    /// One exchange through the transport; its errors become `RequestError.transport`.
    private func exchange(_ request: TransportRequest, download: DownloadTarget?) async throws -> (Data, HTTPURLResponse) {
        do {
            guard let download else { return try await client.transport.data(for: request) }
            let response = try await client.transport.download(for: request, to: download.temporaryFile)
            return (downloadBody(of: download, response: response), response)
        } catch let error as RequestError {
            throw error
        } catch {
            throw RequestError.transport(request.urlRequest, error)
        }
    }

    /// Step 6: every validator, the client's first; skipped on a mock unless it is told otherwise.
    private func validate(_ response: Response<Data>, of request: URLRequest) async throws {
        if let transport = client.transport as? any ValidatorsSwitch, !transport.appliesValidators { return }
        // Each list is already free of repeated ids (`append(replacingSameId:)`).
        let all = validators.contains(where: { $0.id != nil })
            ? ResponseValidator.replacingSameIds(client.validators + validators)
            : client.validators + validators
        for validator in all {
            do {
                try await validator.validate?(response)
            } catch {
                let explained = await ResponseValidator.explain(error, of: response, with: all)
                throw RequestError.validate(request, data: response.body, response: response.httpResponse, error: explained)
            }
        }
    }

    // MARK: Downloads

    /// The largest error document a download reads into memory for its validators.
    static var downloadErrorBodyLimit: Int { 1 << 20 }

    /// The body a download's validators see: empty for a 2xx (the body is on disk), and the
    /// server's answer for any other status, up to 1 MiB, so an error document is not lost.
    private func downloadBody(of download: DownloadTarget, response: HTTPURLResponse) -> Data {
        guard !(200..<300).contains(response.statusCode),
              let size = try? download.temporaryFile.resourceValues(forKeys: [.fileSizeKey]).fileSize,
              size <= Self.downloadErrorBodyLimit
        else { return Data() }
        return (try? Data(contentsOf: download.temporaryFile)) ?? Data()
    }

    /// Creates the temporary file next to the destination, so that the final move is a rename.
    private func create(_ download: DownloadTarget, for request: URLRequest) throws {
        guard FileManager.default.createFile(atPath: download.temporaryFile.path, contents: nil) else {
            let error = CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: download.temporaryFile.path])
            throw RequestError.fatal(.download(request, destination: download.destination, error: error))
        }
    }
}

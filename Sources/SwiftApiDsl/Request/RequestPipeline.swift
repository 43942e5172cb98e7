import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The life of a request, in the order it happens:
//   1. build     the base request: URL from base + path, method, the `body:` given at the start
//   2. modify    the client's modifiers, in the order they were chained
//   3. authenticate  the client's authentication, unless `bypassAuth`
//   4. modify    the request's own modifiers, so a request overrides its client
//   5. send      through the transport, one exchange per hop (Exchange.swift), following
//                redirects per the `RedirectPolicy`; then read the body into memory or a file
//   6. validate  the client's validators, then the request's; all of them run
//   7. decode    in `perform()` (RequestBuilder+Perform.swift), or move the file for a download
// Every failure leaves here as a `RequestError` naming its stage.

extension RequestBuilder {
    /// Where a download's body goes while the request runs, and where it ends.
    struct DownloadTarget {
        let destination: URL
        let temporaryFile: URL
    }

    /// Runs steps 1 to 6 and returns the validated response with the request that received it.
    /// For a download the body stays on disk; see ``body(of:download:limit:)`` for what validators see.
    func execute(download: DownloadTarget? = nil) async throws -> (Response<Data>, URLRequest) {
        var draft = try build()
        try await modify(&draft, with: client.modifiers)
        if !bypassAuth, let authentication = client.authenticationModifier {
            try await modify(&draft, with: [authentication])
        }
        try await modify(&draft, with: modifiers)
        let (response, request) = try await send(draft, download: download)
        try await validate(response, of: request)
        return (response, request)
    }

    /// Step 1: the request before any modifier.
    private func build() throws -> RequestDraft {
        let url: URL
        do {
            url = try URLResolution.url(base: client.baseUrl, path: path)
        } catch {
            throw RequestError.modify(URLRequest(url: client.baseUrl), error)
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

    /// Step 5: one exchange per hop, following redirects as the draft's policy says, then the
    /// body of the last response: in memory, or into the download's temporary file.
    private func send(_ draft: RequestDraft, download: DownloadTarget?) async throws -> (Response<Data>, URLRequest) {
        if let download { try create(download, for: draft.urlRequest) }
        var current = draft.transportRequest
        var hops = 0
        while true {
            let exchange = try await Exchange.start(current, through: client.transport)
            let httpResponse = exchange.httpResponse
            guard let next = try await redirect(after: exchange, policy: draft.redirectPolicy, hops: hops) else {
                let body = try await body(of: exchange, download: download, limit: draft.maxResponseSize)
                return (Response(body: body, httpResponse: httpResponse), current.urlRequest)
            }
            await exchange.discard()
            hops += 1
            // A streamed body goes along whenever the method is kept, as an in-memory one does.
            let keepsMethod = next.httpMethod == current.urlRequest.httpMethod
            current = TransportRequest(urlRequest: next, body: keepsMethod ? current.body : nil)
        }
    }

    /// The request to send after `exchange`, or `nil` when its response is the result.
    private func redirect(after exchange: Exchange, policy: RedirectPolicy, hops: Int) async throws -> URLRequest? {
        let request = exchange.request.urlRequest
        guard let proposed = Redirect.proposedRequest(after: exchange.httpResponse, to: request) else { return nil }
        let redirect = Redirect(request: request, response: exchange.httpResponse, proposedRequest: proposed, count: hops + 1)
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

    /// The body of the final response, as validators see it: everything received, or, for a
    /// download, nothing for a 2xx and the error document otherwise (the file gets it too).
    private func body(of exchange: Exchange, download: DownloadTarget?, limit: Int?) async throws -> Data {
        guard let download else { return try await collect(exchange, limit: limit) }
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
        try await exchange.read { chunk in
            try file.write(contentsOf: chunk)
            if let kept = errorBody?.count {
                if kept + chunk.count <= Self.downloadErrorBodyLimit { errorBody?.append(chunk) } else { errorBody = nil }
            }
            return true
        }
        return errorBody ?? Data()
    }

    /// The whole body in memory, within `limit` (see ``RequestModifier/maxResponseSize(_:)``).
    private func collect(_ exchange: Exchange, limit: Int?) async throws -> Data {
        guard let limit else { return try await exchange.collect() ?? Data() }
        let request = exchange.request.urlRequest
        if let declared = exchange.response.headerFields[HeaderField.contentLength.rawValue].flatMap({ Int64($0) }),
           declared > Int64(limit) {
            exchange.abandon()
            throw RequestError.transport(request, ResponseTooLargeError(limit: limit, declaredLength: declared))
        }
        guard let data = try await exchange.collect(limit: limit) else {
            throw RequestError.transport(request, ResponseTooLargeError(limit: limit, declaredLength: nil))
        }
        return data
    }

    /// Step 6: every validator, the client's first; skipped on a mock unless it is told otherwise.
    private func validate(_ response: Response<Data>, of request: URLRequest) async throws {
        if let transport = client.transport as? any ValidatorsSwitch, !transport.appliesValidators { return }
        for validator in client.validators + validators {
            do {
                try await validator.validate(response)
            } catch {
                throw RequestError.validate(request, data: response.body, response: response.httpResponse, error: error)
            }
        }
    }

    // MARK: Downloads

    /// The largest error document a download reads into memory for its validators; a larger
    /// one is not read at all, and validators see an empty body.
    static var downloadErrorBodyLimit: Int { 1 << 20 }

    /// Creates the temporary file next to the destination, so that the final move is a rename.
    private func create(_ download: DownloadTarget, for request: URLRequest) throws {
        guard FileManager.default.createFile(atPath: download.temporaryFile.path, contents: nil) else {
            let error = CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: download.temporaryFile.path])
            throw RequestError.fatal(.download(request, destination: download.destination, error: error))
        }
    }
}

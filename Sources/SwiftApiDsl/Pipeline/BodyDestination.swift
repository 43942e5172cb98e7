import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where the body of a call's final response goes, and what its validators see of it.
///
/// In memory: everything received, within the call's `maxResponseSize`. A download writes the
/// body to its file (after the bytes already there, when it continues them: ``DownloadTarget``)
/// and keeps nothing for a 2xx, the error document otherwise (up to 1 MiB).
/// A stream keeps nothing for a 2xx and hands the body over unread; for another status it reads
/// the error document first when there are validators to see it, and the caller's body holds it.
enum BodyDestination {
    /// Into memory, for `perform()`.
    case memory
    /// Into the download's temporary file.
    case file(DownloadTarget)
    /// To the caller, as it arrives, for `stream()`.
    case caller

    /// Whether the body goes into memory whole (`perform()`).
    var isMemory: Bool {
        if case .memory = self { return true }
        return false
    }

    /// The largest error document a download or a stream reads into memory for its validators;
    /// a larger one is not kept, and validators see an empty body.
    static var errorDocumentLimit: Int { 1 << 20 }

    /// Reads `response`'s body as this destination wants it: the response its validators see
    /// and, for a stream, the caller's body still to read.
    /// `validated`: whether validators will judge the response; a stream reads an error
    /// document ahead only for them.
    func receive(_ response: TransportResponse, of request: TransportRequest, draft: RequestDraft,
                 validated: Bool, trace: RequestTrace?) async throws -> (Response<Data>, ResponseBody?) {
        let head = response.head(for: request.url)
        // A download follows its own progress, from the bytes already on disk (DownloadTarget).
        let makeProgress = { draft.downloadProgress.map { ProgressReporter(total: response.headerFields.expectedBodyLength, handler: $0) } }
        let limit = draft.maxResponseSize
        switch self {
        case .memory:
            try Self.check(response, of: request, against: limit)
            guard let body = try await Self.collect(response.body, limit: limit, progress: makeProgress()) else {
                throw RequestError.transport(request.urlRequest, ApiClientError.responseTooLarge(limit: limit ?? 0))
            }
            trace?.bodyReceived(body, file: nil) // observe: bytes received
            return (Response(body: body, head: head), nil)
        case .file(let download):
            let response = try await download.receive(response, of: request, draft: draft)
            trace?.bodyReceived(response.body, file: download.partialFile) // observe: bytes received
            return (response, nil)
        case .caller:
            try Self.check(response, of: request, against: limit)
            guard !validated || (200..<300).contains(response.statusCode) else {
                let document = try await Self.collect(response.body, limit: Self.errorDocumentLimit, progress: nil) ?? Data()
                return (Response(body: document, head: head), ResponseBody(document))
            }
            // Counted only when there is something to count for.
            let progress = makeProgress()
            // The size limit counts what was handed out, and progress follows the caller; past the
            // limit the exchange's body is let go, which closes the connection.
            var received = 0
            let body = limit == nil && progress == nil ? response.body : BodyTap(response.body, onChunk: { chunk in
                received += chunk.count
                if let limit, received > limit { throw RequestError.transport(request.urlRequest, ApiClientError.responseTooLarge(limit: limit)) }
                progress?.advance(by: chunk.count)
            }, onEnd: { if case .finished = $0 { progress?.finish() } }).body
            return (Response(body: Data(), head: head), body)
        }
    }


    /// The whole body in memory; `nil` past `limit` (the rest is dropped, which closes the connection).
    static func collect(_ body: ResponseBody, limit: Int?, progress: ProgressReporter?) async throws -> Data? {
        var data = Data()
        let complete = try await read(body) { chunk in
            if let limit, data.count + chunk.count > limit { return false }
            // A body of one chunk (most small answers) is that chunk, not a copy of it.
            if data.isEmpty { data = chunk } else { data.append(chunk) }
            progress?.advance(by: chunk.count)
            return true
        }
        guard complete else { return nil }
        progress?.finish()
        return data
    }

    /// Hands each chunk of `body` to `consume` until it returns `false` (the rest is dropped,
    /// which closes the connection); returns whether the body was read to its end. A body that
    /// comes straight from the exchange is read in one loop (``ExchangeBody/read(_:)``).
    static func read(_ body: ResponseBody, _ consume: (Data) throws -> Bool) async throws -> Bool {
        if let exchange = body.exchange { return try await exchange.read(consume) }
        if let data = body.data { return try data.isEmpty || consume(data) }
        for try await chunk in body {
            guard try consume(chunk) else { return false }
        }
        return true
    }

    /// Fails, before a byte of the body is read, when its `Content-Length` is above `limit`.
    private static func check(_ response: TransportResponse, of request: TransportRequest, against limit: Int?) throws {
        guard let limit,
              let declared = response.headerFields[HeaderField.contentLength.rawValue].flatMap({ Int64($0) }),
              declared > Int64(limit)
        else { return }
        throw RequestError.transport(request.urlRequest, ApiClientError.responseTooLarge(limit: limit, declaredLength: declared))
    }
}

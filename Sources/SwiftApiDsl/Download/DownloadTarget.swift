import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Why an attempt of a download stopped short of a file, when the download may go on.
enum DownloadInterruption: Error {
    /// The body was cut (or came out short) after bytes of it reached the file, which can be
    /// continued with `Range`, as `policy` (the call's ``RetryPolicy``) retries a failure of
    /// `method`; `error` is what the caller gets if it is not.
    case cut(RequestError, policy: RetryPolicy, method: HttpMethod)
    /// The server answered a `Range` with other bytes than those asked for: the file was
    /// emptied and the download starts again.
    case restart
    /// The body came faster than the file took it and the engine could not slow down
    /// (``ExchangeControl/readerFellBehind()``): the exchange was ended, what it had queued
    /// written, and the file goes on with `Range`.
    case paused
}

/// Where a download's body goes while the call runs, and what is known of the bytes already
/// there: which URL and representation they belong to, so that a body cut short is continued
/// rather than started again. `Download.swift` tells the order of events,
/// `DownloadResumption.swift` the rules for a response head.
final class DownloadTarget: Sendable {
    /// What is known of the partial file. A resumable download writes it beside the file as
    /// JSON, so that a later call, in another process too, can continue the file.
    struct Partial: Codable, Equatable {
        /// Which URL the bytes were asked from, as the modifiers left it (before any redirect):
        /// a hash of it (``urlHash(_:)``), so that a credential in its query never lands on disk.
        var url: String
        /// What `If-Range` sends: a strong entity tag or a `Last-Modified` date.
        var validator: String?
        /// The full length of the file, when the server announced it.
        var totalBytes: Int64?
    }

    private struct State {
        var partial: Partial?
        /// The bytes in the partial file that belong to `partial`.
        var offset: Int64 = 0
        /// The URL this attempt asks for, and the offset it asks `Range` from (`nil`: the whole file).
        var url: String?
        var askedOffset: Int64?
        /// The caller set a `Range` of its own, or the method is not GET: never resumed.
        var isResumable = true
        /// The error document that answered a resumed request: it replaces the partial file
        /// only if the validators accept it.
        var document: Data?
        /// The call's retry policy, which decides whether and when a cut body is continued.
        var retryPolicy: RetryPolicy = .never
        /// A `Range` was answered with the whole file: no more pauses, which could start it again for ever.
        var rangeIgnored = false
    }

    let destination: URL
    /// Hidden, in the destination's folder, so that the final move is a rename. A resumable
    /// download's is named after the destination alone, so that a later call finds it.
    let partialFile: URL
    /// Beside a resumable download's partial file: its ``Partial`` as JSON.
    let stateFile: URL?
    private let state: Locked<State>

    init(destination: URL, resumable: Bool) {
        self.destination = destination
        let folder = destination.deletingLastPathComponent()
        let name = destination.lastPathComponent
        guard resumable else {
            partialFile = folder.appendingPathComponent(".\(name).\(UUID().uuidString).download")
            stateFile = nil
            state = Locked(State())
            return
        }
        partialFile = folder.appendingPathComponent(".\(name).partial")
        let stateFile = folder.appendingPathComponent(".\(name).partial.json")
        self.stateFile = stateFile
        var state = State()
        // What an earlier call left; anything unreadable is a fresh start.
        if let data = try? Data(contentsOf: stateFile), let partial = try? JSONDecoder().decode(Partial.self, from: data),
           let size = try? partialFile.resourceValues(forKeys: [.fileSizeKey]).fileSize, size > 0 {
            state.partial = partial
            state.offset = Int64(size)
        }
        self.state = Locked(state)
    }

    /// The last modifier of every attempt: asks for the bytes after those on disk with `Range`
    /// and `If-Range`, when they belong to this URL and have a validator.
    var rangeModifier: RequestModifier {
        RequestModifier(editing: { [self] request in
            let url = request.url.map { Self.urlHash($0.absoluteString) }
            let resumable = request.method == .get && request.headerFields["Range"] == nil
            let asked: (offset: Int64, validator: String)? = state.withLock { state in
                state.url = url
                state.isResumable = resumable
                state.askedOffset = nil
                guard resumable, state.offset > 0, let partial = state.partial, partial.url == url,
                      let validator = partial.validator else { return nil }
                state.askedOffset = state.offset
                return (state.offset, validator)
            }
            guard let asked else { return }
            request.headerFields.set("bytes=\(asked.offset)-", for: "Range")
            request.headerFields.set(asked.validator, for: "If-Range")
        })
    }

    /// Creates the partial file before anything is sent (a folder that does not exist fails
    /// the download without a request), unless this attempt continues it.
    func open(for request: TransportRequest) throws {
        guard state.withLock({ $0.askedOffset == nil }) else { return }
        state.withLock { $0.offset = 0 }
        guard FileManager.default.createFile(atPath: partialFile.path, contents: nil) else {
            let error = CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: partialFile.path])
            throw RequestError.fatal(.download(request.urlRequest, destination: destination, error: error))
        }
    }

    /// Writes `response`'s body where it belongs, as ``DownloadResumption`` decides; returns
    /// what its validators see: nothing for a success, the error document otherwise (up to
    /// ``BodyDestination/errorDocumentLimit``).
    func receive(_ response: TransportResponse, of request: TransportRequest, draft: RequestDraft) async throws -> Response<Data> {
        let head = response.head(for: request.url)
        let (asked, expectedTotal, url, resumable) = state.withLock { state in
            state.retryPolicy = draft.retryPolicy
            return (state.askedOffset, state.partial?.totalBytes, state.url, state.isResumable)
        }
        let decision = DownloadResumption.of(statusCode: response.statusCode, headerFields: response.headerFields,
                                             askedFrom: asked, expectedTotal: expectedTotal)
        switch decision {
        case .mismatch:
            // The body is let go unread, which closes the connection.
            state.withLock { $0.partial = nil }
            removeStateFile()
            throw DownloadInterruption.restart
        case .document where asked != nil:
            let document = try await BodyDestination.collect(response.body, limit: BodyDestination.errorDocumentLimit, progress: nil) ?? Data()
            state.withLock { $0.document = document }
            return Response(body: document, head: head)
        case .document:
            state.withLock { $0.partial = nil }
            let body = try await write(response.body, from: 0, total: nil, isSuccess: false, of: request, progress: draft.downloadProgress)
            return Response(body: body, head: head)
        case .fresh(let total, let validator):
            let partial = Partial(url: url ?? "", validator: resumable ? validator : nil, totalBytes: total)
            let ignored = state.withLock { state in
                state.partial = partial
                if asked != nil { state.rangeIgnored = true }
                return state.rangeIgnored
            }
            saveStateFile()
            // Paced only by a server that says it serves ranges and has not ignored one, for a
            // file of known length (a pause may come with its last bytes).
            if partial.validator != nil, total != nil, !ignored, DownloadResumption.servesByteRanges(response.headerFields) {
                response.body.endWhenReaderFallsBehind()
            }
            _ = try await write(response.body, from: 0, total: total, isSuccess: true, of: request, progress: draft.downloadProgress)
        case .continuing(let total):
            state.withLock { $0.partial?.totalBytes = total }
            if total != nil { response.body.endWhenReaderFallsBehind() }
            _ = try await write(response.body, from: asked ?? 0, total: total, isSuccess: true, of: request, progress: draft.downloadProgress)
            // A `Content-Range` total of `*` leaves the file's own size as the length.
            let length = total ?? (try? partialFile.resourceValues(forKeys: [.fileSizeKey]).fileSize).map(Int64.init)
            return Response(body: Data(), head: Self.wholeFile(after: response, of: request, length: length))
        }
        return Response(body: Data(), head: head)
    }

    /// The head of the file a continued download wrote: the resource itself (`200`, the whole
    /// length, the `206`'s validators, which `If-Range` matched), not the last range of it.
    private static func wholeFile(after response: TransportResponse, of request: TransportRequest, length: Int64?) -> ResponseHead {
        var fields = response.headerFields
        fields.set(nil, for: "Content-Range")
        fields.set(length.map(String.init), for: HeaderField.contentLength.rawValue)
        return ResponseHead(statusCode: 200, headerFields: fields, httpVersion: response.httpVersion,
                            url: response.httpURLResponse?.url ?? request.url)
    }

    /// Writes `body` to the partial file after its first `offset` bytes, then checks the
    /// file's length against `total`; returns the error document of a failure status.
    private func write(_ body: ResponseBody, from offset: Int64, total: Int64?, isSuccess: Bool, of request: TransportRequest,
                       progress handler: ProgressHandler?) async throws -> Data {
        let file: FileHandle
        do {
            file = try FileHandle(forWritingTo: partialFile)
            try file.truncate(atOffset: UInt64(offset))
            try file.seek(toOffset: UInt64(offset))
        } catch {
            throw RequestError.fatal(.download(request.urlRequest, destination: destination, error: error))
        }
        defer { try? file.close() }
        // Progress counts from the bytes on disk, out of the whole file.
        let progress = handler.map { ProgressReporter(total: total, handler: $0) }
        if offset > 0 { progress?.advance(to: offset) }
        var received = offset
        var errorBody: Data? = isSuccess ? nil : Data()
        do {
            _ = try await BodyDestination.read(body) { chunk in
                do {
                    try file.write(contentsOf: chunk)
                } catch {
                    throw RequestError.fatal(.download(request.urlRequest, destination: destination, error: error))
                }
                received += Int64(chunk.count)
                // The error document the validators see, dropped once it outgrows its limit.
                if (errorBody?.count ?? 0) + chunk.count > BodyDestination.errorDocumentLimit { errorBody = nil }
                errorBody?.append(chunk)
                progress?.advance(by: chunk.count)
                return true
            }
        } catch {
            state.withLock { $0.offset = received }
            let interruption = interruption(error, of: request, canResume: isSuccess)
            // A pause that came with the last bytes: the file is whole.
            guard case .paused? = interruption as? DownloadInterruption, received == total else { throw interruption }
        }
        state.withLock { $0.offset = received }
        if isSuccess, let total, received != total {
            let mismatch = ApiClientError(.downloadLengthMismatch, message: "downloaded \(received) bytes where the server announced \(total)")
            let error = RequestError.transport(request.urlRequest, mismatch)
            guard received < total else {
                // Longer than the whole file: nothing on disk can be trusted.
                state.withLock { $0.partial = nil }
                throw error
            }
            throw interruption(error, of: request, canResume: true)
        }
        progress?.finish()
        return errorBody ?? Data()
    }

    /// What a failure while reading the body becomes: a cut that can be continued, when the
    /// bytes on disk have a validator and the failure is the connection's (not a cancellation,
    /// not the file's), else the failure itself.
    private func interruption(_ error: any Error, of request: TransportRequest, canResume: Bool) -> any Error {
        let failure = error as? RequestError ?? .transport(request.urlRequest, error)
        if case .transport(_, let error as ApiClientError) = failure, error.code == .readerFellBehind { return DownloadInterruption.paused }
        guard canResume, case .transport = failure, !failure.isCancellation,
              let policy = state.withLock({ $0.partial?.validator != nil ? $0.retryPolicy : nil })
        else { return failure }
        return DownloadInterruption.cut(failure, policy: policy, method: request.method)
    }

    /// Puts the finished file in place: the error document the validators accepted, if the
    /// response was one, then one rename, which replaces a file atomically and refuses to
    /// replace a directory.
    func moveIntoPlace(for request: TransportRequest) throws {
        if let document = state.withLock({ $0.document }) {
            do {
                try document.write(to: partialFile)
            } catch {
                throw RequestError.fatal(.download(request.urlRequest, destination: destination, error: error))
            }
        }
        guard rename(partialFile.path, destination.path) == 0 else {
            let error = POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            throw RequestError.fatal(.download(request.urlRequest, destination: destination, error: error))
        }
        removeStateFile()
    }

    /// After the call failed: a resumable download keeps bytes a later call can continue (with
    /// their state beside them); anything else is removed.
    func leaveAfterFailure() {
        if stateFile != nil, state.withLock({ $0.offset > 0 && $0.partial?.validator != nil }) {
            saveStateFile()
        } else {
            try? FileManager.default.removeItem(at: partialFile)
            removeStateFile()
        }
    }

    /// Writes the partial file's state beside it, for a resumable download whose bytes have a
    /// validator (atomically: a later call reads either the old state or the new one).
    private func saveStateFile() {
        // Without a state file (not resumable) there is nothing to write, nor to remove.
        guard let stateFile, let partial = state.withLock({ $0.partial }), partial.validator != nil,
              let data = try? JSONEncoder().encode(partial)
        else { return removeStateFile() }
        try? data.write(to: stateFile, options: .atomic)
    }

    /// 64-bit FNV-1a of `url`'s UTF-8, in hex: tells URLs apart (a collision would only send an
    /// `If-Range` that the server refuses), and cannot be read back into the URL.
    static func urlHash(_ url: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in url.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return String(hash, radix: 16)
    }

    private func removeStateFile() {
        if let stateFile { try? FileManager.default.removeItem(at: stateFile) }
    }
}

import Foundation

extension RequestBody {
    /// The exact number of bytes the body takes, files included (read from their sizes).
    /// Throws an ``ApiClientError`` (`.unreadableBodyFile`) when a file cannot be sent, and
    /// (`.streamedBodyUnreadable`) for a streamed body of unknown length.
    public func contentLength() throws -> Int64 {
        if case .stream(let streamed) = self {
            guard let length = streamed.length else { throw StreamedBody.unreadable("the length of a streamed body is unknown") }
            return length
        }
        return try segments.reduce(0) { total, segment in
            switch segment {
            case .data(let data): total + Int64(data.count)
            case .file(let url): total + (try BodyReader.size(of: url))
            case .streamed: total
            }
        }
    }

    /// A reader that hands out the body chunk by chunk; files are read from disk `chunkSize`
    /// bytes at a time and never held whole in memory. Transports use it to stream a body.
    public func makeReader(chunkSize: Int = 1 << 20) -> BodyReader {
        BodyReader(segments: segments, chunkSize: chunkSize)
    }

    /// The whole body in memory, files read in full. Meant for bodies known to be small.
    public func encodedData() throws -> Data {
        let reader = makeReader()
        var data = Data()
        while let chunk = try reader.next() { data.append(chunk) }
        return data
    }

    /// The body as a sequence of bytes in memory and files.
    var segments: [BodyReader.Segment] {
        switch self {
        case .file(let url): [.file(url)]
        case .multipart(let form): form.segments
        case .stream: [.streamed]
        }
    }
}

extension TransportRequest {
    /// A reader of the body exactly as every transport sends it: the ``httpBody``, or the file
    /// or multipart form in ``body`` (boundary, part headers and files included), files read
    /// `chunkSize` bytes at a time. For a middleware that signs or hashes the body; a request
    /// without a body gives a reader that ends at once. Each reader starts from the first byte,
    /// and reading does not use up the body the transport sends.
    ///
    /// ```swift
    /// let reader = request.makeBodyReader()
    /// while let chunk = try reader.next() { hasher.update(data: chunk) }   // e.g. CryptoKit's SHA256
    /// ```
    /// Files are read synchronously on the calling thread, as transports read them; `next()`
    /// throws an ``ApiClientError`` (`.unreadableBodyFile`) when a file cannot be read in full,
    /// and (`.streamedBodyUnreadable`) for a ``StreamedBody``, whose chunks arrive asynchronously.
    public func makeBodyReader(chunkSize: Int = 1 << 20) -> BodyReader {
        // `body` first, as every transport takes it when the public initialiser was given both.
        BodyReader(segments: body?.segments ?? httpBody.map { [.data($0)] } ?? [], chunkSize: chunkSize)
    }

    /// The whole body as every transport sends it, files read into memory; empty without a
    /// body. For bodies known to be small; stream larger ones with ``makeBodyReader(chunkSize:)``.
    /// Throws for a ``StreamedBody``, as the reader does.
    ///
    /// ```swift
    /// signed.headerFields.set(try sign(request.bodyData()), for: "X-Signature")
    /// ```
    public func bodyData() throws -> Data {
        try body?.encodedData() ?? httpBody ?? Data()
    }
}

/// Hands out the bytes of a request's body in chunks, reading files lazily; see
/// ``TransportRequest/makeBodyReader(chunkSize:)`` and ``RequestBody/makeReader(chunkSize:)``.
///
/// It reads files with `FileHandle`, never with `InputStream`, whose `streamError` traps on
/// Linux after a successful read. A file that has become shorter than its size when it was
/// opened fails with an ``ApiClientError`` (`.unreadableBodyFile`) rather than sending fewer bytes than announced.
public final class BodyReader {
    /// A piece of a body.
    enum Segment {
        case data(Data)
        case file(URL)
        /// A ``StreamedBody``: its chunks come asynchronously, never through a reader.
        case streamed
    }

    private var segments: ArraySlice<Segment>
    private let chunkSize: Int
    private var file: (handle: FileHandle, url: URL, remaining: Int64)?

    init(segments: [Segment], chunkSize: Int) {
        self.segments = segments[...]
        self.chunkSize = max(chunkSize, 1)
    }

    deinit { try? file?.handle.close() }

    /// The next chunk of the body, or `nil` at its end.
    public func next() throws -> Data? {
        while true {
            if let chunk = try readFileChunk() { return chunk }
            guard let segment = segments.popFirst() else { return nil }
            switch segment {
            case .data(let data) where !data.isEmpty:
                return data
            case .data:
                continue
            case .streamed:
                throw StreamedBody.unreadable("a streamed body cannot be read synchronously; its chunks come from StreamedBody.makeChunks()")
            case .file(let url):
                let size = try Self.size(of: url)
                do {
                    file = (try FileHandle(forReadingFrom: url), url, size)
                } catch {
                    throw ApiClientError.unreadableBodyFile(url, "cannot be opened (\(error.localizedDescription))")
                }
            }
        }
    }

    /// Reads the next chunk of the open file; `nil` when no file is open or it is done.
    private func readFileChunk() throws -> Data? {
        guard let current = file else { return nil }
        guard current.remaining > 0 else {
            try? current.handle.close()
            file = nil
            return nil
        }
        let wanted = Int(min(Int64(chunkSize), current.remaining))
        guard let chunk = try current.handle.read(upToCount: wanted), !chunk.isEmpty else {
            throw ApiClientError.unreadableBodyFile(current.url, "became shorter while it was being sent")
        }
        file?.remaining -= Int64(chunk.count)
        return chunk
    }

    /// The size of the regular, readable file at `url`.
    static func size(of url: URL) throws -> Int64 {
        let values: URLResourceValues
        do {
            values = try url.resourceValues(forKeys: [.fileSizeKey, .isRegularFileKey])
        } catch {
            throw ApiClientError.unreadableBodyFile(url, "cannot be read (\(error.localizedDescription))")
        }
        guard values.isRegularFile == true, let size = values.fileSize else {
            throw ApiClientError.unreadableBodyFile(url, "is not a regular file")
        }
        guard FileManager.default.isReadableFile(atPath: url.path) else {
            throw ApiClientError.unreadableBodyFile(url, "is not readable")
        }
        return Int64(size)
    }
}

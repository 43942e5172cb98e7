import Foundation

/// A multipart form failed to encode: a file is missing, unreadable or changed while it was sent.
public struct MultipartEncodingError: Error, Sendable, CustomStringConvertible {
    /// The file at fault.
    public let fileURL: URL
    /// What went wrong.
    public let reason: String

    public var description: String { "multipart file \(fileURL.path): \(reason)" }
}

extension MultipartFormData {
    /// The exact number of bytes the encoded form takes, files included (read from their sizes).
    public func contentLength() throws -> Int64 {
        try parts.reduce(Int64(closingLine.count)) { total, part in
            total + Int64(header(for: part).count) + (try part.contentLength()) + 2
        }
    }

    /// Checks that every file part names a readable regular file.
    func checkFiles() throws {
        for part in parts { _ = try part.contentLength() }
    }

    /// The whole encoded form in memory. Meant for forms that are ``isInMemory``.
    public func encodedData() throws -> Data {
        let reader = makeReader()
        var data = Data()
        while let chunk = try reader.next() { data.append(chunk) }
        return data
    }

    /// A reader that hands out the encoded form chunk by chunk; file parts are read from disk
    /// `chunkSize` bytes at a time and never held whole in memory.
    public func makeReader(chunkSize: Int = 1 << 20) -> MultipartBodyReader {
        MultipartBodyReader(form: self, chunkSize: chunkSize)
    }

    /// Writes the encoded form to a new file at `url`, streaming file parts through a small
    /// buffer. It stops with `CancellationError` as soon as `isCancelled` says so.
    func write(to url: URL, isCancelled: () -> Bool = { false }) throws {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        let reader = makeReader()
        while let chunk = try reader.next() {
            if isCancelled() { throw CancellationError() }
            try handle.write(contentsOf: chunk)
        }
    }

    /// The lines that open a part: its boundary, `Content-Disposition` and `Content-Type`.
    func header(for part: MultipartPart) -> Data {
        var lines = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(Self.escape(part.name))\""
        if let filename = part.filename { lines += "; filename=\"\(Self.escape(filename))\"" }
        lines += "\r\n"
        if let mimeType = part.mimeType { lines += "Content-Type: \(mimeType)\r\n" }
        return Data((lines + "\r\n").utf8)
    }

    /// The line that closes the form.
    var closingLine: Data { Data("--\(boundary)--\r\n".utf8) }

    /// Escapes a name or filename as RFC 7578 (section 2) and the HTML form encoding say:
    /// the text stays UTF-8, and only `"`, CR and LF are percent-encoded.
    static func escape(_ value: String) -> String {
        value
            .replacingOccurrences(of: "\"", with: "%22")
            .replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }
}

extension MultipartPart {
    /// The size of the part's content; for a file, read from the file system.
    func contentLength() throws -> Int64 {
        switch content {
        case .data(let data):
            return Int64(data.count)
        case .file(let url):
            let values: URLResourceValues
            do {
                values = try url.resourceValues(forKeys: [.fileSizeKey, .isRegularFileKey])
            } catch {
                throw MultipartEncodingError(fileURL: url, reason: "cannot be read (\(error.localizedDescription))")
            }
            guard values.isRegularFile == true, let size = values.fileSize else {
                throw MultipartEncodingError(fileURL: url, reason: "is not a regular file")
            }
            guard FileManager.default.isReadableFile(atPath: url.path) else {
                throw MultipartEncodingError(fileURL: url, reason: "is not readable")
            }
            return Int64(size)
        }
    }
}

/// Hands out the bytes of an encoded ``MultipartFormData`` in chunks, reading files lazily.
///
/// Transports use it to stream a form. It reads files with `FileHandle`, never with
/// `InputStream`, whose `streamError` traps on Linux after a successful read.
public final class MultipartBodyReader {
    private let form: MultipartFormData
    private let chunkSize: Int
    private var pending: [Data] = []
    private var partIndex = 0
    private var file: (handle: FileHandle, url: URL, remaining: Int64)?
    private var finished = false

    init(form: MultipartFormData, chunkSize: Int) {
        self.form = form
        self.chunkSize = max(chunkSize, 1)
    }

    deinit { try? file?.handle.close() }

    /// The next chunk of the encoded form, or `nil` at its end.
    public func next() throws -> Data? {
        while true {
            if !pending.isEmpty { return pending.removeFirst() }
            if let chunk = try readFileChunk() { return chunk }
            if finished { return nil }
            try advance()
        }
    }

    /// Queues the next part's header and content, or the closing line after the last part.
    private func advance() throws {
        guard partIndex < form.parts.count else {
            pending.append(form.closingLine)
            finished = true
            return
        }
        let part = form.parts[partIndex]
        partIndex += 1
        pending.append(form.header(for: part))
        switch part.content {
        case .data(let data):
            pending.append(data)
            pending.append(Data("\r\n".utf8))
        case .file(let url):
            let size = try part.contentLength()
            do {
                file = (try FileHandle(forReadingFrom: url), url, size)
            } catch {
                throw MultipartEncodingError(fileURL: url, reason: "cannot be opened (\(error.localizedDescription))")
            }
        }
    }

    /// Reads the next chunk of the open file part; at its end queues the part's closing CRLF.
    private func readFileChunk() throws -> Data? {
        guard let current = file else { return nil }
        guard current.remaining > 0 else {
            try? current.handle.close()
            file = nil
            pending.append(Data("\r\n".utf8))
            return nil
        }
        let wanted = Int(min(Int64(chunkSize), current.remaining))
        guard let chunk = try current.handle.read(upToCount: wanted), !chunk.isEmpty else {
            throw MultipartEncodingError(fileURL: current.url, reason: "became shorter while it was being sent")
        }
        file?.remaining -= Int64(chunk.count)
        return chunk
    }
}

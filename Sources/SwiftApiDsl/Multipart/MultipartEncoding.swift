import Foundation

extension MultipartFormData {
    /// Writes the encoded form to a new file at `url`, streaming file parts through a small
    /// buffer. It stops with `CancellationError` as soon as `isCancelled` says so.
    func write(to url: URL, isCancelled: () -> Bool = { false }) throws {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        let reader = RequestBody.multipart(self).makeReader()
        while let chunk = try reader.next() {
            if isCancelled() { throw CancellationError() }
            try handle.write(contentsOf: chunk)
        }
    }

    /// The encoded form as pieces: for each part its header lines, its content and a line
    /// break, then the closing line.
    var segments: [BodyReader.Segment] {
        parts.flatMap { part -> [BodyReader.Segment] in
            let content: BodyReader.Segment = switch part.content {
            case .data(let data): .data(data)
            case .file(let url): .file(url)
            }
            return [.data(header(for: part)), content, .data(Data("\r\n".utf8))]
        } + [.data(Data("--\(boundary)--\r\n".utf8))]
    }

    /// The lines that open a part: its boundary, `Content-Disposition` and `Content-Type`.
    private func header(for part: MultipartPart) -> Data {
        var lines = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(Self.escape(part.name))\""
        if let filename = part.filename { lines += "; filename=\"\(Self.escape(filename))\"" }
        lines += "\r\n"
        if let mimeType = part.mimeType { lines += "Content-Type: \(mimeType)\r\n" }
        return Data((lines + "\r\n").utf8)
    }

    /// Escapes a name or filename as RFC 7578 (section 2) and the HTML form encoding say:
    /// the text stays UTF-8, and only `"`, CR and LF are percent-encoded.
    /// Scalar by scalar: `replacingOccurrences` compares characters, and a `"` followed by a
    /// combining mark (`"\u{301}`) is one character that it would leave unescaped.
    static func escape(_ value: String) -> String {
        var escaped = String.UnicodeScalarView()
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": escaped.append(contentsOf: "%22".unicodeScalars)
            case "\r": escaped.append(contentsOf: "%0D".unicodeScalars)
            case "\n": escaped.append(contentsOf: "%0A".unicodeScalars)
            default: escaped.append(scalar)
            }
        }
        return String(escaped)
    }
}

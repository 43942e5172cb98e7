import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension TransportRequest {
    /// The request as a `curl` command line, for bug reports and logs, with secrets redacted.
    ///
    /// ```swift
    /// print(TransportRequest(urlRequest: urlRequest).curlDescription)
    /// // curl -X POST 'https://api.example.com/v1/todos' -H 'Authorization: <redacted>' -H 'Content-Type: application/json' --data-binary '{"title":"Buy milk"}'
    /// ```
    /// - Every argument but a plain method name is single-quoted for a POSIX shell (a `'` inside becomes `'\''`), so the line
    ///   can be pasted as it is. Headers are sorted by name.
    /// - Values of secret headers and query items (see ``HeaderField/isRedacted``) and a URL's
    ///   password become `<redacted>`; so do the values of secret fields in a JSON body (which is
    ///   then shown re-serialised with sorted keys), a form-urlencoded body and a multipart form.
    /// - An in-memory body is shown as text when it is UTF-8; a binary one as `--data-binary @-`
    ///   (read from standard input) with a comment giving its size.
    /// - A file body (``RequestBody/file(_:)``) is `--data-binary @'path'`. A multipart form
    ///   (``RequestBody/multipart(_:)``) is one `--form-string` per text field and one `-F` per file;
    ///   the form's `Content-Type` and `Content-Length` headers are left out, because curl writes its
    ///   own boundary. A field whose bytes are in memory is shown as a file named after its filename
    ///   (or `data.bin`), which you provide when you run the command.
    /// - Headers that the engine adds itself (`User-Agent`, `Accept-Encoding`, cookies from the
    ///   cookie store) are not in the request, so not in the command.
    public var curlDescription: String {
        let method = method.rawValue
        let plainMethod = !method.isEmpty && method.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
        var words = ["curl", "-X", plainMethod ? method : Self.quoted(method), Self.quoted(url.map(Redaction.url) ?? "<no URL>")]
        let boundaryFields: Set<String> = if case .multipart = body { ["content-type", "content-length"] } else { [] }
        for (name, value) in Redaction.headers(headerFields.merged).sorted(by: { $0.key.lowercased() < $1.key.lowercased() })
        where !boundaryFields.contains(name.lowercased()) {
            words += ["-H", Self.quoted("\(name): \(value)")]
        }
        return (words + bodyWords).joined(separator: " ")
    }

    private var bodyWords: [String] {
        switch body {
        case .file(let url):
            return ["--data-binary", "@" + Self.quoted(url.path)]
        case .multipart(let form):
            return form.parts.flatMap(Self.formWords)
        case .stream(let streamed):
            return ["--data-binary", "@-", "# a streamed body of \(streamed.length.map { "\($0) bytes" } ?? "unknown length"), to give on standard input"]
        case nil:
            guard let data = httpBody else { return [] }
            guard let text = String(data: data, encoding: .utf8) else {
                return ["--data-binary", "@-", "# \(data.count) bytes of binary data, to give on standard input"]
            }
            return ["--data-binary", Self.quoted(Redaction.body(text, contentType: headerFields["Content-Type"]))]
        }
    }

    /// `--form-string 'name=value'` for a text field, `-F 'name=@"file";filename="…";type=…'` for a file.
    private static func formWords(_ part: MultipartPart) -> [String] {
        if part.filename == nil, part.mimeType == nil, case .data(let data) = part.content, let text = String(data: data, encoding: .utf8) {
            return ["--form-string", quoted("\(part.name)=\(SecretNames.contains(part.name) ? Redaction.placeholder : text)")]
        }
        var spec = "\(part.name)=@"
        switch part.content {
        case .file(let url):
            spec += formQuoted(url.path)
            if let filename = part.filename, filename != url.lastPathComponent { spec += ";filename=" + formQuoted(filename) }
        case .data:
            spec += formQuoted(part.filename ?? "data.bin")
        }
        if let mimeType = part.mimeType { spec += ";type=\(mimeType)" }
        return ["-F", quoted(spec)]
    }

    /// `text` single-quoted for a POSIX shell.
    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    /// A file name double-quoted as curl's `-F` reads it, so that `;` and `,` stay in the name.
    private static func formQuoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}

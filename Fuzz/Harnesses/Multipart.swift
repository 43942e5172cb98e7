/// Fuzzes the multipart encoder (Sources/SwiftApiDsl/Multipart) by reading its output back
/// with an independent `multipart/form-data` parser written here (RFC 7578, RFC 2046 section
/// 5.1, with names escaped as the HTML standard does).
///
/// Properties: for fields the input chooses (text and data fields, any names, file names and
/// bytes, content types without control characters), the parsed form has the same fields in
/// the same order, with the same names, file names, content types and bytes; a quoted name or
/// file name never holds a `"`, CR or LF; `contentLength()` is the encoded size, and the
/// chunked reader gives the same bytes at any chunk size.
@testable import SwiftApiDsl
import Foundation

let multipartHarness: Harness = { input in
    let boundary = "SwiftApiDslFuzzBoundary"
    var parts: [MultipartPart] = []
    for _ in 0..<input.int(in: 0...4) {
        let name = input.string()
        if input.bool() {
            parts.append(TextField(name: name, value: input.string()))
        } else {
            let filename: String? = input.bool() ? input.string() : nil
            let mimeType = input.bool() ? "application/octet-stream" : input.string().filter { !$0.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F } }
            parts.append(DataField(name: name, filename: filename, data: Data(input.data()), mimeType: mimeType))
        }
    }
    // The boundary must not occur in the content: the random default makes that certain.
    let delimiter = Array("\r\n--\(boundary)".utf8)
    for case .data(let content) in parts.map(\.content) {
        let probe = Array("\r\n".utf8) + Array(content) + delimiter
        if firstRange(of: delimiter, in: probe[...]).map({ $0.lowerBound }) != content.count + 2 { return }
    }

    let form = MultipartFormData(boundary: boundary, parts: parts)
    guard let encoded = try? RequestBody.multipart(form).encodedData() else { return require(false, "an in-memory form did not encode") }
    require((try? RequestBody.multipart(form).contentLength()) == Int64(encoded.count), "contentLength \(String(describing: try? RequestBody.multipart(form).contentLength())) for \(encoded.count) bytes")
    let reader = RequestBody.multipart(form).makeReader(chunkSize: input.int(in: 1...64))
    var chunked = Data()
    while let chunk = try? reader.next() { chunked.append(chunk) }
    require(chunked == encoded, "the chunked reader gave other bytes")

    guard let parsed = parse(Array(encoded), boundary: boundary) else {
        return require(false, "the encoded form does not parse: \(String(decoding: encoded, as: UTF8.self).debugDescription)")
    }
    require(parsed.count == parts.count, "\(parsed.count) parts parsed, \(parts.count) encoded")
    for (part, read) in zip(parts, parsed) {
        for raw in [read.name, read.filename].compactMap({ $0 }) {
            require(!raw.unicodeScalars.contains { $0 == "\"" || $0 == "\r" || $0 == "\n" }, "a quoted value holds a quote or line break: \(raw.debugDescription)")
        }
        // A literal `%22`, `%0D` or `%0A` in a name reads back as the character: the HTML standard's escape is not reversible there.
        if !part.name.contains("%") { require(unescaped(read.name) == part.name, "name \(read.name.debugDescription) for \(part.name.debugDescription)") }
        if !(part.filename ?? "").contains("%") {
            require(read.filename.map(unescaped) == part.filename, "filename \(read.filename ?? "nil") for \(part.filename ?? "nil")")
        }
        require(read.contentType == part.mimeType, "content type \(read.contentType ?? "nil") for \(part.mimeType ?? "nil")")
        require(.data(Data(read.content)) == part.content, "other bytes in part \(part.name.debugDescription)")
    }
}

/// One part as read back: the raw quoted `name` and `filename`, the `Content-Type`, the bytes.
private struct ParsedPart {
    var name = ""
    var filename: String?
    var contentType: String?
    var content: [UInt8] = []
}

/// The parts of a `multipart/form-data` body, or `nil` when it is not well formed.
private func parse(_ body: [UInt8], boundary: String) -> [ParsedPart]? {
    let opening = Array("--\(boundary)".utf8)
    let delimiter = Array("\r\n--\(boundary)".utf8)
    let crlf = Array("\r\n".utf8)
    guard body.starts(with: opening) else { return nil }
    var rest = body[opening.count...]
    var parts: [ParsedPart] = []
    while true {
        if rest.elementsEqual(Array("--\r\n".utf8)) { return parts }
        guard rest.starts(with: crlf) else { return nil }
        rest = rest.dropFirst(2)
        guard let headerEnd = firstRange(of: crlf + crlf, in: rest),
              let next = firstRange(of: delimiter, in: rest[headerEnd.upperBound...])
        else { return nil }
        var part = ParsedPart(content: Array(rest[headerEnd.upperBound..<next.lowerBound]))
        var headers = rest[..<headerEnd.lowerBound]
        while !headers.isEmpty {
            let end = firstRange(of: crlf, in: headers) ?? headers.endIndex..<headers.endIndex
            let line = headers[..<end.lowerBound]
            headers = headers[end.upperBound...]
            // `Name: value`, as the encoder writes it: one space after the colon.
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), line[colon...].starts(with: Array(": ".utf8)) else { return nil }
            let value = line[(colon + 2)...]
            switch asciiLowercased(String(decoding: line[..<colon], as: UTF8.self)) {
            case "content-disposition":
                let prefix = Array("form-data".utf8)
                guard value.starts(with: prefix), let parameters = dispositionParameters(value.dropFirst(prefix.count)),
                      let name = parameters["name"] else { return nil }
                part.name = name
                part.filename = parameters["filename"]
            case "content-type":
                part.contentType = String(decoding: value, as: UTF8.self)
            default:
                return nil
            }
        }
        parts.append(part)
        rest = rest[next.upperBound...]
    }
}

/// The `; key="value"` parameters of a `Content-Disposition`, values kept as quoted (a quoted
/// value ends at the next `"`: names are escaped, never backslash-quoted, as browsers do).
private func dispositionParameters(_ text: ArraySlice<UInt8>) -> [String: String]? {
    var parameters: [String: String] = [:]
    var rest = text
    while !rest.isEmpty {
        guard rest.starts(with: Array("; ".utf8)), let equals = rest.firstIndex(of: UInt8(ascii: "=")) else { return nil }
        let key = String(decoding: rest[(rest.startIndex + 2)..<equals], as: UTF8.self)
        rest = rest[(equals + 1)...]
        guard rest.first == UInt8(ascii: "\""), let close = rest.dropFirst().firstIndex(of: UInt8(ascii: "\"")) else { return nil }
        parameters[key] = String(decoding: rest[(rest.startIndex + 1)..<close], as: UTF8.self)
        rest = rest[(close + 1)...]
    }
    return parameters
}

/// `text` with the three escapes undone, scalar by scalar (`%22\u{32E}` holds `%22`, though its
/// last `2` and the mark are one character).
private func unescaped(_ text: String) -> String {
    var scalars = Array(text.unicodeScalars)[...]
    var result = String.UnicodeScalarView()
    while let scalar = scalars.popFirst() {
        let replacement: Unicode.Scalar? = switch String(String.UnicodeScalarView([scalar] + scalars.prefix(2))) {
        case "%22": "\""
        case "%0D": "\r"
        case "%0A": "\n"
        default: nil
        }
        if let replacement {
            result.append(replacement)
            scalars = scalars.dropFirst(2)
        } else {
            result.append(scalar)
        }
    }
    return String(result)
}

/// The first place `pattern` occurs in `bytes`.
private func firstRange(of pattern: [UInt8], in bytes: ArraySlice<UInt8>) -> Range<Int>? {
    guard pattern.count <= bytes.count else { return nil }
    var start = bytes.startIndex
    while start + pattern.count <= bytes.endIndex {
        if bytes[start..<start + pattern.count].elementsEqual(pattern) { return start..<start + pattern.count }
        start += 1
    }
    return nil
}

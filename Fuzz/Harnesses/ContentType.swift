/// Fuzzes content-type matching (Sources/SwiftApiDsl/Validators/ContentTypeValidator.swift)
/// through the public validator, with any accepted types and any `Content-Type` header.
///
/// Properties: the verdict is a reference comparison's (the characters before `;`, trimmed of
/// spaces and tabs, cut at the first `/`; `*` a wildcard; ASCII case ignored, bytes compared); changing the header's
/// ASCII case or adding a parameter never changes it; `*/*` accepts every header; a response
/// without `Content-Type` passes only with an empty body.
@testable import SwiftApiDsl
import Foundation

let contentTypeHarness: Harness = { input in
    let patterns = (0..<input.int(in: 1...3)).map { _ in input.string() }
    let header = String(decoding: input.rest(), as: UTF8.self)

    let expected = patterns.contains { referenceMatch(pattern: $0, header: header) }
    require(accepts(patterns, header: header) == expected, "\(patterns) on \(header.debugDescription): expected \(expected)")
    require(accepts(patterns, header: header.uppercased()) == expected || !header.allSatisfy(\.isASCII), "the header's case changed the verdict")
    if header.allSatisfy(\.isASCII), !header.contains(";") {
        require(accepts(patterns, header: header + "; charset=utf-8") == expected, "a parameter changed the verdict")
    }
    require(accepts(["*/*"], header: header), "*/* refused \(header.debugDescription)")
    require(accepts(patterns, header: nil, body: Data()), "no Content-Type and no body was refused")
    require(!accepts(patterns, header: nil), "no Content-Type with a body was accepted")
}

/// Whether the validator for `patterns` lets a 200 response with `header` and `body` through.
private func accepts(_ patterns: [String], header: String?, body: Data = Data("{}".utf8)) -> Bool {
    let fields: HeaderFields = header.map { ["Content-Type": $0] } ?? [:]
    let head = ResponseHead(statusCode: 200, headerFields: fields, httpVersion: "HTTP/1.1", url: URL(string: "https://example.com/"))
    let response = Response(body: body, head: head)
    let validator = ResponseValidator.acceptableContentTypes(patterns)
    let result = runBlocking { try await validator.validate?(response) }
    switch result {
    case .success: return true
    case .failure(let error):
        require((error as? ApiClientError)?.code == .unacceptableContentType, "unexpected error \(error)")
        return false
    }
}

private func referenceMatch(pattern: String, header: String) -> Bool {
    let (patternType, patternSubtype) = essence(pattern)
    let (type, subtype) = essence(header)
    let wildcard = Array("*".utf8)
    return (patternType == wildcard || patternType == type) && (patternSubtype == wildcard || patternSubtype == subtype)
}

/// The type and subtype of a media type, parameters dropped, ASCII-lowercased, as UTF-8 bytes
/// (compared byte for byte: `é` and `e` with a combining accent are different types).
private func essence(_ text: String) -> ([UInt8], [UInt8]) {
    var characters = Array(text.prefix { $0 != ";" })
    while let first = characters.first, first == " " || first == "\t" { characters.removeFirst() }
    while let last = characters.last, last == " " || last == "\t" { characters.removeLast() }
    let slash = characters.firstIndex(of: "/")
    let type = String(characters[..<(slash ?? characters.endIndex)])
    let subtype = slash.map { String(characters[($0 + 1)...]) } ?? ""
    return (Array(asciiLowercased(type).utf8), Array(asciiLowercased(subtype).utf8))
}

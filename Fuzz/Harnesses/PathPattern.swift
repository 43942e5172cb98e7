/// Fuzzes the mock's path patterns (Sources/SwiftApiDslMock/PathPattern.swift) and the relative
/// path they are matched against (BasePath.swift).
///
/// Properties: a URL made of the base URL and segments the input chooses (any text,
/// percent-encoded by the library) gives back exactly those segments, its query and fragment
/// ignored; a pattern written for them (encoded literals, `:name` parameters, `*`, a last `**`)
/// matches them with exactly the parameters the segments give, with or without a leading slash,
/// and stops matching when a literal segment changes or a segment is added without `**`.
@testable import SwiftApiDsl
@testable import SwiftApiDslMock
import Foundation

let pathPatternHarness: Harness = { input in
    let base = input.pick(["https://api.example.com/v1", "https://api.example.com/v1/", "http://127.0.0.1:8080", "https://h/a%20b/"])
    var pattern: [String] = []
    var segments: [String] = []
    var parameters: [String: String] = [:]
    var literals: [Int] = []
    var endsWithRest = false
    for index in 0..<input.int(in: 0...5) {
        let text = input.string()
        switch input.int(in: 0...3) {
        case 0:
            guard !text.isEmpty else { continue }
            literals.append(segments.count)
            pattern.append(encodedFully(text))
            segments.append(text)
        case 1:
            let name = input.string()
            // A name opening with a combining mark would join the colon into one character:
            // patterns are the developer's text, read as characters.
            guard !text.isEmpty, !name.isEmpty, !name.contains("/"), (":" + name).hasPrefix(":") else { continue }
            pattern.append(":" + name)
            segments.append(text)
            parameters[name] = text
        case 2:
            guard !text.isEmpty else { continue }
            pattern.append("*")
            segments.append(text)
        default:
            guard index == 4 else { continue }
            pattern.append("**")
            segments += (0..<input.int(in: 0...3)).map { _ in input.string() }
            endsWithRest = true
        }
    }
    // The base URL itself has no segments: a lone empty segment is the same URL.
    if segments == [""] { segments = [] }

    let encodedPath = segments.map(PercentEncoding.pathSegment).joined(separator: "/")
    let url = URL(string: base.trimmingSuffix("/") + (segments.isEmpty ? "" : "/" + encodedPath) + "?q=1&r=%2F#part")!
    let read = BasePath(URL(string: base)!).segments(of: url)
    require(read == segments, "\(url.absoluteString) under \(base) gives \(read), expected \(segments)")

    let written = pattern.joined(separator: "/")
    for spelling in [written, "/" + written] {
        let matched = PathPattern(spelling).match(segments)
        require(matched == parameters, "\(spelling.debugDescription) on \(segments) gave \(String(describing: matched)), expected \(parameters)")
    }
    if let literal = literals.first {
        var changed = segments
        changed[literal] += "x"
        require(PathPattern(written).match(changed) == nil, "\(written.debugDescription) matched \(changed)")
    }
    if !endsWithRest {
        require(PathPattern(written).match(segments + ["extra"]) == nil, "\(written.debugDescription) matched an extra segment")
    }
}

/// Every byte but ASCII letters and digits as `%XX`: a literal that cannot be read as `*` or `:name`.
private func encodedFully(_ text: String) -> String {
    text.utf8.map { byte in
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
            ? String(UnicodeScalar(byte)) : "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
    }.joined()
}

private extension String {
    func trimmingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}

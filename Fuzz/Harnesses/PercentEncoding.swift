/// Fuzzes percent-encoding (Sources/SwiftApiDsl/Request/URLResolution.swift) and query
/// building (Modifiers/QueryModifiers.swift) with any names and values.
///
/// Properties: an encoded path segment or query component holds only the characters its set
/// keeps and `%XX` with uppercase hex digits, and decodes back to the input; a whole path is
/// encoded as its `/`-separated segments are, one by one; a query or form
/// has one `&`-separated item per input item, each decoding back to its name and value (`+` as
/// space in a form); the `queryItems` modifier keeps the URL's own query in front of the new
/// items, or fails with ``ApiClientError`` (code `.unresolvableURL`).
@testable import SwiftApiDsl
import Foundation

let percentEncodingHarness: Harness = { input in
    var items: [URLQueryItem] = []
    while !input.isAtEnd {
        items.append(URLQueryItem(name: input.string(), value: input.bool() ? input.string() : nil))
    }

    for text in items.flatMap({ [$0.name] + ($0.value.map { [$0] } ?? []) }) {
        let segment = PercentEncoding.pathSegment(text)
        require(isEncoded(segment, keeping: "-._~!$'()*,;:@"), "path segment \(segment) of \(text.debugDescription)")
        require(percentDecoded(segment) == text, "path segment \(segment) does not decode to \(text.debugDescription)")
        // Segments are what lies between `/` scalars, a `/` before a combining mark included
        // (splitting the `String` would not split there: `/` and the mark are one character).
        let segmentwise = text.unicodeScalars.split(separator: "/", omittingEmptySubsequences: false)
            .map { PercentEncoding.pathSegment(String(String.UnicodeScalarView($0))) }.joined(separator: "/")
        require(PercentEncoding.path(text) == segmentwise, "path \(PercentEncoding.path(text)) of \(text.debugDescription) is not its segments encoded")
        let component = PercentEncoding.queryComponent(text)
        require(isEncoded(component, keeping: "-._~"), "query component \(component) of \(text.debugDescription)")
        require(percentDecoded(component) == text, "query component \(component) does not decode to \(text.debugDescription)")
    }

    // One item with an empty name and no value is the empty query: nothing to decode back.
    let lone = items.count == 1 && items[0].name.isEmpty && items[0].value == nil
    let query = PercentEncoding.query(items)
    require(lone || decodedItems(query, plusIsSpace: false) == items, "query \(query) does not decode to \(items)")
    let form = PercentEncoding.form(items)
    require(lone || decodedItems(form, plusIsSpace: true) == items, "form \(form) does not decode to \(items)")

    let url = URL(string: "https://example.com/search?q=swift%20api&page=2#top")!
    let draft = RequestDraft(request: TransportRequest(url: url), jsonEncoder: JSONEncoder())
    let modifier = RequestModifier.queryItems(items)
    let applied = runBlocking {
        var modified = draft
        try await modifier.apply(&modified)
        return modified.request.url
    }
    switch applied {
    case .success(let newURL):
        let newQuery = newURL.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false)?.percentEncodedQuery }
        let expected = query.isEmpty ? "q=swift%20api&page=2" : "q=swift%20api&page=2&" + query
        require(newQuery == expected, "queryItems made \(newURL?.absoluteString ?? "nil"), expected the query \(expected)")
    case .failure(let error):
        require((error as? ApiClientError)?.code == .unresolvableURL, "queryItems failed with \(error)")
    }
}

/// Whether `text` is only ASCII letters, digits, the characters of `kept` and `%XX` (uppercase hex).
private func isEncoded(_ text: String, keeping kept: String) -> Bool {
    var bytes = Array(text.utf8)[...]
    while let byte = bytes.popFirst() {
        if byte == UInt8(ascii: "%") {
            guard bytes.count >= 2, bytes.prefix(2).allSatisfy({ "0123456789ABCDEF".utf8.contains($0) }) else { return false }
            bytes = bytes.dropFirst(2)
        } else if !(byte < 0x80 && (Character(Unicode.Scalar(byte)).isLetter || Character(Unicode.Scalar(byte)).isNumber || kept.utf8.contains(byte))) {
            return false
        }
    }
    return true
}

/// The items of an encoded query, split at `&` and `=` and decoded.
private func decodedItems(_ query: String, plusIsSpace: Bool) -> [URLQueryItem]? {
    if query.isEmpty { return [] }
    var items: [URLQueryItem] = []
    for pair in query.split(separator: "&", omittingEmptySubsequences: false) {
        let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard let name = percentDecoded(String(parts[0]), plusIsSpace: plusIsSpace) else { return nil }
        let value = parts.count == 2 ? percentDecoded(String(parts[1]), plusIsSpace: plusIsSpace) : nil
        if parts.count == 2 && value == nil { return nil }
        items.append(URLQueryItem(name: name, value: value))
    }
    return items
}

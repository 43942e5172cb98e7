/// Fuzzes RFC 8288 `Link` header parsing (Sources/SwiftApiDsl/Pagination/LinkHeader.swift).
///
/// Properties: for any header text, a target found is text of the header with no `>` in it and
/// no surrounding spaces, and the relation is matched without regard to ASCII case; for a header
/// written from links the input describes (targets with commas and semicolons, relation lists,
/// quoted parameters with escapes, parameters before `rel`, odd spacing), the target found for
/// `next` is the first link's whose first `rel` lists `next`.
@testable import SwiftApiDsl
import Foundation

let linkHeaderHarness: Harness = { input in
    if input.bool() {
        let relation = input.string()
        let header = String(decoding: input.rest(), as: UTF8.self)
        guard let target = LinkHeader.target(of: relation, in: header) else { return }
        require(!target.contains(">") && (target.isEmpty || header.range(of: target, options: .literal) != nil),
                "target \(target.debugDescription) is not a <…> of \(header.debugDescription)")
        require(target == target.trimmingCharacters(in: .whitespaces), "target \(target.debugDescription) keeps spaces")
        if relation.allSatisfy(\.isASCII) {
            let other = LinkHeader.target(of: relation.uppercased(), in: header)
            require(other == target, "relation case changed the result: \(other ?? "nil") vs \(target)")
        }
        return
    }

    var links: [String] = []
    var expected: String?
    for _ in 0..<input.int(in: 1...5) {
        var target = input.string()
        target.unicodeScalars.removeAll { $0 == "<" || $0 == ">" }
        target = target.trimmingCharacters(in: .whitespaces)
        let relations = (0..<input.int(in: 0...3)).map { _ in
            input.pick(["next", "NEXT", "Next", "prev", "last", "first", "nextpage", "alternate", token(input.string())])
        }
        var parameters: [String] = []
        if input.bool() { parameters.append("title=\"\(quoted(input.string()))\"") }
        if input.bool() { parameters.append("type=text/html") }
        if !relations.isEmpty {
            let list = relations.joined(separator: input.pick([" ", "  ", "\t"]))
            parameters.insert(relations.count == 1 && input.bool() ? "rel=\(list)" : "rel=\"\(list)\"", at: input.int(in: 0...parameters.count))
            // A second `rel` is ignored (RFC 8288, section 3).
            if input.bool() { parameters.append("rel=\"next\"") }
        }
        let separator = input.pick([";", "; ", " ;", " ; "])
        links.append(([input.pick(["", " "]) + "<\(target)>"] + parameters).joined(separator: separator))
        if expected == nil, relations.contains(where: { asciiLowercased($0) == "next" }) { expected = target }
    }
    let header = links.joined(separator: input.pick([",", ", ", " , "]))
    let found = LinkHeader.target(of: "next", in: header)
    require(found == expected, "next of \(header.debugDescription) is \(found ?? "nil"), expected \(expected ?? "nil")")
}

/// `text` as the inside of a quoted string: `"` and `\` escaped with a backslash, scalar by
/// scalar (a `"` followed by a combining mark is one character, which a replacement misses).
private func quoted(_ text: String) -> String {
    var escaped = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
        if scalar == "\"" || scalar == "\\" { escaped.append("\\") }
        escaped.append(scalar)
    }
    return String(escaped)
}

/// `text` reduced to token characters, never empty.
private func token(_ text: String) -> String {
    let kept = text.filter { $0.isASCII && ($0.isLetter || $0.isNumber || "-._".contains($0)) }
    return kept.isEmpty ? "x" : kept
}

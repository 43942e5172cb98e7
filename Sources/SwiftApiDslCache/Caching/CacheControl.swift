import Foundation
import SwiftApiDsl

/// The `Cache-Control` directives of a request or a response (RFC 9111, section 5.2) that the
/// HTTP cache acts on. Names are read without regard to case; a directive that appears twice
/// keeps its most restrictive value; a number that does not parse counts as `0`.
struct CacheControl: Sendable, Equatable {
    /// `no-store`: nothing of this exchange is stored.
    var noStore = false
    /// `no-cache` (with or without field names): a stored response is used only after a
    /// successful revalidation.
    var noCache = false
    /// `must-revalidate`: once stale, never used without revalidation.
    var mustRevalidate = false
    /// `public`.
    var isPublic = false
    /// `private` (with or without field names): a private cache, as this one is, may store it.
    var isPrivate = false
    /// `only-if-cached` (request): answer from the store or with a `504`.
    var onlyIfCached = false
    /// `max-age` in seconds: the response's freshness lifetime, or the oldest response a request accepts.
    var maxAge: Int?
    /// `s-maxage` in seconds: for shared caches, so not a freshness lifetime here.
    var sharedMaxAge: Int?
    /// `max-stale` (request) in seconds; `Int.max` when it has no value (any staleness).
    var maxStale: Int?
    /// `min-fresh` (request) in seconds.
    var minFresh: Int?

    /// The directives of every `Cache-Control` field in `fields`.
    init(_ fields: HeaderFields) {
        for value in fields.values(for: "Cache-Control") { read(value) }
    }

    /// The directives of one field value, e.g. `max-age=60, private="Set-Cookie"`.
    init(_ value: String) {
        read(value)
    }

    private mutating func read(_ value: String) {
        for directive in Self.directives(in: value) {
            switch directive.name {
            case "no-store": noStore = true
            case "no-cache": noCache = true
            case "must-revalidate": mustRevalidate = true
            case "public": isPublic = true
            case "private": isPrivate = true
            case "only-if-cached": onlyIfCached = true
            case "max-age": maxAge = Self.smaller(maxAge, Self.seconds(directive.argument))
            case "s-maxage": sharedMaxAge = Self.smaller(sharedMaxAge, Self.seconds(directive.argument))
            case "max-stale": maxStale = Self.smaller(maxStale, directive.argument == nil ? Int.max : Self.seconds(directive.argument))
            case "min-fresh": minFresh = max(minFresh ?? 0, Self.seconds(directive.argument))
            default: break
            }
        }
    }

    /// The directives of `value` as (lowercased name, argument without quotes); commas inside
    /// a quoted argument do not split.
    static func directives(in value: String) -> [(name: String, argument: String?)] {
        var quoted = false
        // `reduce` visits the characters in order, so `quoted` follows the quotes.
        let parts = value.reduce(into: [""]) { parts, character in
            if character == "\"" { quoted.toggle() }
            if character == "," && !quoted { parts.append("") } else { parts[parts.count - 1].append(character) }
        }
        return parts.compactMap { part in
            let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = pair[0].trimmingCharacters(in: .whitespaces).lowercased()
            guard !name.isEmpty else { return nil }
            let argument = pair.count > 1
                ? pair[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                : nil
            return (name, argument)
        }
    }

    /// Delta-seconds: a value that does not parse counts as 0; one too large for an `Int32`
    /// counts as 2^31 (RFC 9111, section 1.2.2).
    private static func seconds(_ text: String?) -> Int {
        guard let text, !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return 0 }
        return Int(text).map { min($0, 1 << 31) } ?? 1 << 31
    }

    private static func smaller(_ a: Int?, _ b: Int) -> Int {
        a.map { min($0, b) } ?? b
    }
}

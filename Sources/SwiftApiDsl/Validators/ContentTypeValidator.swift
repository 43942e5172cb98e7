import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension ResponseValidator {
    /// Rejects a response whose `Content-Type` media type is not one of `types`.
    ///
    /// Parameters such as `charset` are ignored and case does not matter; `type/*` and `*/*`
    /// are wildcards. A response with an empty body and no `Content-Type` (a `204`) passes.
    /// ```swift
    /// client.acceptableContentTypes(["application/json", "text/*"])
    /// ```
    public static func acceptableContentTypes(_ types: [String]) -> ResponseValidator {
        .init { response in
            guard let header = response.headerFields[HeaderField.contentType.rawValue] else {
                if response.body.isEmpty { return }
                throw ApiClientError.unacceptableContentType(nil, acceptable: types)
            }
            let received = MediaType(header)
            guard types.contains(where: { MediaType($0).matches(received) }) else {
                throw ApiClientError.unacceptableContentType(header, acceptable: types)
            }
        }
    }
}

extension ResponseValidatable {
    /// Rejects a response whose `Content-Type` is not one of `types` (wildcards allowed).
    public func acceptableContentTypes(_ types: [String]) -> Self { validator(.acceptableContentTypes(types)) }
}

/// A media type's `type/subtype`, without parameters; compared without regard to ASCII case.
/// Parsed on substrings, with no allocation: every validated response goes through it.
private struct MediaType {
    let type: Substring
    let subtype: Substring

    init(_ text: String) {
        var essence = text[..<(text.firstIndex(of: ";") ?? text.endIndex)]
        while let first = essence.first, first == " " || first == "\t" { essence = essence.dropFirst() }
        while let last = essence.last, last == " " || last == "\t" { essence = essence.dropLast() }
        let slash = essence.firstIndex(of: "/")
        type = slash.map { essence[..<$0] } ?? essence
        subtype = slash.map { essence[essence.index(after: $0)...] } ?? ""
    }

    /// Whether this pattern (possibly with wildcards) accepts `other`.
    func matches(_ other: MediaType) -> Bool {
        (type == "*" || Self.equalIgnoringCase(type, other.type))
            && (subtype == "*" || Self.equalIgnoringCase(subtype, other.subtype))
    }

    private static func equalIgnoringCase(_ lhs: Substring, _ rhs: Substring) -> Bool {
        lhs.utf8.elementsEqual(rhs.utf8) { lowercase($0) == lowercase($1) }
    }

    private static func lowercase(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }
}

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Thrown by ``ResponseValidator/acceptableContentTypes(_:)`` for a response of another type.
public struct UnacceptableContentType: Error, Sendable, Equatable, CustomStringConvertible {
    /// The response's `Content-Type`, if it had one.
    public let contentType: String?
    /// The media types accepted.
    public let acceptable: [String]

    /// Creates the error for `contentType` not among `acceptable`.
    public init(contentType: String?, acceptable: [String]) {
        self.contentType = contentType
        self.acceptable = acceptable
    }

    public var description: String {
        "content type \(contentType ?? "(none)") is not one of \(acceptable.joined(separator: ", "))"
    }
}

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
            let header = response.httpResponse.value(forHTTPHeaderField: HeaderField.contentType.rawValue)
            guard let header else {
                if response.body.isEmpty { return }
                throw UnacceptableContentType(contentType: nil, acceptable: types)
            }
            let received = MediaType(header)
            guard types.contains(where: { MediaType($0).matches(received) }) else {
                throw UnacceptableContentType(contentType: header, acceptable: types)
            }
        }
    }
}

extension ResponseValidatable {
    /// Rejects a response whose `Content-Type` is not one of `types` (wildcards allowed).
    public func acceptableContentTypes(_ types: [String]) -> Self { validator(.acceptableContentTypes(types)) }
}

/// A media type's `type/subtype`, lowercased, without parameters.
private struct MediaType {
    let type: Substring
    let subtype: Substring

    init(_ text: String) {
        let essence = text.split(separator: ";", maxSplits: 1).first ?? ""
        let pieces = essence.trimmingCharacters(in: .whitespaces).lowercased().split(separator: "/", maxSplits: 1)
        type = pieces.first ?? ""
        subtype = pieces.count > 1 ? pieces[1] : ""
    }

    /// Whether this pattern (possibly with wildcards) accepts `other`.
    func matches(_ other: MediaType) -> Bool {
        (type == "*" || type == other.type) && (subtype == "*" || subtype == other.subtype)
    }
}

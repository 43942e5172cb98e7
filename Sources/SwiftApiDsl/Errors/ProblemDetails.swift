import Foundation

/// An RFC 9457 problem document (`application/problem+json`), the standard shape of an HTTP
/// API's error body, ready to use with ``ResponseValidator/decodingErrorBody(_:jsonDecoder:)``:
/// ```swift
/// let client = ApiClient(baseUrl: url).httpStatusCodeRange().decodingErrorBody(ProblemDetails.self)
/// // … catch { (error.asRequestError.validationError as? ProblemDetails)?.detail }
/// ```
/// Every member is optional, as in the RFC, but a JSON object with none of `type`, `title`,
/// `status`, `detail` and `instance` does not decode as one, so another API's error document
/// is not mistaken for an empty problem. Extension members are not kept: decode your own type
/// to read them.
public struct ProblemDetails: Decodable, Error, Sendable, Equatable, CustomStringConvertible {
    /// A URI reference naming the problem type; `about:blank` (the RFC's default) when absent.
    public let type: String
    /// A short summary of the problem type.
    public let title: String?
    /// The HTTP status code the server gave this occurrence.
    public let status: Int?
    /// An explanation of this occurrence, for a person.
    public let detail: String?
    /// A URI reference identifying this occurrence.
    public let instance: String?

    /// Creates a problem document.
    public init(type: String = "about:blank", title: String? = nil, status: Int? = nil, detail: String? = nil, instance: String? = nil) {
        self.type = type
        self.title = title
        self.status = status
        self.detail = detail
        self.instance = instance
    }

    private enum CodingKeys: String, CodingKey { case type, title, status, detail, instance }

    /// Decodes the members of RFC 9457: a member of another type is ignored, as the RFC asks
    /// (`type` is then `about:blank`), and an object with none of the five does not decode.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard !container.allKeys.isEmpty else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "no RFC 9457 member (type, title, status, detail, instance)"))
        }
        // Members of the wrong type are ignored, as the RFC asks.
        type = (try? container.decodeIfPresent(String.self, forKey: .type)) ?? "about:blank"
        title = try? container.decodeIfPresent(String.self, forKey: .title)
        status = try? container.decodeIfPresent(Int.self, forKey: .status)
        detail = try? container.decodeIfPresent(String.self, forKey: .detail)
        instance = try? container.decodeIfPresent(String.self, forKey: .instance)
    }

    /// `title (status): detail`, with what is present.
    public var description: String {
        let head = [title ?? type, status.map { "(\($0))" }].compactMap { $0 }.joined(separator: " ")
        return detail.map { "\(head): \($0)" } ?? head
    }
}

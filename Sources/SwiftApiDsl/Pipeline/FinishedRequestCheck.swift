import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The last look at a request after its modifiers ran (step 4 of the pipeline), so that what
/// reaches a transport is always something HTTP can carry.
enum FinishedRequestCheck {
    static func check(_ request: TransportRequest) throws {
        guard let url = request.url else {
            throw ApiClientError(.invalidURL, message: "the request has no URL (a modifier set it to nil)")
        }
        guard let scheme = url.scheme?.lowercased() else {
            throw ApiClientError(.invalidURL, message: "the URL \(Redaction.url(url)) is relative: give an absolute http or https URL")
        }
        guard scheme == "http" || scheme == "https" else {
            throw ApiClientError(.invalidURL, message: "the URL's scheme \(scheme) is not http or https")
        }
        guard url.host?.isEmpty == false else {
            throw ApiClientError(.invalidURL, message: "the URL \(Redaction.url(url)) has no host")
        }
        let method = request.method.rawValue
        guard isToken(method) else {
            throw ApiClientError(.invalidMethod, message: "the method \(method.debugDescription) is not an HTTP token")
        }
        for field in request.headerFields {
            try checkField(field.name, field.value)
        }
    }

    /// Checks one header field. The built-in header modifiers call it as they set a field,
    /// because Foundation on Linux silently drops a value with a line break: by the time the
    /// whole request is checked, such a field is already gone.
    static func checkField(_ name: String, _ value: String) throws {
        guard isToken(name) else {
            throw ApiClientError(.invalidHeader, message: "the header name \(name.debugDescription) is not an HTTP token")
        }
        // The forbidden characters are all ASCII, and no byte of a multi-byte UTF-8 sequence is
        // ASCII: reading bytes finds exactly the scalars, without decoding them.
        guard !value.utf8.contains(where: isForbiddenInValue) else {
            throw ApiClientError(.invalidHeader, message: "the value of the header \(name) contains a control character")
        }
    }

    /// RFC 9110 section 5.6.2: one or more of letters, digits and ``!#$%&'*+-.^_`|~``.
    private static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                true
            default:
                "!#$%&'*+-.^_`|~".utf8.contains(byte)
            }
        }
    }

    /// A control character other than a horizontal tab (RFC 9110 section 5.5): CR and LF above
    /// all, NUL, and DEL.
    private static func isForbiddenInValue(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != UInt8(ascii: "\t")) || byte == 0x7F
    }
}

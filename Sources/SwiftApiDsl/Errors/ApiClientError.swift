import Foundation

/// A failure the library itself finds, whatever the stage: a request it cannot make, a response a
/// built-in validator rejects, a body too large or a download of the wrong length, retries that
/// did not succeed, pages that loop, a credential that could not be renewed, a file to send that
/// cannot be read.
///
/// Like Foundation's `URLError`, it is one type with a ``code`` to compare against the constants
/// (`.unacceptableStatusCode`…), a ``message`` that names the fault (never a secret), and the few
/// details a caller needs as optional properties, set for the codes that have them. It reaches
/// the caller inside the ``RequestError`` of its stage:
///
/// ```swift
/// do {
///     _ = try await client.get("todos").httpStatusCodeRange().perform()
/// } catch let error as RequestError {
///     if let failure = error.underlyingError as? ApiClientError, failure.code == .unacceptableStatusCode {
///         print(failure.message)  // status code 404 is outside 200..<300
///     }
/// }
/// ```
/// New kinds of failure are new ``Code`` values, so a `switch` over codes keeps compiling: give
/// it a `default:`. Two errors are equal when their code, message and details are, the underlying
/// errors compared by their text.
public struct ApiClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Which kind of failure: compare with `==` against the constants (`.invalidHeader`…).
    public let code: Code
    /// What went wrong, naming the part at fault but never a header's value or a URL's secrets.
    public let message: String
    /// The response's status: set for `.unacceptableStatusCode` and `.credentialExpired`.
    public let statusCode: Int?
    /// The statuses accepted: set for `.unacceptableStatusCode`.
    public let acceptableStatusCodes: Range<Int>?
    /// The response's `Content-Type`, for `.unacceptableContentType`; `nil` when it had none.
    public let contentType: String?
    /// The media types accepted: set for `.unacceptableContentType`.
    public let acceptableContentTypes: [String]?
    /// The size limit in bytes: set for `.responseTooLarge`.
    public let limit: Int?
    /// How many times the request was sent, the first included: set for `.failedAfterRetries`.
    public let attempts: Int?
    /// The URL at fault: the link that repeats (`.repeatedPageLink`), the file that cannot be
    /// sent (`.unreadableBodyFile`).
    public let url: URL?
    private let underlying: Underlying?

    /// The error behind this one: the last attempt's (`.failedAfterRetries`), or what the
    /// refresh threw (`.credentialRefreshFailed`).
    public var underlyingError: (any Error)? { underlying?.error }

    /// Creates the error, for a transport, modifier, validator or mock of your own.
    ///
    /// ```swift
    /// throw ApiClientError(.unsupportedByTransport, message: "this engine sends no TRACE requests")
    /// ```
    public init(
        _ code: Code, message: String, statusCode: Int? = nil, acceptableStatusCodes: Range<Int>? = nil,
        contentType: String? = nil, acceptableContentTypes: [String]? = nil, limit: Int? = nil,
        attempts: Int? = nil, url: URL? = nil, underlyingError: (any Error)? = nil
    ) {
        self.code = code
        self.message = message
        self.statusCode = statusCode
        self.acceptableStatusCodes = acceptableStatusCodes
        self.contentType = contentType
        self.acceptableContentTypes = acceptableContentTypes
        self.limit = limit
        self.attempts = attempts
        self.url = url
        self.underlying = underlyingError.map(Underlying.init)
    }

    /// The ``message``.
    public var description: String { message }

    /// A kind of ``ApiClientError``. A struct over a private list, so that a new kind is not a
    /// breaking change.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Kind: String, Sendable {
            case unresolvableURL, invalidURL, invalidMethod, invalidHeader, unsupportedByTransport
            case unacceptableStatusCode, unacceptableContentType, responseTooLarge, downloadLengthMismatch
            case failedAfterRetries, repeatedPageLink, credentialExpired, credentialRefreshFailed, unreadableBodyFile
            case tlsUnsupported, pinMismatch, streamedBodyUnreadable, readerFellBehind
        }
        private let kind: Kind

        /// The base URL, path, query items or page link do not form a URL (a control character in
        /// the path, a base URL with no scheme and host, a page link that is not a URL…).
        public static let unresolvableURL = Code(kind: .unresolvableURL)
        /// The finished request has no URL, a relative one, a scheme other than http(s), or no host.
        public static let invalidURL = Code(kind: .invalidURL)
        /// The method is not an HTTP token.
        public static let invalidMethod = Code(kind: .invalidMethod)
        /// A header name is not an HTTP token, or a value has a control character (CR, LF, NUL…).
        public static let invalidHeader = Code(kind: .invalidHeader)
        /// The transport cannot send this request as it is (a GET with a body on URLSession).
        public static let unsupportedByTransport = Code(kind: .unsupportedByTransport)
        /// `ResponseValidator.httpStatusCodeRange(_:)` (or a stream) rejected the status.
        public static let unacceptableStatusCode = Code(kind: .unacceptableStatusCode)
        /// ``ResponseValidator/acceptableContentTypes(_:)`` (or a stream) rejected the `Content-Type`.
        public static let unacceptableContentType = Code(kind: .unacceptableContentType)
        /// The body was larger than ``RequestModifier/maxResponseSize(_:)``; nothing was kept.
        public static let responseTooLarge = Code(kind: .responseTooLarge)
        /// A download ended with another length than the server announced for the whole file.
        public static let downloadLengthMismatch = Code(kind: .downloadLengthMismatch)
        /// The request was sent more than once under a ``RetryPolicy`` and the last attempt failed.
        public static let failedAfterRetries = Code(kind: .failedAfterRetries)
        /// ``Pages`` met a next link to a page already loaded: following it would loop for ever.
        public static let repeatedPageLink = Code(kind: .repeatedPageLink)
        /// The server refused the credential and it was renewed: what observers see as a retry's reason.
        public static let credentialExpired = Code(kind: .credentialExpired)
        /// The refresh given to `authentication(token:refresh:)` threw.
        public static let credentialRefreshFailed = Code(kind: .credentialRefreshFailed)
        /// A file to send is missing, unreadable, not a regular file, or became shorter while sent.
        public static let unreadableBodyFile = Code(kind: .unreadableBodyFile)
        /// The transport cannot enforce the request's ``TLSSettings`` (URLSession on Linux) or
        /// cannot read them (a wrong PKCS #12 password); nothing was sent.
        public static let tlsUnsupported = Code(kind: .tlsUnsupported)
        /// The server's certificates match none of its host's pins; no request was sent.
        public static let pinMismatch = Code(kind: .pinMismatch)
        /// A ``StreamedBody`` that can be read once was needed again (a retry, a redirect that
        /// keeps the body, the replay after a refresh), or read synchronously; nothing partial was sent.
        public static let streamedBodyUnreadable = Code(kind: .streamedBodyUnreadable)
        /// The body ended early because its reader fell behind an engine that cannot slow down,
        /// as asked with ``ResponseBody/endWhenReaderFallsBehind()``; the reader had every byte
        /// received before it.
        public static let readerFellBehind = Code(kind: .readerFellBehind)

        /// The constant's name, such as `unacceptableStatusCode`.
        public var description: String { kind.rawValue }
    }

    /// An error held for its text-compared equality.
    private struct Underlying: Sendable, Equatable {
        let error: any Error
        static func == (lhs: Self, rhs: Self) -> Bool {
            type(of: lhs.error) == type(of: rhs.error) && Redaction.describe(lhs.error) == Redaction.describe(rhs.error)
        }
    }
}

extension ApiClientError: CustomReflectable {
    /// The code, the redacted message and the URL; not the underlying error, which may hold a URL
    /// with a password.
    public var customMirror: Mirror {
        var children: [(label: String?, value: Any)] = [("code", code.description), ("message", message)]
        if let url { children.append(("url", Redaction.url(url))) }
        return Mirror(self, children: children)
    }
}

// The failures the library throws from several places, each with the message users know.
extension ApiClientError {
    static func unacceptableStatusCode(_ status: Int, acceptable: Range<Int>) -> Self {
        Self(.unacceptableStatusCode, message: "status code \(status) is outside \(acceptable.lowerBound)..<\(acceptable.upperBound)",
             statusCode: status, acceptableStatusCodes: acceptable)
    }

    static func unacceptableContentType(_ contentType: String?, acceptable: [String]) -> Self {
        Self(.unacceptableContentType, message: "content type \(contentType ?? "(none)") is not one of \(acceptable.joined(separator: ", "))",
             contentType: contentType, acceptableContentTypes: acceptable)
    }

    /// `declaredLength`: the `Content-Length` above the limit, when the server announced one.
    static func responseTooLarge(limit: Int, declaredLength: Int64? = nil) -> Self {
        let size = declaredLength.map { " of \($0) bytes" } ?? ""
        return Self(.responseTooLarge, message: "response body\(size) exceeds the limit of \(limit) bytes", limit: limit)
    }

    static func unreadableBodyFile(_ url: URL, _ reason: String) -> Self {
        Self(.unreadableBodyFile, message: "file \(url.path): \(reason)", url: url)
    }
}

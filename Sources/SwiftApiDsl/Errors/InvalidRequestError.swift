/// A request that cannot be made or sent as it is described: its path or query does not form a
/// URL, its modifiers left it unfit for HTTP (no absolute http(s) URL, a method or header name
/// that is not a token, a header value with a control character that could smuggle a second
/// header onto the wire), or its transport cannot carry it (a GET with a body on URLSession).
///
/// Nothing is sent. Where it is found decides the stage: while the request is built or modified it
/// fails as ``RequestError/modify(_:_:)``, in a transport as ``RequestError/transport(_:_:)``.
/// ``code`` says which kind of fault it is, ``reason`` says it in words, naming the part at fault
/// but never a header's value.
///
/// ```swift
/// do {
///     _ = try await client.get("todos").header("X-Note", "a\r\nInjected: 1").perform()
/// } catch let error as RequestError {
///     if let invalid = error.underlyingError as? InvalidRequestError, invalid.code == .invalidHeader {
///         print(invalid.reason)  // the value of the header X-Note contains a control character
///     }
/// }
/// ```
/// New kinds of fault are new ``Code`` values, so a `switch` over codes keeps compiling: give
/// it a `default:`.
public struct InvalidRequestError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Which kind of fault: compare with `==` against the constants (`.invalidHeader`…).
    public let code: Code
    /// What is wrong, naming the part at fault but never a header's value.
    public let reason: String

    /// Creates the error, for a transport or modifier of your own that must refuse a request.
    ///
    /// ```swift
    /// throw InvalidRequestError(.unsupportedByTransport, reason: "this engine sends no TRACE requests")
    /// ```
    public init(_ code: Code, reason: String) {
        self.code = code
        self.reason = reason
    }

    public var description: String { reason }

    /// A kind of ``InvalidRequestError``. A struct over a private list, so that a new kind is not a
    /// breaking change.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Kind: String, Sendable {
            case unresolvableURL, invalidURL, invalidMethod, invalidHeader, unsupportedByTransport
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

        public var description: String { kind.rawValue }
    }
}

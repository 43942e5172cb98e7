/// A transport cannot send this request as it is, for example a GET with a body on URLSession.
/// It fails the request as ``RequestError/transport(_:_:)``, before anything is sent.
public struct UnsupportedRequestError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What the transport cannot do, and what to do instead.
    public let reason: String

    /// Creates the error.
    public init(reason: String) { self.reason = reason }

    public var description: String { reason }
}

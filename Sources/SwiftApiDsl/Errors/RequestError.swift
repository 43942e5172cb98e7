import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Every error a request throws, qualified by the stage that failed and carrying the request.
///
/// ```swift
/// do {
///     let profile: Profile = try await client.get("user/profile").perform()
/// } catch {
///     let requestError = error.asRequestError
///     if requestError.isCancellation { return }
///     if let myError = requestError.validationError as? MyError { … }
///     print(requestError.localizedDescription) // stage, method, URL and cause; never a secret
/// }
/// ```
public enum RequestError: Error {
    /// A modifier (authentication included) threw, or the path could not form a URL.
    case modify(URLRequest, Error)
    /// The request could not be sent or its response not received: connection refused,
    /// timeout, cancellation, too many redirects…
    case transport(URLRequest, Error)
    /// A validator threw. The response's body and `HTTPURLResponse` are kept.
    case validate(URLRequest, data: Data, response: HTTPURLResponse, error: Error)
    /// Something that should not happen in a working app: the body did not decode, the answer
    /// was not HTTP, a download could not be moved into place. See ``FatalError``.
    case fatal(FatalError)
}

extension RequestError {
    /// The request that failed, as it was when it failed (after modifiers ran, where they did).
    public var request: URLRequest? {
        switch self {
        case .modify(let request, _), .transport(let request, _), .validate(let request, _, _, _):
            request
        case .fatal(let fatal):
            fatal.request
        }
    }

    /// The error a validator threw, for a ``validate(_:data:response:error:)``; otherwise `nil`.
    public var validationError: Error? {
        if case .validate(_, _, _, let error) = self { Self.unwrapped(error) } else { nil }
    }

    /// How many times the request was sent: `1`, or more when a ``RetryPolicy`` sent it again.
    public var attempts: Int {
        switch self {
        case .transport(_, let error as ApiClientError), .validate(_, _, _, let error as ApiClientError):
            error.code == .failedAfterRetries ? error.attempts ?? 1 : 1
        default: 1
        }
    }

    /// `error`, or the error behind it when it only wraps one: the last attempt's error when it
    /// records several (`.failedAfterRetries`), or what a failed refresh threw (`.credentialRefreshFailed`).
    private static func unwrapped(_ error: Error) -> Error {
        guard let wrapper = error as? ApiClientError, wrapper.code == .failedAfterRetries || wrapper.code == .credentialRefreshFailed
        else { return error }
        return wrapper.underlyingError ?? error
    }

    /// Whether the request failed because its credential was refused and could not be renewed:
    /// the refresh threw (an ``ApiClientError`` with `.credentialRefreshFailed`), or the server refused the request with
    /// `401 Unauthorized`. The check to make before signing the user out.
    ///
    /// ```swift
    /// } catch let error as RequestError where error.isAuthenticationFailure {
    ///     await session.signOut()
    /// }
    /// ```
    public var isAuthenticationFailure: Bool {
        switch self {
        case .modify(_, let error as ApiClientError) where error.code == .credentialRefreshFailed: true
        default: statusCode == 401
        }
    }

    /// The error behind this one: what the modifier, transport, validator or decoder threw.
    public var underlyingError: Error? {
        switch self {
        case .modify(_, let error), .transport(_, let error), .validate(_, _, _, let error):
            Self.unwrapped(error)
        case .fatal(let fatal):
            fatal.underlyingError
        }
    }

    /// Whether the request stopped because its task was cancelled: the one check to make.
    ///
    /// True for `CancellationError` and for `URLError(.cancelled)` (what URLSession on Linux
    /// throws), at any stage.
    public var isCancellation: Bool {
        switch underlyingError {
        case is CancellationError: true
        case let error as URLError: error.code == .cancelled
        default: false
        }
    }

    /// The HTTP response, when the failure came after one was received.
    public var httpResponse: HTTPURLResponse? {
        switch self {
        case .validate(_, _, let response, _): response
        case .fatal(.decoding(_, _, let response, _)): response.httpResponse
        default: nil
        }
    }

    /// The response's status code, when the failure came after a response was received
    /// (a validator rejected it, or its body did not decode); otherwise `nil`.
    ///
    /// ```swift
    /// if error.asRequestError.statusCode == 404 { return nil }
    /// ```
    public var statusCode: Int? { httpResponse?.statusCode }

    /// The body the server sent, when the failure came after a response was received
    /// (a validator rejected it, or it did not decode); otherwise `nil`. For a download, see
    /// `download(destination:)` for which body its validators see.
    ///
    /// ```swift
    /// print(String(decoding: error.asRequestError.responseBody ?? Data(), as: UTF8.self))
    /// ```
    public var responseBody: Data? {
        switch self {
        case .validate(_, let data, _, _): data
        case .fatal(.decoding(_, _, let response, _)): response.body
        default: nil
        }
    }
}

extension Error {
    /// This error as a ``RequestError``: itself if it is one, else wrapped in
    /// ``FatalError/unexpected(_:)``. Every error a request throws is already a `RequestError`.
    public var asRequestError: RequestError {
        self as? RequestError ?? .fatal(.unexpected(self))
    }
}

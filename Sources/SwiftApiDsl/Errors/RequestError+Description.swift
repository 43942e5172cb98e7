import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Descriptions of errors name the stage, the request's method and URL and the cause. They never
// contain the value of a secret header or query item (see `SecretNames`: `Authorization`,
// `X-Api-Key`, `Cookie`, `X-Session-Id`, `access_token`…) nor a URL password: every textual form
// (description, debugDescription, localizedDescription, dump, mirror) is redacted.
//
// The conformances' members are declared in extensions of the protocols constrained to the
// error type, not on the type: editors rank a type's own members first, so after
// `error.asRequestError.` they list `statusCode`, `responseBody`, `request`… before this plumbing.

extension RequestError: LocalizedError, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The stage that failed: `"modify"`, `"transport"`, `"validate"` or `"fatal"`.
    public var stage: String {
        switch self {
        case .modify: "modify"
        case .transport: "transport"
        case .validate: "validate"
        case .fatal: "fatal"
        }
    }
}

extension LocalizedError where Self == RequestError {
    /// The `description`, so that `localizedDescription` names the stage, request and cause.
    public var errorDescription: String? { self.description }
}

extension CustomStringConvertible where Self == RequestError {
    /// The stage, the request's method and URL, and the cause; never a secret.
    public var description: String {
        switch self {
        case .modify(let request, let error as ApiClientError) where error.code == .credentialRefreshFailed:
            "RequestError.modify: \(Redaction.line(for: request)) was refused and \(error)"
        case .modify(let request, let error):
            "RequestError.modify: \(Redaction.line(for: request)) could not be built: \(Redaction.describe(error))"
        case .transport(let request, let error):
            "RequestError.transport: \(Redaction.line(for: request)) failed: \(Redaction.describe(error))"
        case .validate(let request, let data, let response, let error):
            "RequestError.validate: \(Redaction.line(for: request)) got status \(response.statusCode) "
                + "(\(data.count) bytes) rejected by a validator: \(Redaction.describe(error))"
        case .fatal(let fatal):
            "RequestError.fatal: \(fatal.description)"
        }
    }
}

extension CustomDebugStringConvertible where Self == RequestError {
    /// The `description`: redacted too.
    public var debugDescription: String { self.description }
}

extension CustomReflectable where Self == RequestError {
    /// What `dump` shows: the stage, the redacted request, the status and the cause.
    public var customMirror: Mirror {
        var children: [(label: String?, value: Any)] = [("stage", self.stage)]
        if let request = self.request { children += Redaction.mirrorChildren(of: request) }
        if let status = self.httpResponse?.statusCode { children.append(("statusCode", status)) }
        if let error = self.underlyingError { children.append(("error", Redaction.describe(error))) }
        return Mirror(self, children: children, displayStyle: .enum)
    }
}

extension FatalError: LocalizedError, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The ``description``, so that `localizedDescription` says what failed and for which request.
    public var errorDescription: String? { description }

    /// What failed, for which request (method and redacted URL) and why; never a secret.
    public var description: String {
        switch self {
        case .decoding(let type, let request, let response, let error):
            "\(Redaction.line(for: request)) returned status \(response.httpResponse.statusCode) with "
                + "\(response.body.count) bytes that do not decode as \(type): \(Redaction.describe(error))"
        case .notHTTPResponse(let request, let response):
            "\(Redaction.line(for: request)) got a response that is not HTTP: \(response.map { String(describing: type(of: $0)) } ?? "none")"
        case .download(let request, let destination, let error):
            "\(Redaction.line(for: request)) could not be saved to \(destination.path): \(Redaction.describe(error))"
        case .unexpected(let error):
            "unexpected error: \(Redaction.describe(error))"
        }
    }

    /// The ``description``: redacted too.
    public var debugDescription: String { description }

    /// What `dump` shows: the redacted request and the cause.
    public var customMirror: Mirror {
        var children: [(label: String?, value: Any)] = []
        if let request { children += Redaction.mirrorChildren(of: request) }
        if let error = underlyingError { children.append(("error", Redaction.describe(error))) }
        return Mirror(self, children: children, displayStyle: .enum)
    }
}

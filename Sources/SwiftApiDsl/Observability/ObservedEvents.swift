import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The values a `RequestObserver` receives before the request finishes. Their text forms
// (description, mirror, dump) are redacted; their properties are what was really sent.

/// A request ready to be sent: see ``RequestObserver/requestPrepared(_:)``.
public struct ObservedRequest: Sendable, CustomStringConvertible, CustomReflectable {
    /// Shared by every event of one performance of a request; distinct within the process.
    public let requestID: Int
    /// The request after every modifier and the authentication.
    public let request: URLRequest
    /// The body the library streams (a file, a multipart form); `nil` when the body is
    /// `request.httpBody` or there is none.
    public let body: RequestBody?

    /// The request as a `curl` command line, secrets redacted.
    public var curl: CurlCommand { CurlCommand(request: request, body: body) }
    /// The request's headers, secret values replaced by `<redacted>`.
    public var redactedHeaders: [String: String] { Redaction.headers(of: request) }

    /// `#4 GET https://api.example.com/v1/users`, redacted.
    public var description: String { "#\(requestID) \(Redaction.line(for: request))" }

    public var customMirror: Mirror {
        let id: [(label: String?, value: Any)] = [("requestID", requestID)]
        return Mirror(self, children: id + Redaction.mirrorChildren(of: request))
    }
}

/// A redirect about to be followed: see ``RequestObserver/requestRedirected(_:)``.
public struct ObservedRedirect: Sendable, CustomStringConvertible, CustomReflectable {
    /// Shared by every event of one performance of a request.
    public let requestID: Int
    /// The request that was answered with a redirect.
    public let from: URLRequest
    /// The request sent next (its method and body may differ, see ``RedirectPolicy``).
    public let to: URLRequest
    /// The redirect's status code, such as `302`.
    public let statusCode: Int

    /// `#4 302: GET https://a.example/x → GET https://b.example/y`, redacted.
    public var description: String {
        "#\(requestID) \(statusCode): \(Redaction.line(for: from)) → \(Redaction.line(for: to))"
    }

    public var customMirror: Mirror {
        Mirror(self, children: ["requestID": requestID, "statusCode": statusCode,
                                "from": Redaction.line(for: from), "to": Redaction.line(for: to)])
    }
}

/// A response's status and headers, as soon as they arrived: see ``RequestObserver/responseHeadReceived(_:)``.
public struct ObservedResponseHead: Sendable, CustomStringConvertible, CustomReflectable {
    /// Shared by every event of one performance of a request.
    public let requestID: Int
    /// The request this answers (the current hop's, when redirected).
    public let request: URLRequest
    /// The status code.
    public let statusCode: Int
    /// The header fields as received (names as the engine gives them).
    public let headers: [String: String]

    /// The headers, secret values (`Set-Cookie`…) replaced by `<redacted>`.
    public var redactedHeaders: [String: String] { Redaction.headers(headers) }

    /// `#4 200 for GET https://api.example.com/v1/users`, redacted.
    public var description: String { "#\(requestID) \(statusCode) for \(Redaction.line(for: request))" }

    public var customMirror: Mirror {
        Mirror(self, children: ["requestID": requestID, "statusCode": statusCode, "request": Redaction.line(for: request),
                                "headers": redactedHeaders.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }])
    }
}

/// A failed attempt about to be retried: see ``RequestObserver/requestRetrying(_:)``.
public struct ObservedRetry: Sendable, CustomStringConvertible, CustomReflectable {
    /// Shared by every event of one performance of a request.
    public let requestID: Int
    /// The number of the attempt about to start: `2` for the first retry.
    public let attempt: Int
    /// Why the previous attempt failed.
    public let error: RequestError
    /// How long the request waits before the attempt, in seconds.
    public let delay: TimeInterval

    /// `#4 attempt 2 in 0.500 s after: RequestError.transport: …`, redacted.
    public var description: String {
        "#\(requestID) attempt \(attempt) in \(Seconds.format(delay)) after: \(error.description)"
    }

    public var customMirror: Mirror {
        Mirror(self, children: ["requestID": requestID, "attempt": attempt, "delay": delay, "error": error.description])
    }
}

/// Durations as events print them.
enum Seconds {
    /// `0.084 s`
    static func format(_ interval: TimeInterval) -> String { String(format: "%.3f s", interval) }
}

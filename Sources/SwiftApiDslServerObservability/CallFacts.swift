#if ServerObservability
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// What the three integrations say about a call, computed one way for all of them: the
/// OpenTelemetry HTTP client names and values, with secrets hidden by the library's rule.
enum CallFacts {
    /// `url.full` without secrets: the user and password of the URL become `REDACTED` (as
    /// OpenTelemetry asks), and the value of each query item whose name the library hides in its
    /// own texts (`HeaderField/isRedacted`: `access_token`, `api_key`…) becomes `REDACTED`.
    static func redactedURL(_ url: URL?) -> String? {
        guard let url, var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return nil }
        if components.user != nil { components.user = "REDACTED" }
        if components.password != nil { components.password = "REDACTED" }
        if let items = components.queryItems {
            components.queryItems = items.map { item in
                HeaderField(item.name).isRedacted && item.value != nil ? URLQueryItem(name: item.name, value: "REDACTED") : item
            }
        }
        return components.string
    }

    /// `server.address` and `server.port`: the port the URL names, else its scheme's default.
    static func server(of url: URL?) -> (address: String, port: Int)? {
        guard let url, let host = url.host else { return nil }
        let port = url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
        return (host, port)
    }

    /// `error.type`: the status code as text for a response of 400 or more (as OpenTelemetry
    /// asks), else, for a failed call, what failed: `cancelled`, `timeout`, or the stage of the
    /// `RequestError` (`modify`, `transport`, `validate`, `decoding`, `fatal`). `nil` on success.
    static func errorType(status: Int?, error: RequestError?) -> String? {
        if let status, status >= 400 { return String(status) }
        guard let error else { return nil }
        if error.isCancellation { return "cancelled" }
        if (error.underlyingError as? URLError)?.code == .timedOut { return "timeout" }
        return stage(of: error)
    }

    /// The stage a `RequestError` names.
    static func stage(of error: RequestError) -> String {
        switch error {
        case .modify: "modify"
        case .transport: "transport"
        case .validate: "validate"
        case .fatal(.decoding): "decoding"
        case .fatal: "fatal"
        }
    }
}

/// A value behind a lock, for the state the observers keep between events of a call (events of
/// one call may come from more than one task).
final class Guarded<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
#endif

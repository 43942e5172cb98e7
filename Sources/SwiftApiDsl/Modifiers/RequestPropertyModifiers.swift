import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Modifiers for `URLRequest` properties and for how the request travels.

extension RequestModifier {
    /// The longest time, in seconds, the request may wait for the server without receiving a
    /// byte; then it fails as ``RequestError/transport(_:_:)`` with `URLError(.timedOut)`.
    ///
    /// Sub-second values are honoured on every platform and transport: the library enforces the
    /// timeout itself, because URLSession on Linux truncates it to whole seconds (0.5 fails at once).
    /// A value of 0 or less turns the library's timer off.
    public static func timeoutInterval(_ interval: TimeInterval) -> RequestModifier {
        .init(editing: { $0.timeoutInterval = interval })
    }

    /// Allows or forbids cellular networks (Apple platforms). Accepted and ignored on Linux.
    public static func allowsCellularAccess(_ allowed: Bool) -> RequestModifier {
        .init { $0.allowsCellularAccess = allowed }
    }

    /// Sets how redirects are followed; see ``RedirectPolicy``. The default is ``RedirectPolicy/follow``.
    public static func redirectPolicy(_ policy: RedirectPolicy) -> RequestModifier {
        .init(editingDraft: { $0.redirectPolicy = policy })
    }

    /// Sets when a failed attempt is sent again; see ``RetryPolicy``. By default nothing is retried.
    ///
    /// ```swift
    /// client.retryPolicy(.default)                          // every request of the client
    /// client.post("orders").retryPolicy(.default.retryingPost())
    /// ```
    /// The request's modifiers and authentication run once: every attempt sends the same request
    /// (an idempotency key set by a modifier stays the same), a file or multipart body read again
    /// from disk. A later `retryPolicy` replaces an earlier one, so a request overrides its client.
    public static func retryPolicy(_ policy: RetryPolicy) -> RequestModifier {
        .init(editingDraft: { $0.retryPolicy = policy })
    }

    /// The largest response body, in bytes, that `perform()` reads into memory; `nil` (the
    /// default) for no limit.
    ///
    /// ```swift
    /// client.maxResponseSize(10 << 20)               // 10 MiB for every request
    /// client.get("avatar").maxResponseSize(1 << 20)   // 1 MiB for this one
    /// ```
    /// A `Content-Length` above the limit fails before a byte of the body is read; a body that
    /// grows past it (chunked, or longer than announced) stops being read at the limit. Either
    /// fails as ``RequestError/transport(_:_:)`` with an ``ApiClientError`` (`.responseTooLarge`), and the
    /// connection is closed. The limit counts the bytes the transport delivers (after
    /// gzip or deflate decoding). Downloads are not limited: their body goes to disk, and their
    /// validators see at most 1 MiB of an error document. Redirect responses are not counted.
    public static func maxResponseSize(_ bytes: Int?) -> RequestModifier {
        .init(editingDraft: { $0.maxResponseSize = bytes })
    }

    /// Names the call for logs and metrics, such as an OpenAPI operation ID: middlewares read it
    /// as ``TransportRequest/name`` on every request of the call on the wire, observers in the
    /// request of each ``RequestEvent``. A later name replaces an earlier one.
    ///
    /// ```swift
    /// try await client.get("todos/7").name("getTodo").perform()
    /// ```
    public static func name(_ name: String) -> RequestModifier {
        .init(editing: { $0.name = name })
    }
}

extension RequestModifiable {
    /// Sets the idle timeout in seconds; sub-second values are honoured on Linux too.
    public func timeoutInterval(_ interval: TimeInterval) -> Self { modifier(.timeoutInterval(interval)) }
    /// Allows or forbids cellular networks (ignored on Linux).
    public func allowsCellularAccess(_ allowed: Bool) -> Self { modifier(.allowsCellularAccess(allowed)) }
    /// Sets how redirects are followed.
    public func redirectPolicy(_ policy: RedirectPolicy) -> Self { modifier(.redirectPolicy(policy)) }
    /// Sets when a failed attempt is sent again (by default never).
    public func retryPolicy(_ policy: RetryPolicy) -> Self { modifier(.retryPolicy(policy)) }
    /// Sets the largest response body `perform()` reads into memory, in bytes; `nil` for none.
    public func maxResponseSize(_ bytes: Int?) -> Self { modifier(.maxResponseSize(bytes)) }
    /// Names the call for logs and metrics (``TransportRequest/name``), e.g. an operation ID.
    public func name(_ name: String) -> Self { modifier(.name(name)) }
}

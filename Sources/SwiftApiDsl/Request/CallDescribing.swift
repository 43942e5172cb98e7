import Foundation

/// A description of one call that modifiers, validators and middlewares chain onto: a client's
/// request (``RequestBuilder``) or an ``Endpoint``. The chained calls are declared once, here,
/// for both, so a helper written against this protocol serves both too:
///
/// ```swift
/// nonisolated extension CallDescribing {
///     func traced(_ id: String) -> Self { header("X-Trace-Id", id).middleware(tracing) }
/// }
/// try await client.get("todos").traced(id).perform()
/// try await client.perform(Todos.all().traced(id))
/// ```
/// A type of your own conforms by reading and writing the call it holds as ``endpoint``.
public protocol CallDescribing: RequestModifiable, ResponseValidatable {
    /// The call as an endpoint that gives the raw body; writing it replaces the call (method,
    /// path or URL, body, modifiers, validators, middlewares) and keeps the rest of this value.
    var endpoint: Endpoint<Data> { get set }
}

extension CallDescribing {
    /// Returns a copy with `modifier` appended; it runs after the client's modifiers and authentication.
    public func modifier(_ modifier: RequestModifier) -> Self {
        editing { $0.modifiers.append(modifier) }
    }

    /// Returns a copy with `validator` appended; it runs after the client's validators, and
    /// replaces an earlier one with the same `id`.
    public func validator(_ validator: ResponseValidator) -> Self {
        editing { $0.validators.append(replacingSameId: validator) }
    }

    /// Returns a copy whose requests on the wire also go through `middleware`, after the
    /// client's middlewares; see ``Middleware``.
    public func middleware(_ middleware: Middleware) -> Self {
        editing { $0.middlewares.append(middleware) }
    }

    /// Returns a copy that receives the client's authentication whatever its URL's origin.
    ///
    /// By default authentication is added only when the request's origin (scheme, host, port,
    /// after the client's modifiers ran) is the base URL's. Opt in only for a server you trust
    /// with the same credentials:
    /// ```swift
    /// try await client.request(url: cdnUrl).authenticatingAnyOrigin().perform()
    /// ```
    public func authenticatingAnyOrigin() -> Self {
        editing { $0.authenticatesAnyOrigin = true }
    }

    /// A copy whose call `edit` changed.
    private func editing(_ edit: (inout CallDescription) -> Void) -> Self {
        var copy = self
        edit(&copy.endpoint.call)
        return copy
    }
}

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Header modifiers. Each sets its field, replacing any value set before; `nil` removes the field.

extension RequestModifier {
    /// Sets the header `name` to `value`; `nil` removes it.
    ///
    /// ```swift
    /// .header(.acceptLanguage, "fr-FR")
    /// .header("X-Trace-Id", traceId)        // any name, as a string literal
    /// .header(HeaderField(name), value)    // a name held in a `String`
    /// ```
    ///
    /// A name that is not an HTTP token, or a value with a control character such as a line
    /// break, fails the request as ``RequestError/modify(_:_:)`` with ``ApiClientError``.
    public static func header(_ name: HeaderField, _ value: String?) -> RequestModifier {
        .init(editing: { request in
            if let value { try FinishedRequestCheck.checkField(name.rawValue, value) }
            request.headerFields.set(value, for: name.rawValue)
        })
    }

    /// Sets the header `field` to `value`; `nil` removes it. The same as ``header(_:_:)``.
    @available(*, deprecated, renamed: "header(_:_:)", message: "one spelling: .header(name, value)")
    public static func header(field: HeaderField, _ value: String?) -> RequestModifier {
        header(field, value)
    }

    /// Sets `Accept`, e.g. `"application/json"`.
    public static func accept(_ value: String?) -> RequestModifier { header(.accept, value) }

    /// Sets `Content-Type`, e.g. `"application/json"`.
    public static func contentType(_ value: String?) -> RequestModifier { header(.contentType, value) }

    /// Sets `User-Agent`, e.g. `"my-app/5.0.1"`.
    public static func userAgent(_ value: String?) -> RequestModifier { header(.userAgent, value) }

    /// Sets `Authorization` to `value` as given.
    public static func authorization(_ value: String?) -> RequestModifier { header(.authorization, value) }

    /// Sets `Authorization` to `"<scheme> <credentials>"`, e.g. `authorization("Token", key)`.
    public static func authorization(_ scheme: String, _ credentials: String) -> RequestModifier {
        authorization("\(scheme) \(credentials)")
    }

    /// Sets `Authorization: Bearer <token>`.
    public static func bearer(_ token: String) -> RequestModifier { authorization("Bearer", token) }

    /// Sets `Authorization: Basic <base64(userId:password)>`, the pair encoded as UTF-8 (RFC 7617).
    public static func basic(userId: String, password: String) -> RequestModifier {
        authorization("Basic", Data("\(userId):\(password)".utf8).base64EncodedString())
    }
}

extension RequestModifiable {
    /// Sets the header `name` to `value`; `nil` removes it: `.header(.acceptLanguage, "fr")`, `.header("X-Trace", id)`.
    public func header(_ name: HeaderField, _ value: String?) -> Self { modifier(.header(name, value)) }
    /// Sets the header `field` to `value`; `nil` removes it. The same as ``header(_:_:)``.
    @available(*, deprecated, renamed: "header(_:_:)", message: "one spelling: .header(name, value)")
    public func header(field: HeaderField, _ value: String?) -> Self { modifier(.header(field, value)) }
    /// Sets `Accept`.
    public func accept(_ value: String?) -> Self { modifier(.accept(value)) }
    /// Sets `Content-Type`.
    public func contentType(_ value: String?) -> Self { modifier(.contentType(value)) }
    /// Sets `User-Agent`.
    public func userAgent(_ value: String?) -> Self { modifier(.userAgent(value)) }
    /// Sets `Authorization` to `value` as given.
    public func authorization(_ value: String?) -> Self { modifier(.authorization(value)) }
    /// Sets `Authorization` to `"<scheme> <credentials>"`.
    public func authorization(_ scheme: String, _ credentials: String) -> Self { modifier(.authorization(scheme, credentials)) }
    /// Sets `Authorization: Bearer <token>`.
    public func bearer(_ token: String) -> Self { modifier(.bearer(token)) }
    /// Sets `Authorization: Basic …` from a user id and a password.
    public func basic(userId: String, password: String) -> Self { modifier(.basic(userId: userId, password: password)) }
}

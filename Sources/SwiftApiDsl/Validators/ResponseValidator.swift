import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A check of a response before it is decoded: throw to reject it.
///
/// A thrown error fails the request as ``RequestError/validate(_:data:response:error:)``,
/// keeping the body and the `HTTPURLResponse`. All validators run, the client's first, then
/// the request's, until one throws.
/// ```swift
/// extension ResponseValidator {
///     static func notAccepted() -> ResponseValidator {
///         .init {
///             if $0.body.isEmpty, $0.httpResponse.statusCode == 202 { throw MyCustomError() }
///         }
///     }
/// }
/// ```
public struct ResponseValidator: Sendable {
    let validate: @Sendable (Response<Data>) async throws -> Void

    /// Creates a validator from a closure that throws to reject the response. It may `await`.
    public init(_ validate: @escaping @Sendable (Response<Data>) async throws -> Void) {
        self.validate = validate
    }
}

/// A value that takes response validators: ``ApiClient`` (for every request) and
/// ``RequestBuilder`` (for one request). Each call returns a new value.
public protocol ResponseValidatable: Sendable {
    /// Returns a copy with `validator` appended.
    func validator(_ validator: ResponseValidator) -> Self
}

extension ResponseValidatable {
    /// Returns a copy with a validator made from a throwing closure.
    ///
    /// ```swift
    /// client.validator {
    ///     if $0.httpResponse.value(forHTTPHeaderField: "Custom-Header") == nil { throw MyError() }
    /// }
    /// ```
    public func validator(_ validate: @escaping @Sendable (Response<Data>) async throws -> Void) -> Self {
        validator(ResponseValidator(validate))
    }
}

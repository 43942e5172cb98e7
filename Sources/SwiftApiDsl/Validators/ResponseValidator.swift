import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A check of a response before it is decoded: throw to reject it.
///
/// A thrown error fails the request as ``RequestError/validate(_:data:response:error:)``,
/// keeping the body and the `HTTPURLResponse`. All validators run, the client's first, then
/// the request's, until one throws; one with an ``id`` replaces an earlier one with the same id.
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
    /// The identity of a validator that replaces others, or `nil` for one that adds to them.
    ///
    /// Validators are **additive**: all of them run. A validator with an `id` **replaces** an
    /// earlier one with the same `id`, in its place: the client's, or one chained before it. So
    /// a request's ``httpStatusCodeRange(_:)-(Range<Int>)`` replaces the client's range for that
    /// request only, and the client's other validators still run. Your own validators can do
    /// the same by giving an `id`.
    public let id: String?
    let validate: (@Sendable (Response<Data>) async throws -> Void)?
    let explain: (@Sendable (Response<Data>, any Error, any ResponseDecoder) async throws -> Void)?
    /// The statuses a status-code validator accepts, so that a retried status names the range
    /// the caller set (``httpStatusCodeRange(_:)-(Range<Int>)``); `nil` for any other validator.
    var acceptedStatuses: Range<Int>? = nil

    /// Creates a validator from a closure that throws to reject the response. It may `await`.
    ///
    /// With an `id`, it replaces an earlier validator with the same `id` (see ``id``).
    public init(id: String? = nil, _ validate: @escaping @Sendable (Response<Data>) async throws -> Void) {
        self.id = id
        self.validate = validate
        self.explain = nil
    }

    /// Creates a validator that runs only when another one rejected the response, to throw a
    /// more precise error in place of the rejection: for example the server's error document.
    ///
    /// The closure gets the response and the error the rejecting validator threw. What it throws
    /// becomes the request's validation error; if it returns, the original error stands. When
    /// several explain a rejection, the first (client's first) that throws wins.
    /// ```swift
    /// ResponseValidator(onRejection: { response, _ in
    ///     if response.statusCode == 401 { throw SessionExpired() }
    /// })
    /// ```
    public init(id: String? = nil, onRejection explain: @escaping @Sendable (Response<Data>, any Error) async throws -> Void) {
        self.init(id: id, onRejection: { response, error, _ in try await explain(response, error) })
    }

    /// Creates a validator that explains a rejection, as above, and that also gets the client's
    /// JSON decoder, to decode an error document the way the client decodes everything else.
    /// ```swift
    /// ResponseValidator(onRejection: { response, _, decoder in
    ///     throw try decoder.decode(ApiProblem.self, from: response.body)
    /// })
    /// ```
    public init(id: String? = nil, onRejection explain: @escaping @Sendable (Response<Data>, any Error, any ResponseDecoder) async throws -> Void) {
        self.id = id
        self.validate = nil
        self.explain = explain
    }

    /// The range of the last status-code validator among `validators`, the one that decides.
    static func acceptedStatuses(in validators: [ResponseValidator]) -> Range<Int>? {
        validators.last(where: { $0.acceptedStatuses != nil })?.acceptedStatuses
    }

    /// `validators` in order, each one with an `id` put in the place of the first with that `id`.
    static func replacingSameIds(_ validators: [ResponseValidator]) -> [ResponseValidator] {
        validators.reduce(into: []) { $0.append(replacingSameId: $1) }
    }

    /// The error the first `onRejection` validator throws for `error`, else `error`.
    static func explain(_ error: any Error, of response: Response<Data>, with validators: [ResponseValidator],
                        decoder: any ResponseDecoder) async -> any Error {
        for explain in validators.lazy.compactMap(\.explain) {
            do {
                try await explain(response, error, decoder)
            } catch {
                return error
            }
        }
        return error
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

extension [ResponseValidator] {
    /// Appends `validator`, or puts it in the place of the validator with the same ``ResponseValidator/id``.
    mutating func append(replacingSameId validator: ResponseValidator) {
        guard let id = validator.id, let index = firstIndex(where: { $0.id == id }) else { return append(validator) }
        self[index] = validator
    }
}

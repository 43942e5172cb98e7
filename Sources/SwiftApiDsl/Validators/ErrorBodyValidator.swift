import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension ResponseValidator {
    /// When another validator rejects the response (typically ``httpStatusCodeRange(_:)-(Range<Int>)``
    /// for a status outside the accepted range), decodes the body as `type` and throws it as the
    /// validation error, so translating a server's error document is one cast:
    /// ```swift
    /// struct ApiProblem: Decodable, Error { let reason: String }
    ///
    /// let client = ApiClient(baseUrl: url).httpStatusCodeRange().decodingErrorBody(ApiProblem.self)
    /// do { try await client.get("todos/7").perform() } catch {
    ///     if let problem = error.asRequestError.validationError as? ApiProblem { show(problem.reason) }
    /// }
    /// ```
    /// A body that does not decode (an HTML error page, an empty body) leaves the original error,
    /// such as an ``ApiClientError`` (`.unacceptableStatusCode`), with the body kept in the ``RequestError``. A response
    /// that no validator rejects is never decoded: so a status range that accepts `404` for one
    /// request keeps its `404` a success. The body is decoded with `jsonDecoder`, else the
    /// client's decoder (its key and date strategies apply to error documents too). It has the ``id`` `decodingErrorBody(<type>)`: a second one for the same
    /// type replaces the first; different types are tried in order, the client's first.
    public static func decodingErrorBody<ErrorBody: Decodable & Error>(
        _ type: ErrorBody.Type, jsonDecoder: (any ResponseDecoder)? = nil
    ) -> ResponseValidator {
        .init(id: "decodingErrorBody(\(ErrorBody.self))", onRejection: { response, _, clientDecoder in
            guard !response.body.isEmpty,
                  let decoded = try? (jsonDecoder ?? clientDecoder).decode(ErrorBody.self, from: response.body)
            else { return }
            throw decoded
        })
    }
}

extension ResponseValidatable {
    /// Decodes a rejected response's body as `type` and throws it as the validation error;
    /// see ``ResponseValidator/decodingErrorBody(_:jsonDecoder:)``.
    public func decodingErrorBody<ErrorBody: Decodable & Error>(_ type: ErrorBody.Type, jsonDecoder: (any ResponseDecoder)? = nil) -> Self {
        validator(.decodingErrorBody(type, jsonDecoder: jsonDecoder))
    }
}

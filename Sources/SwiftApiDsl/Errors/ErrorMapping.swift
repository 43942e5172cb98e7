import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The one place where an app's error vocabulary meets the library's: a client's `mapError`, applied
// wherever a call ends (perform, endpoints, downloads, streams and their bodies, pages, resources,
// the mock), so that the app's code catches its own errors.

extension RequestModifiable where Self == ApiClient {
    /// Returns a copy that turns every failure of its calls into your app's own error: `transform`
    /// gets the ``RequestError`` and returns what the call throws instead.
    ///
    /// ```swift
    /// enum VitesseError: Error {
    ///     case notFound, unauthorized, custom(reason: String), offline, unknown
    /// }
    /// struct ApiProblem: Decodable, Error { let reason: String }
    ///
    /// let client = ApiClient(baseUrl: baseUrl)
    ///     .httpStatusCodeRange()
    ///     .decodingErrorBody(ApiProblem.self)
    ///     .mapError { error in
    ///         if let problem = error.validationError as? ApiProblem { return VitesseError.custom(reason: problem.reason) }
    ///         switch error.statusCode {
    ///         case 404: return VitesseError.notFound
    ///         case 401: return VitesseError.unauthorized
    ///         default: return error.underlyingError is URLError ? VitesseError.offline : VitesseError.unknown
    ///         }
    ///     }
    ///
    /// do { try await client.perform(Candidates.all()) } catch VitesseError.notFound { … }
    /// ```
    /// It applies to `perform`, endpoints, `download`, `stream()` and the reading of its body (so
    /// to lines and Server-Sent Events), `pages` and `Resource`'s `value()` and `reload()`
    /// (whose `state` keeps the ``RequestError``), and to a mock of the client. Observers still
    /// see the ``RequestError``. A cancellation is mapped too: check `error.isCancellation` in
    /// `transform` if your app's errors should keep it apart. A later call replaces an earlier one.
    public func mapError(_ transform: @escaping @Sendable (RequestError) -> any Error) -> ApiClient {
        self.with { $0.errorMapping = transform }
    }

    /// `error` as this client's calls throw it: the client's ``mapError(_:)`` applied, if it has
    /// one, for a helper that performs on the client's behalf and keeps the ``RequestError``
    /// itself (a resource's state does).
    public func mapped(_ error: any Error) -> any Error {
        self.settings.errorMapping.map { $0(error.asRequestError) } ?? error
    }
}

extension ResponseBody {
    /// The same body, its read errors turned by `client`'s ``ApiClient/mapError(_:)``.
    func mappingErrors(of client: ApiClient) -> ResponseBody {
        guard client.settings.errorMapping != nil else { return self }
        return ResponseBody(makeNext: {
            var iterator = self.makeAsyncIterator()
            return {
                do {
                    return try await iterator.next()
                } catch {
                    throw client.mapped(error)
                }
            }
        }, control: control)
    }
}

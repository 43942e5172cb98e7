import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Middleware {
    /// The built-in renewal of a refused credential, as a middleware around the whole call: when
    /// the response says `credential` was refused, it is renewed (once for every request refused
    /// with it) and the call is sent once more from the start with the request `replay` prepares
    /// anew, through the rest of the chain. A replay refused again is not renewed.
    ///
    /// A refused request that is the renewal's own call is not renewed (it would wait for
    /// itself): its refusal goes on to the validators. A failed renewal fails the call as
    /// ``RequestError/modify(_:_:)`` with an ``ApiClientError`` (`.credentialRefreshFailed`); a
    /// cancelled wait, as a cancellation.
    static func renewing(_ credential: UsedCredential, replay: @escaping @Sendable () async throws -> TransportRequest,
                         trace: RequestTrace?) -> Middleware {
        Middleware("credential renewal") { request, next in
            let response = try await next(request)
            // What `isExpired` sees: the body of a refusal (an error document, read up to 1 MiB),
            // none for a 2xx, which is read later by whoever asked for it.
            let (seen, rest) = (200..<300).contains(response.statusCode)
                ? (Data(), response.body)
                : try await Exchange.prefetch(response.body, upTo: 1 << 20)
            let head = response.head(for: request.url)
            // Unless it is renewed, the response goes on with its body as read so far, then the rest.
            var answer = response
            answer.body = rest
            guard credential.isRefused(by: Response(body: seen, head: head)) else { return answer }
            let renewed: Bool
            do {
                renewed = try await credential.renew()
            } catch is CancellationError {
                throw RequestError.modify(request.urlRequest, CancellationError())
            } catch {
                let failure = ApiClientError(.credentialRefreshFailed, message: "the credential could not be renewed: \(Redaction.describe(error))",
                                             underlyingError: error)
                throw RequestError.modify(request.urlRequest, failure)
            }
            guard renewed else { return answer }
            await rest.drain()
            let refusal = ApiClientError(.credentialExpired, message: "the server refused the credential (status \(response.statusCode)); it was renewed",
                                         statusCode: response.statusCode)
            trace?.retrying(attempt: 2, error: .validate(request.urlRequest, data: seen, response: head.httpResponse, error: refusal), delay: 0)
            return try await next(try await replay())
        }
    }
}

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Middleware {
    /// The built-in redirect following, as a middleware: each 3xx that `policy` follows has its
    /// small body dropped and the next request sent through the rest of the chain (so every hop
    /// goes through the later middlewares); the response that is not followed is the result.
    static func followingRedirects(_ policy: RedirectPolicy, trace: RequestTrace?) -> Middleware {
        Middleware("redirects") { request, next in
            var current = request
            var hops = 0
            while true {
                let response = try await next(current)
                // Most answers are not redirects: they leave without another async call.
                guard Redirect.statusCodes.contains(response.statusCode) else { return response }
                guard let following = try await Redirect.request(after: response, to: current, policy: policy, hops: hops) else { return response }
                await response.body.drain()
                hops += 1
                // The hop is the request edited where the policy's answer differs (URL, method,
                // fields, in-memory body): every other field goes along, the call's name and TLS
                // settings (checked against the hop's own host) among them. A streamed body goes
                // along whenever the method is kept, as an in-memory one does.
                var hop = current
                hop.urlRequest = following
                if hop.method != current.method { hop.body = nil }
                trace?.redirected(from: current, to: hop, statusCode: response.statusCode) // observe: redirect
                // What a custom policy returns is checked as a finished request is.
                do {
                    try FinishedRequestCheck.check(hop)
                } catch {
                    throw RequestError.transport(current.urlRequest, error)
                }
                current = hop
            }
        }
    }
}

extension Redirect {
    /// The request to send after `response` to `request`, or `nil` when the response is the
    /// result. Past the policy's maximum, or when the policy throws, the call fails as
    /// ``RequestError/transport(_:_:)`` (the response's body is dropped first). `response` has a
    /// redirect status (``statusCodes``): the middleware looks at the status before calling this.
    static func request(after response: TransportResponse, to request: TransportRequest, policy: RedirectPolicy, hops: Int) async throws -> URLRequest? {
        let urlRequest = request.urlRequest
        let httpResponse = response.head(for: request.url).httpResponse
        guard let proposed = proposedRequest(after: httpResponse, to: urlRequest) else { return nil }
        let redirect = Redirect(request: urlRequest, response: httpResponse, proposedRequest: proposed, count: hops + 1)
        let next: URLRequest?
        do {
            next = try await policy.decide(redirect)
        } catch {
            await response.body.drain()
            throw RequestError.transport(urlRequest, error)
        }
        guard next != nil else { return nil }
        guard hops < policy.maxRedirects else {
            await response.body.drain()
            throw RequestError.transport(urlRequest, URLError(.httpTooManyRedirects))
        }
        return next
    }
}

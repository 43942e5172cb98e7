import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Middleware {
    /// The built-in observers' view of the wire, as the last middleware before the transport:
    /// each request as the transport receives it and each response head as it arrives.
    static func observing(_ trace: RequestTrace) -> Middleware {
        Middleware("observers") { request, next in
            trace.sending(request) // observe: bytes sent
            let response = try await next(request)
            trace.headReceived(response.head(for: request.url), at: response.body.control?.firstReceived, for: request) // observe: head
            return response
        }
    }
}

import SwiftApiDsl

/// The transport the shared wire tests run on in this package: URLSession.
/// (Each transport package gives its own; the cases in `Shared/` are the same for all.)
enum WireTransport {
    static let shared: any HTTPTransport = URLSessionTransport()
}

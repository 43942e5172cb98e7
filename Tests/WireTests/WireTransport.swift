import Foundation
import SwiftApiDsl

/// The transport the shared wire tests run on in this package: URLSession.
/// (Each transport package gives its own; the cases in `Shared/` are the same for all.)
///
/// `SWIFTAPIDSL_PER_CHUNK=1` turns off the held hand-over of small buffered answers
/// (`URLSessionTransport(holdsSmallAnswers: false)`): `Scripts/test` runs the suites both ways.
enum WireTransport {
    static let bufferedCalls = ProcessInfo.processInfo.environment["SWIFTAPIDSL_PER_CHUNK"] != "1"

    static let shared: any HTTPTransport = URLSessionTransport(bufferedCalls: bufferedCalls)

    /// A transport of its own, with its own connection pool, for a test that needs to know which
    /// connection a request goes on.
    static func fresh() -> any HTTPTransport {
        URLSessionTransport(configuration: .ephemeral, bufferedCalls: bufferedCalls)
    }
}

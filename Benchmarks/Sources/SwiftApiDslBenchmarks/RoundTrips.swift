import AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOCore
import NIOFoundationCompat
import SwiftApiDsl
import SwiftApiDslAsyncHTTPClient

/// One way to GET the user record and decode it: straight through an HTTP engine ("raw"), or
/// through the DSL over the same engine. Each raw/DSL pair does the same work: one GET, a check
/// that the status is 200, one decode into `UserRecord`.
struct RoundTrip: Sendable {
    let engine: String
    let isDSL: Bool
    let perform: @Sendable () async throws -> Void

    var name: String { "\(isDSL ? "DSL over" : "raw") \(engine)" }

    struct UnexpectedAnswer: Error, CustomStringConvertible {
        let description: String
    }

    /// The pairs, raw first: URLSession then AsyncHTTPClient. `rawClient` is the raw
    /// AsyncHTTPClient client, configured like the DSL transport's own.
    static func pairs(server: URL, rawClient: HTTPClient) throws -> [(raw: RoundTrip, dsl: RoundTrip)] {
        let url = server.appendingPathComponent("user.json")
        let decoder = JSONDecoder()

        let rawURLSession = RoundTrip(engine: "URLSession", isDSL: false) {
            let (data, response) = try await URLSession.shared.data(for: URLRequest(url: url))
            guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw UnexpectedAnswer(description: "\(response)") }
            _ = try decoder.decode(UserRecord.self, from: data)
        }
        let urlSessionClient = ApiClient(urlSession: .shared, baseUrl: server).httpStatusCodeRange(200..<201)
        let dslURLSession = RoundTrip(engine: "URLSession", isDSL: true) {
            let _: UserRecord = try await urlSessionClient.get("user.json").perform()
        }

        let urlString = url.absoluteString
        let rawAHC = RoundTrip(engine: "AsyncHTTPClient", isDSL: false) {
            let response = try await rawClient.execute(HTTPClientRequest(url: urlString), timeout: .seconds(60))
            guard response.status == .ok else { throw UnexpectedAnswer(description: "\(response.status)") }
            let body = try await response.body.collect(upTo: 1 << 20)
            _ = try decoder.decode(UserRecord.self, from: body)
        }
        let ahcClient = ApiClient(asyncHTTPClient: .shared, baseUrl: server).httpStatusCodeRange(200..<201)
        let dslAHC = RoundTrip(engine: "AsyncHTTPClient", isDSL: true) {
            let _: UserRecord = try await ahcClient.get("user.json").perform()
        }
        return [(rawURLSession, dslURLSession), (rawAHC, dslAHC)]
    }
}

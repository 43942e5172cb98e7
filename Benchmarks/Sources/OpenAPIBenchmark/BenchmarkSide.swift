import AsyncHTTPClient
import Foundation
import GeneratedClient
import OpenAPIRuntime
import SwiftApiDsl
import SwiftApiDslAsyncHTTPClient
import SwiftApiDslOpenAPI
import OpenAPIAsyncHTTPClient

/// One way to perform the generated `getPools` operation and check its answer: the generated
/// client over `ApiClientTransport` (the library's chain on AsyncHTTPClient), or over
/// swift-openapi-async-http-client's plain adapter on an `HTTPClient` configured like the
/// library's own.
struct BenchmarkSide: Sendable {
    let name: String
    let perform: @Sendable () async throws -> Void

    struct UnexpectedAnswer: Error, CustomStringConvertible {
        let description: String
    }

    /// The sides in the order of the report: the plain adapter, a second plain adapter on its
    /// own `HTTPClient` (the A/A pair: the noise floor), and `ApiClientTransport`.
    static func all(serverURL: URL, expectedPools: Int) -> [BenchmarkSide] {
        func side(_ name: String, _ transport: any ClientTransport) -> BenchmarkSide {
            let client = Client(serverURL: serverURL, transport: transport)
            return BenchmarkSide(name: name) {
                let pools = try await client.getPools(query: .init(limit: 50)).ok.body.json.pools
                guard pools.count == expectedPools else {
                    throw UnexpectedAnswer(description: "\(pools.count) pools, expected \(expectedPools)")
                }
            }
        }
        func plainClient() -> HTTPClient {
            HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup,
                       configuration: SwiftApiDslAsyncHTTPClient.AsyncHTTPClientTransport.defaultConfiguration)
        }
        let plain = OpenAPIAsyncHTTPClient.AsyncHTTPClientTransport(configuration: .init(client: plainClient()))
        let plainAgain = OpenAPIAsyncHTTPClient.AsyncHTTPClientTransport(configuration: .init(client: plainClient()))
        let api = ApiClient(asyncHTTPClient: .shared, baseUrl: serverURL)
        return [
            side("plain adapter", plain),
            side("plain adapter (A/A)", plainAgain),
            side("ApiClientTransport", ApiClientTransport(api)),
        ]
    }
}

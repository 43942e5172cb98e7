// The program Scripts/check-install builds in the package of README's service manifest, which
// takes the library by git URL with every trait on: it imports the three opt-in products and
// makes one call over the AsyncHTTPClient engine, traced, counted and logged, to the test server.
import Foundation
import SwiftApiDsl
import SwiftApiDslAsyncHTTPClient
import SwiftApiDslOpenAPI
import SwiftApiDslServerObservability

struct Echo: Decodable, Sendable {
    let url: String
}

guard let address = ProcessInfo.processInfo.environment["HTTPBIN_URL"], let baseUrl = URL(string: address) else {
    print("HTTPBIN_URL is not set")
    exit(2)
}
let client = ApiClient(asyncHTTPClient: .shared, baseUrl: baseUrl).tracing().metrics()
// What a generated OpenAPI client would send through: the same client, as its transport.
let transport = ApiClientTransport(client)
let echo: Echo = try await transport.client.get("get").queryItem(name: "from", "install-check").perform()
print("MyService: GET \(echo.url)")

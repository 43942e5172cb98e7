import Foundation
import InMemoryTracing
import Logging
import SwiftApiDsl
import SwiftApiDslMock
import SwiftApiDslServerObservability
import Testing

// Compiled with main-actor isolation by default, as an app target in Xcode 26 is: the one-call
// API is used from main-actor code as it is written in the docs.

/// An app's service: its client traced, counted and logged.
final class OrdersService {
    let client: ApiClient

    init(client: ApiClient, tracer: InMemoryTracer) {
        self.client = client.tracing(tracer).metrics().logging(Logger(label: "orders"))
    }

    func ping() async throws -> Int {
        try await client.get("ping").perform().statusCode
    }
}

@Test func theOneCallAPIIsUsableFromMainActorCode() async throws {
    let mock = ApiClientMock(baseUrl: URL(string: "https://orders.example.com")!)
    mock.stub(.get, "ping", statusCode: 204)
    let tracer = InMemoryTracer()
    let service = OrdersService(client: mock.client, tracer: tracer)
    #expect(try await service.ping() == 204)
    #expect(tracer.finishedSpans.count == 1)
}

#if ServerObservability && AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MetricsTestKit
import SwiftApiDsl
import SwiftApiDslCache
import SwiftApiDslMock
import SwiftApiDslServerObservability
import Testing

@Suite struct MetricsTests {
    let metrics = TestMetrics()
    let mock = ApiClientMock(baseUrl: URL(string: "https://api.example.com/v1")!)

    @Test func eachCallIsTimedByMethodStatusAndServer() async throws {
        mock.stub(.get, "items/:id", statusCode: 200)
        let client = mock.client.metrics(metrics)
        _ = try await client.get("items/1").queryItem(name: "api_key", "s3cret").perform()
        _ = try await client.get("items/2").perform()
        let timer = try metrics.expectTimer("http.client.request.duration", [
            ("http.request.method", "GET"), ("http.response.status_code", "200"),
            ("server.address", "api.example.com"), ("server.port", "443"),
        ])
        #expect(timer.values.count == 2)
        #expect(timer.values.allSatisfy { $0 >= 0 })
        // No dimension names a path or a query: one timer for both items.
        #expect(metrics.timers.count == 1)
        #expect(!metrics.timers.flatMap(\.dimensions).contains { $0.1.contains("items") || $0.1.contains("s3cret") })
    }

    @Test func aFailureIsTimedWithItsErrorType() async throws {
        mock.appliesValidators = true
        mock.stub(.get, "missing", statusCode: 404)
        let client = mock.client.validator(.httpStatusCodeRange()).metrics(metrics)
        _ = try? await client.get("missing").perform()
        let timer = try metrics.expectTimer("http.client.request.duration", [
            ("http.request.method", "GET"), ("http.response.status_code", "404"),
            ("server.address", "api.example.com"), ("server.port", "443"), ("error.type", "404"),
        ])
        #expect(timer.values.count == 1)
    }

    @Test func theInFlightMeterGoesUpDuringACallAndBackAfter() async throws {
        let seenInFlight = Counter()
        let meterDimensions = [("http.request.method", "GET"), ("server.address", "api.example.com"), ("server.port", "443")]
        mock.stub(.get, "slow") { [metrics] request in
            if try metrics.expectMeter("http.client.active_requests", meterDimensions).lastValue == 1 { _ = seenInFlight.next() }
            return .response(request.urlRequest)
        }
        _ = try await mock.client.metrics(metrics).get("slow").perform()
        #expect(seenInFlight.next() == 2)
        #expect(try metrics.expectMeter("http.client.active_requests", meterDimensions).lastValue == 0)
    }

    @Test func retriesAndCacheOutcomesAreCounted() async throws {
        mock.stubFailingOnce("flaky", headers: ["Cache-Control": "max-age=60"])
        let client = mock.client.cache(.memory()).metrics(metrics)
        _ = try await client.get("flaky").retryPolicy(.immediate).perform()
        _ = try await client.get("flaky").retryPolicy(.immediate).perform()
        #expect(metrics.counterTotal(label: "swiftapidsl.client.retries") == 1)
        #expect(metrics.counterTotal(label: "swiftapidsl.client.credential_refreshes") == 0)
        #expect(metrics.counterTotal(label: "swiftapidsl.client.cache_outcomes", dimensions: [("outcome", "network")]) == 1)
        #expect(metrics.counterTotal(label: "swiftapidsl.client.cache_outcomes", dimensions: [("outcome", "stored")]) == 1)
    }

    @Test func aReplayAfterARefreshedCredentialIsARefreshNotARetry() async throws {
        let client = mock.clientRenewingItsToken(at: "me").metrics(metrics)
        _ = try await client.get("me").perform()
        #expect(metrics.counterTotal(label: "swiftapidsl.client.credential_refreshes") == 1)
        #expect(metrics.counterTotal(label: "swiftapidsl.client.retries") == 0)
    }
}
#endif

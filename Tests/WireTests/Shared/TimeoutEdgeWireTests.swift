#if WIRE_SUITES
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// `timeoutInterval` values at the edges: `0` and negative values mean "no timer", and values
/// too large for the engine's clock are clamped rather than crashing the process.
@Suite struct TimeoutEdgeWireTests {
    @Test(arguments: [0, -1, -TimeInterval.infinity])
    func zeroOrNegativeMeansNoTimer(interval: TimeInterval) async throws {
        // Bytes every 0.2 s for 2 s: any timer of a second or less would have to be fed; none fires.
        let response = try await TestServer.client("/faults/").get("slow-drip").timeoutInterval(interval).perform()
        #expect(response.body == Data("0123456789".utf8))
    }

    @Test(arguments: [TimeInterval.infinity, .greatestFiniteMagnitude, 1e16, .nan])
    func hugeValuesDoNotCrash(interval: TimeInterval) async throws {
        let response = try await TestServer.client().get("health").timeoutInterval(interval).perform()
        #expect(response.statusCode == 200)
    }

    @Test func zeroNeverFailsAtOnce() async throws {
        // URLSession on Linux used to fail about 9 in 10,000 such requests at once with a timeout.
        let client = try TestServer.client().timeoutInterval(0)
        for _ in 0..<200 {
            #expect(try await client.get("health").perform().statusCode == 200)
        }
    }
}
#endif

#if WIRE_SUITES
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// A body read into memory arrives whole and byte for byte, whatever its size and framing and
/// however the call reads it (plainly, under a size cap, with download progress).
@Suite struct WholeBodyWireTests {
    /// The test server's `/sized` body of `count` bytes.
    static func sized(_ count: Int) -> Data { Data((0..<count).map { UInt8($0 % 251) }) }

    @Test(arguments: [0, 1, 262_144, 1_048_576], ["length", "chunked"])
    func bodiesOfEverySizeArriveWhole(bytes: Int, framing: String) async throws {
        let data: Data = try await TestServer.client().get("sized")
            .queryItems(["bytes": "\(bytes)", "framing": framing])
            .perform()
        #expect(data.isSame(as: Self.sized(bytes)))
    }

    @Test func everyWayOfReadingABodyGetsTheSameBytes() async throws {
        let request = try TestServer.client().get("sized").queryItems(["bytes": "300000", "framing": "chunked"])
        let progress = ProgressLog()
        let whole: Data = try await request.perform()
        let capped: Data = try await request.maxResponseSize(1 << 20).perform()
        let followed: Data = try await request.downloadProgress { progress.note($0.completedBytes) }.perform()
        #expect(whole.isSame(as: Self.sized(300_000)))
        #expect(capped.isSame(as: whole))
        #expect(followed.isSame(as: whole))
        #expect(progress.last == 300_000)
    }

    @Test func aSizeCapStopsAChunkedBodyPastIt() async throws {
        let error = await #expect(throws: RequestError.self) {
            let _: Data = try await TestServer.client().get("sized")
                .queryItems(["bytes": "100000", "framing": "chunked"])
                .maxResponseSize(1000)
                .perform()
        }
        #expect((error?.underlyingError as? ApiClientError)?.code == .responseTooLarge)
    }
}

/// The progress values a handler saw. (`Locked` is package-internal.)
private final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Int64] = []
    func note(_ value: Int64) { lock.withLock { values.append(value) } }
    var last: Int64? { lock.withLock { values.last } }
}
#endif

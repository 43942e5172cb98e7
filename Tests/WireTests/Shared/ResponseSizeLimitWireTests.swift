#if WIRE_SUITES
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// `maxResponseSize` stops a body that is too large, announced or not, on every engine.
@Suite struct ResponseSizeLimitWireTests {
    /// The size error a failed call carries, if it carries one.
    private func tooLarge(_ error: RequestError?) -> ApiClientError? {
        guard case .transport(_, let source) = error else { return nil }
        return source as? ApiClientError
    }

    @Test func announcedLengthAboveTheLimitFails() async throws {
        let error = await #expect(throws: RequestError.self) {
            try await HttpBin.client().get("bytes/2048").maxResponseSize(1000).perform()
        }
        #expect(tooLarge(error) == ApiClientError(.responseTooLarge, message: "response body of 2048 bytes exceeds the limit of 1000 bytes", limit: 1000))
        #expect(error?.localizedDescription.contains("response body of 2048 bytes exceeds the limit of 1000 bytes") == true)
    }

    @Test func unannouncedBodyThatGrowsPastTheLimitFails() async throws {
        // Chunked, without Content-Length: 4096 bytes in 512-byte chunks.
        let error = await #expect(throws: RequestError.self) {
            try await HttpBin.client().get("stream-bytes/4096").queryItem(name: "chunk_size", "512")
                .maxResponseSize(1000).perform()
        }
        #expect(tooLarge(error) == ApiClientError(.responseTooLarge, message: "response body exceeds the limit of 1000 bytes", limit: 1000))
    }

    @Test func bodyOfExactlyTheLimitIsRead() async throws {
        let announced = try await HttpBin.client().get("bytes/1000").maxResponseSize(1000).perform()
        #expect(announced.body.count == 1000)
        let streamed = try await HttpBin.client().get("stream-bytes/1000").queryItem(name: "chunk_size", "100")
            .maxResponseSize(1000).perform()
        #expect(streamed.body.count == 1000)
    }

    @Test func requestOverridesTheClientsLimit() async throws {
        let client = try HttpBin.client().maxResponseSize(10)
        let error = await #expect(throws: RequestError.self) { try await client.get("bytes/100").perform() }
        #expect(tooLarge(error) == ApiClientError(.responseTooLarge, message: "response body of 100 bytes exceeds the limit of 10 bytes", limit: 10))
        #expect(try await client.get("bytes/100").maxResponseSize(nil).perform().body.count == 100)
    }

    @Test func downloadsAreNotLimited() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("bytes.bin")
        try await HttpBin.client().maxResponseSize(10).get("bytes/100").download(destination: destination)
        #expect(try Data(contentsOf: destination).count == 100)
    }
}
#endif

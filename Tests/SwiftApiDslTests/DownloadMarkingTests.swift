import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import SwiftApiDsl

/// The pipeline marks a download's requests, and only those: the URLSession transport paces
/// such a body on Linux (`URLSessionExchange`), never a caller's stream.
@Suite struct DownloadMarkingTests {
    /// Answers `from` with a redirect to `to`, anything else with a small body.
    static func redirecting() -> RecordingTransport {
        RecordingTransport { request in
            request.url?.lastPathComponent == "from" ? (Data(), 302, ["Location": "/v1/to"]) : (Data("body".utf8), 200, [:])
        }
    }

    @Test func aDownloadMarksEveryRequestItSendsARedirectHopIncluded() async throws {
        let transport = Self.redirecting()
        let destination = FileManager.default.temporaryDirectory.appendingPathComponent("marking-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: destination) }
        try await ApiClient.recording(transport).get("from").download(destination: destination)
        #expect(transport.requests.map(\.url?.lastPathComponent) == ["from", "to"])
        #expect(transport.requests.map(\.isDownload) == [true, true])
        #expect(try Data(contentsOf: destination) == Data("body".utf8))
    }

    @Test func aStreamAndAPerformAreNotMarked() async throws {
        let transport = Self.redirecting()
        let client = ApiClient.recording(transport)
        let streamed = try await client.get("from").stream()
        for try await _ in streamed.body {}
        _ = try await client.get("from").perform()
        #expect(transport.requests.map(\.isDownload) == [false, false, false, false])
        #expect(transport.requests.map(\.takesBodyAsItArrives) == [true, true, false, false])
    }
}

#if AsyncHTTPClient
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// Answers that crash the process through URLSession on Linux, so they run on this engine only
/// (Docs/LinuxNotes.md, "Malformed answers crash the process"): the documented way to survive
/// them is this transport. Every other fault runs on both engines (`FaultWireTests`).
@Suite struct FaultsURLSessionCannotSurviveTests {
    @Test func chunkedResponseWithTrailersIsReadWhole() async throws {
        // Twice on one connection: the trailer fields are consumed, and the connection stays usable.
        let client = try TestServer.client("/faults/").timeoutInterval(5)
        for _ in 0..<2 {
            let response = try await client.get("chunked-with-trailers").perform()
            #expect(response.statusCode == 200)
            #expect(response.body == Data("hello".utf8))
        }
    }

    @Test func cutUploadsTooLargeForMemoryFailCleanlyEveryTime() async throws {
        // Above `URLSessionTransport.largestBodyInMemory` URLSession streams from the file, the
        // path that crashes after such a cut; this engine streams every file and survives it.
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("large.bin")
        try Data(count: Int(URLSessionTransport.largestBodyInMemory) + 1).write(to: file)
        let client = try TestServer.client("/faults/").header("Connection", "close").timeoutInterval(5)
        for _ in 0..<20 {
            let error = await #expect(throws: RequestError.self) { try await client.post("cut-upload").uploadFile(file).perform() }
            #expect(error?.stage == "transport")
            #expect((error?.underlyingError as? URLError)?.code == .networkConnectionLost, "\(String(reflecting: error))")
        }
    }
}
#endif

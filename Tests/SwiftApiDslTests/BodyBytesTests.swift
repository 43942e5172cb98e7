import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import SwiftApiDsl

/// A middleware reads the body it signs with `makeBodyReader()` or `bodyData()`, and gets the
/// bytes the transport then sends: in memory, from a file, or a multipart form with a file.
@Suite struct BodyBytesTests {
    /// Hashes the body 7 bytes at a time into `X-Content-SHA256`.
    static let digest = Middleware("digest") { request, next in
        var bytes = Data()
        let reader = request.makeBodyReader(chunkSize: 7)
        while let chunk = try reader.next() { bytes.append(chunk) }
        #expect(try request.bodyData() == bytes)
        var signed = request
        signed.headerFields.set(SHA256.hex(bytes), for: "X-Content-SHA256")
        return try await next(signed)
    }

    /// A client whose transport answers with the bytes it sent as the body, and the digest the
    /// middleware put on the request in `X-Signed`.
    static let client = ApiClient(transport: InProcessTransport { request, body in
        body.yield(request.httpBody ?? Data())
        body.finish()
        return (200, ["X-Signed": request.value(forHTTPHeaderField: "X-Content-SHA256") ?? "none"])
    }, baseUrl: URL(string: "https://api.example.com/v1")!).middleware(digest)

    static func file(_ contents: Data) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("body-bytes-\(UUID().uuidString).bin")
        try contents.write(to: url)
        return url
    }

    @Test func theDigestOfAnInMemoryBodyIsOfTheBytesSent() async throws {
        let response = try await Self.client.post("notes").body(Data("hello".utf8)).perform()
        #expect(response.body == Data("hello".utf8))
        #expect(response.httpResponse.value(forHTTPHeaderField: "X-Signed") == "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824")
    }

    @Test func theDigestOfAFileUploadIsOfTheFileSent() async throws {
        let contents = Data((0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let file = try Self.file(contents)
        defer { try? FileManager.default.removeItem(at: file) }
        let response = try await Self.client.put("blobs/1").uploadFile(file).perform()
        #expect(response.body == contents)
        #expect(response.httpResponse.value(forHTTPHeaderField: "X-Signed") == SHA256.hex(contents))
    }

    @Test func theDigestOfAMultipartFormCoversItsBoundaryHeadersAndFile() async throws {
        let file = try Self.file(Data("file contents".utf8))
        defer { try? FileManager.default.removeItem(at: file) }
        let response = try await Self.client.post("documents")
            .multipartFormData(boundary: "B") {
                TextField(name: "type", value: "scan")
                FileField(name: "doc", fileURL: file, filename: "a.txt", mimeType: "text/plain")
            }
            .perform()
        let expected = "--B\r\nContent-Disposition: form-data; name=\"type\"\r\n\r\nscan\r\n"
            + "--B\r\nContent-Disposition: form-data; name=\"doc\"; filename=\"a.txt\"\r\nContent-Type: text/plain\r\n\r\nfile contents\r\n"
            + "--B--\r\n"
        #expect(String(decoding: response.body, as: UTF8.self) == expected)
        #expect(response.httpResponse.value(forHTTPHeaderField: "X-Signed") == SHA256.hex(Data(expected.utf8)))
    }

    @Test func aRequestWithoutABodyReadsNothing() async throws {
        let response = try await Self.client.delete("notes/1").perform()
        #expect(response.body.isEmpty)
        #expect(response.httpResponse.value(forHTTPHeaderField: "X-Signed") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func aStreamedBodyGivenBesideAnInMemoryOneIsReadAsTransportsSendIt() throws {
        let file = try Self.file(Data("from disk".utf8))
        defer { try? FileManager.default.removeItem(at: file) }
        let request = TransportRequest(url: URL(string: "https://api.example.com/v1")!, method: .post,
                                       httpBody: Data("in memory".utf8), body: .file(file))
        #expect(try request.bodyData() == Data("from disk".utf8))
        #expect(try request.makeBodyReader().next() == Data("from disk".utf8))
    }
}

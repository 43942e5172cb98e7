import Foundation
import Testing
@testable import SwiftApiDsl

@Suite struct MultipartEncodingTests {
    @Test func encodesPartsExactly() throws {
        let form = MultipartFormData(boundary: "B", parts: [
            TextField(name: "type", value: "licence"),
            DataField(name: "scan", filename: "a\"b\r\n.pdf", data: Data("PDF".utf8), mimeType: "application/pdf"),
        ])
        let expected = "--B\r\nContent-Disposition: form-data; name=\"type\"\r\n\r\nlicence\r\n"
            + "--B\r\nContent-Disposition: form-data; name=\"scan\"; filename=\"a%22b%0D%0A.pdf\"\r\nContent-Type: application/pdf\r\n\r\nPDF\r\n"
            + "--B--\r\n"
        #expect(String(decoding: try RequestBody.multipart(form).encodedData(), as: UTF8.self) == expected)
        #expect(try RequestBody.multipart(form).contentLength() == Int64(expected.utf8.count))
        #expect(form.contentType == "multipart/form-data; boundary=B")
        #expect(form.isInMemory)
    }

    /// Found by Fuzz/Harnesses/Multipart.swift: a `"` followed by a combining mark is one
    /// `Character`, which the escape left as it was, ending the quoted file name early.
    @Test func quoteFollowedByACombiningMarkIsEscaped() throws {
        let form = MultipartFormData(boundary: "B", parts: [
            DataField(name: "a\"\u{301}", filename: "\u{12E}\u{13C}\"\u{32E}", data: Data(), mimeType: ""),
        ])
        let expected = "--B\r\nContent-Disposition: form-data; name=\"a%22\u{301}\"; filename=\"\u{12E}\u{13C}%22\u{32E}\"\r\n"
            + "Content-Type: \r\n\r\n\r\n--B--\r\n"
        #expect(String(decoding: try RequestBody.multipart(form).encodedData(), as: UTF8.self) == expected)
    }

    @Test func fileFieldIsReadInChunksWithTheExactLength() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("mp-\(UUID().uuidString).bin")
        defer { try? FileManager.default.removeItem(at: file) }
        let content = Data((0..<10_000).map { UInt8($0 % 251) })
        try content.write(to: file)
        let form = MultipartFormData(boundary: "B", parts: [FileField(name: "f", fileURL: file)])
        #expect(!form.isInMemory)
        #expect(form.parts[0].filename == file.lastPathComponent)
        #expect(form.parts[0].mimeType == "application/octet-stream")
        let reader = RequestBody.multipart(form).makeReader(chunkSize: 4096)
        var chunks: [Data] = []
        while let chunk = try reader.next() { chunks.append(chunk) }
        #expect(chunks.allSatisfy { $0.count <= 4096 })
        let encoded = chunks.reduce(Data(), +)
        #expect(Int64(encoded.count) == (try RequestBody.multipart(form).contentLength()))
        let header = Data("--B\r\nContent-Disposition: form-data; name=\"f\"; filename=\"\(file.lastPathComponent)\"\r\nContent-Type: application/octet-stream\r\n\r\n".utf8)
        #expect(encoded == header + content + Data("\r\n--B--\r\n".utf8))
    }

    @Test func fileThatShrinksWhileSentFails() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("mp-\(UUID().uuidString).bin")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(repeating: 1, count: 100).write(to: file)
        let reader = RequestBody.multipart(MultipartFormData(boundary: "B", parts: [FileField(name: "f", fileURL: file)])).makeReader(chunkSize: 10)
        _ = try reader.next()
        _ = try reader.next()
        try Data(repeating: 1, count: 5).write(to: file)
        #expect { while try reader.next() != nil {} } throws: { ($0 as? ApiClientError)?.code == .unreadableBodyFile }
    }

    @Test func directoryIsNotAFileField() {
        let folder = FileManager.default.temporaryDirectory
        let form = MultipartFormData(boundary: "B", parts: [FileField(name: "f", fileURL: folder)])
        #expect { try RequestBody.multipart(form).contentLength() } throws: { ($0 as? ApiClientError)?.code == .unreadableBodyFile }
    }

    @Test func randomBoundariesDiffer() {
        let boundaries = Set((0..<100).map { _ in MultipartFormData.randomBoundary() })
        #expect(boundaries.count == 100)
        #expect(boundaries.allSatisfy { $0.hasPrefix("SwiftApiDsl-") && $0.count == 44 })
    }
}

@Suite struct FileBodyTests {
    @Test func fileBodyIsReadInChunksWithItsSizeAsLength() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("body-\(UUID().uuidString).bin")
        defer { try? FileManager.default.removeItem(at: file) }
        let content = Data((0..<10_000).map { UInt8($0 % 253) })
        try content.write(to: file)
        let body = RequestBody.file(file)
        #expect(try body.contentLength() == 10_000)
        let reader = body.makeReader(chunkSize: 4096)
        var chunks: [Data] = []
        while let chunk = try reader.next() { chunks.append(chunk) }
        #expect(chunks.map(\.count) == [4096, 4096, 1808])
        #expect(chunks.reduce(Data(), +) == content)
    }

    @Test func uploadOfAMissingFileNamesIt() async throws {
        let missing = URL(fileURLWithPath: "/nonexistent/\(UUID().uuidString)")
        let error = await #expect(throws: RequestError.self) {
            try await ApiClient.recording(RecordingTransport()).put("x").uploadFile(missing).perform()
        }
        guard case .modify(_, let source) = error else {
            Issue.record("expected .modify, got \(String(describing: error))")
            return
        }
        #expect((source as? ApiClientError)?.url == missing)
        #expect((source as? ApiClientError)?.description.hasPrefix("file /nonexistent/") == true)
    }
}

#if WIRE_SUITES
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// `multipartFormData { … }` as httpbin's `/post` parses it.
@Suite struct MultipartWireTests {
    @Test func textDataAndFileFieldsArrive() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("notes.txt")
        try Data("file contents\n".utf8).write(to: file)
        let includeExtra = true
        let echo: Echo = try await HttpBin.client().post("post")
            .multipartFormData {
                TextField(name: "type", value: "driver-license")
                DataField(name: "scan", filename: "scan.txt", data: Data("scanned".utf8), mimeType: "text/plain")
                FileField(name: "notes", fileURL: file, mimeType: "text/plain")
                if includeExtra { TextField(name: "extra", value: "yes") }
                for index in 1...2 { TextField(name: "item\(index)", value: "\(index)") }
            }
            .perform()
        #expect(echo.form == ["type": "driver-license", "extra": "yes", "item1": "1", "item2": "2"])
        #expect(echo.files == ["scan": "scanned", "notes": "file contents\n"])
        #expect(echo.header("Content-Type")?.hasPrefix("multipart/form-data; boundary=SwiftApiDsl-") == true)
    }

    @Test func contentLengthIsExactAndNothingIsChunked() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("big.txt")
        let text = String(repeating: "abcdefghij", count: 30_000)
        try Data(text.utf8).write(to: file)
        let form = MultipartFormData(boundary: "fixed-boundary", parts: [
            TextField(name: "a", value: "1"),
            FileField(name: "big", fileURL: file, mimeType: "text/plain"),
        ])
        let echo: Echo = try await HttpBin.client().post("post")
            .multipartFormData(boundary: "fixed-boundary") {
                TextField(name: "a", value: "1")
                FileField(name: "big", fileURL: file, mimeType: "text/plain")
            }
            .perform()
        // The exact length: both parts' headers, 300 kB of file, the separators and the closing line.
        #expect(echo.header("Content-Length") == String(try RequestBody.multipart(form).contentLength()))
        #expect(try RequestBody.multipart(form).contentLength() == 300_000 + 197)
        #expect(echo.header("Transfer-Encoding") == nil)
        #expect(echo.files == ["big": .one(text)])
    }

    @Test func namesAndFilenamesAreEscapedAndKeepUTF8() async throws {
        let echo: Echo = try await HttpBin.client().post("post")
            .multipartFormData {
                TextField(name: "café", value: "crème brûlée")
                DataField(name: "doc", filename: "résumé \"final\".txt", data: Data("cv".utf8), mimeType: "text/plain")
                TextField(name: "with\"quote", value: "q")
            }
            .perform()
        #expect(echo.form?["café"] == "crème brûlée")
        #expect(echo.files?["doc"] == "cv")
        // RFC 7578 section 2: a quote in a name is sent as %22, which the server decodes back.
        #expect(echo.form?["with\"quote"] == "q")
    }

    @Test func eachFormGetsItsOwnBoundary() async throws {
        let first: Echo = try await HttpBin.client().post("post").multipartFormData { TextField(name: "a", value: "1") }.perform()
        let second: Echo = try await HttpBin.client().post("post").multipartFormData { TextField(name: "a", value: "1") }.perform()
        #expect(first.header("Content-Type") != second.header("Content-Type"))
    }

    @Test func missingFileFailsAsModify() async throws {
        let missing = URL(fileURLWithPath: "/nonexistent/\(UUID().uuidString).pdf")
        let error = await #expect(throws: RequestError.self) {
            try await HttpBin.client().post("post").multipartFormData { FileField(name: "f", fileURL: missing) }.perform()
        }
        guard case .modify(_, let source) = error else {
            Issue.record("expected .modify, got \(String(describing: error))")
            return
        }
        #expect((source as? ApiClientError)?.code == .unreadableBodyFile)
        #expect((source as? ApiClientError)?.url == missing)
    }

    @Test func multipartFileUploadLeavesNoTemporaryFile() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("f.bin")
        try Data(repeating: 7, count: 1000).write(to: file)
        let boundary = "temporary-\(UUID().uuidString)"
        let echo: Echo = try await HttpBin.client().post("post").multipartFormData(boundary: boundary) { FileField(name: "f", fileURL: file) }.perform()
        #expect(echo.files?["f"] != nil)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)
            .filter { $0.contains(boundary) }
        #expect(leftovers == [])
    }
}
#endif

import Foundation
import SwiftApiDsl
import SwiftApiDslMock
import Testing

/// Every request is recorded in order, after modifiers, with an inspectable body.
@Suite struct RecordingTests {
    /// A todo draft with the keys as sent, to decode with a plain decoder.
    struct WireDraft: Decodable, Equatable {
        let is_done: Bool
        let title: String
    }

    let mock = TodosApi.client(baseUrl: Fixtures.baseUrl, token: "abc").mocked()

    @Test func requestsAreRecordedInOrderAfterModifiers() async throws {
        try await mock.get("todos").perform()
        try await mock.post("todos", body: TodoDraft(title: "Write tests", isDone: false)).perform()
        try await mock.delete("todos/7").header(.authorization, nil).perform()

        let recorded = mock.recordedRequests
        #expect(recorded.map(\.method) == [.get, .post, .delete])
        #expect(recorded.map(\.path) == ["todos", "todos", "todos/7"])
        #expect(recorded.map { $0.header(.authorization) } == ["Bearer abc", "Bearer abc", nil])
        #expect(recorded.allSatisfy { $0.header(.accept) == "application/json" })
    }

    @Test func jsonBodyIsRecordedAndDecodesWithTheClientsDecoder() async throws {
        try await mock.post("todos", body: TodoDraft(title: "Write tests", isDone: true)).perform()

        let posts = mock.recordedRequests(method: .post, path: "todos")
        #expect(posts.count == 1)
        let post = try #require(posts.first)
        #expect(post.header(.contentType) == "application/json")
        #expect(post.headers["Content-Type"] == "application/json")
        #expect(post.bodyText == #"{"is_done":true,"title":"Write tests"}"#)
        #expect(try post.decodedBody(as: TodoDraft.self) == TodoDraft(title: "Write tests", isDone: true))
        #expect(try post.decodedBody(as: WireDraft.self, jsonDecoder: JSONDecoder()) == WireDraft(is_done: true, title: "Write tests"))
    }

    @Test func decodedBodyOfARequestWithoutBodyThrows() async throws {
        try await mock.get("todos").perform()
        let get = try #require(mock.recordedRequests.first)
        #expect(get.httpBody == nil)
        #expect(get.bodyText == nil)
        #expect(throws: DecodingError.self) { try get.decodedBody(as: TodoDraft.self) }
    }

    @Test func multipartBodyIsRecordedWithItsParts() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scan = folder.appendingPathComponent("scan.pdf")
        try Data("%PDF".utf8).write(to: scan)

        try await mock.post("documents")
            .multipartFormData(boundary: "BOUNDARY") {
                TextField(name: "type", value: "invoice")
                DataField(name: "thumb", filename: "t.png", data: Data([1, 2]), mimeType: "image/png")
                FileField(name: "file", fileURL: scan, mimeType: "application/pdf")
            }
            .perform()

        let request = try #require(mock.recordedRequests.first)
        #expect(request.header(.contentType) == "multipart/form-data; boundary=BOUNDARY")
        #expect(request.httpBody == nil)
        let form = try #require(request.multipartFormData)
        #expect(form.boundary == "BOUNDARY")
        #expect(form.parts == [
            MultipartPart(name: "type", content: .data(Data("invoice".utf8))),
            MultipartPart(name: "thumb", filename: "t.png", mimeType: "image/png", content: .data(Data([1, 2]))),
            MultipartPart(name: "file", filename: "scan.pdf", mimeType: "application/pdf", content: .file(scan)),
        ])
        #expect(request.uploadedFile == nil)
    }

    @Test func uploadedFileIsRecordedByItsUrl() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("export.csv")
        try Data("a,b\n".utf8).write(to: file)

        try await mock.put("exports/1").uploadFile(file, contentType: "text/csv").perform()

        let request = try #require(mock.recordedRequests.first)
        #expect(request.body == .file(file))
        #expect(request.uploadedFile == file)
        #expect(request.multipartFormData == nil)
        #expect(request.header(.contentType) == "text/csv")
    }

    @Test func queryItemsAndPercentEncodedPathsAreRecordedDecoded() async throws {
        try await mock.get("search/rock & roll").queryItems([URLQueryItem(name: "q", value: "a+b"), URLQueryItem(name: "page", value: "2")]).perform()
        let request = try #require(mock.recordedRequests.first)
        #expect(request.path == "search/rock & roll")
        #expect(request.queryItems == [URLQueryItem(name: "q", value: "a+b"), URLQueryItem(name: "page", value: "2")])
    }

    @Test func requestsFilterByMethodAndPathPattern() async throws {
        try await mock.get("todos").perform()
        try await mock.get("todos/1").perform()
        try await mock.put("todos/2").perform()
        try await mock.get("users/1").perform()

        #expect(mock.recordedRequests().count == 4)
        #expect(mock.recordedRequests(method: .get).map(\.path) == ["todos", "todos/1", "users/1"])
        #expect(mock.recordedRequests(path: "todos/:id").map(\.path) == ["todos/1", "todos/2"])
        #expect(mock.recordedRequests(method: .put, path: "todos/:id").map(\.path) == ["todos/2"])
        #expect(mock.recordedRequests(method: .delete).isEmpty)
    }

    @Test func removeRecordedRequestsForgetsThem() async throws {
        try await mock.get("todos").perform()
        mock.removeRecordedRequests()
        #expect(mock.recordedRequests.isEmpty)
        try await mock.get("todos/1").perform()
        #expect(mock.recordedRequests.map(\.path) == ["todos/1"])
    }

    @Test func mockedRedirectIsFollowedAndEachHopIsRecorded() async throws {
        mock.stub(.post, "old", statusCode: 302, headers: ["Location": "/api/new"])
        try mock.stub(.get, "new", body: ["moved": true])
        mock.stub(.get, "away", statusCode: 307, headers: ["Location": "https://other.example.org/elsewhere/x"])

        let moved: [String: Bool] = try await mock.post("old").perform()
        #expect(moved == ["moved": true])
        try await mock.get("away").perform()

        #expect(mock.recordedRequests.map(\.description) == [
            "POST https://example.com/api/old", "GET https://example.com/api/new",
            "GET https://example.com/api/away", "GET https://other.example.org/elsewhere/x",
        ])
        #expect(mock.recordedRequests.map(\.path) == ["old", "new", "away", "elsewhere/x"])
    }

    @Test func descriptionNamesMethodAndUrlWithoutPassword() async throws {
        let mock = ApiClientMock(baseUrl: URL(string: "https://me:secret@example.com/api")!)
        try await mock.get("todos").perform()
        #expect(mock.recordedRequests.map(\.description) == ["GET https://me:%3Credacted%3E@example.com/api/todos"])
    }
}

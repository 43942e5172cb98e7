import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// cURL lines, exactly as they are printed.
@Suite struct CurlCommandTests {
    func request(_ method: String = "GET", _ url: String, headers: [String: String] = [:], body: String? = nil) -> URLRequest {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body.map { Data($0.utf8) }
        return request
    }

    @Test func getWithHeadersSortedAndSecretsRedacted() {
        let command = TransportRequest(urlRequest: request("GET", "https://me:pw@api.example.com/v1/items?page=2&api_key=k1", headers: [
            "Authorization": "Bearer t0k", "X-Api-Key": "k2", "Accept": "application/json", "X-Session-Id": "s3",
        ]))
        #expect(command.curlDescription == "curl -X GET 'https://me:%3Credacted%3E@api.example.com/v1/items?page=2&api_key=%3Credacted%3E' "
            + "-H 'Accept: application/json' -H 'Authorization: <redacted>' -H 'X-Api-Key: <redacted>' -H 'X-Session-Id: <redacted>'")
    }

    @Test func anUnusualMethodIsQuoted() {
        #expect(TransportRequest(urlRequest: request("M'X", "https://h.example/")).curlDescription == #"curl -X 'M'\''X' 'https://h.example/'"#)
    }

    @Test func singleQuotesAreEscapedForTheShell() {
        let command = TransportRequest(urlRequest: request("POST", "https://h.example/it's", headers: ["X-Note": "it's"], body: "{\"a\":\"it's\"}"))
        #expect(command.curlDescription == #"curl -X POST 'https://h.example/it'\''s' -H 'X-Note: it'\''s' --data-binary '{"a":"it'\''s"}'"#)
    }

    @Test func jsonBodySecretsAreRedactedAndOtherBodiesKeptAsSent() {
        let login = TransportRequest(urlRequest: request("POST", "https://h.example/login", headers: ["Content-Type": "application/json"],
                                                 body: #"{"user":"bob","password":"hunter2","nested":{"refresh_token":"r","n":[1,2]}}"#))
        #expect(login.curlDescription == #"curl -X POST 'https://h.example/login' -H 'Content-Type: application/json' "#
            + #"--data-binary '{"nested":{"n":[1,2],"refresh_token":"<redacted>"},"password":"<redacted>","user":"bob"}'"#)
        let plain = TransportRequest(urlRequest: request("PUT", "https://h.example/x", headers: ["Content-Type": "application/json"], body: #"{ "b":1, "a":2 }"#))
        #expect(plain.curlDescription == #"curl -X PUT 'https://h.example/x' -H 'Content-Type: application/json' --data-binary '{ "b":1, "a":2 }'"#)
    }

    @Test func formBodySecretsAreRedacted() {
        let command = TransportRequest(urlRequest: request("POST", "https://h.example/token", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                                   body: "grant_type=password&username=bob&password=hun%20ter&client_secret=s"))
        #expect(command.curlDescription == "curl -X POST 'https://h.example/token' -H 'Content-Type: application/x-www-form-urlencoded' "
            + "--data-binary 'grant_type=password&username=bob&password=%3Credacted%3E&client_secret=%3Credacted%3E'")
    }

    @Test func binaryBodyIsReadFromStandardInput() {
        var binary = request("POST", "https://h.example/b")
        binary.httpBody = Data([0xFF, 0x00, 0xFE])
        #expect(TransportRequest(urlRequest: binary).curlDescription
            == "curl -X POST 'https://h.example/b' --data-binary @- # 3 bytes of binary data, to give on standard input")
    }

    @Test func fileBodyIsReadFromItsPath() {
        let upload = request("PUT", "https://h.example/f", headers: ["Content-Type": "video/mp4"])
        let command = TransportRequest(urlRequest: upload, body: .file(URL(fileURLWithPath: "/tmp/my movie's.mp4")))
        #expect(command.curlDescription == #"curl -X PUT 'https://h.example/f' -H 'Content-Type: video/mp4' --data-binary @'/tmp/my movie'\''s.mp4'"#)
    }

    @Test func multipartBecomesFormFieldsWithoutTheBoundaryHeader() {
        let form = MultipartFormData(boundary: "b0undary", parts: [
            TextField(name: "title", value: "@not a file"),
            TextField(name: "password", value: "hunter2"),
            DataField(name: "avatar", filename: "me;1.png", data: Data([1, 2]), mimeType: "image/png"),
            FileField(name: "video", fileURL: URL(fileURLWithPath: "/tmp/clip.mp4"), mimeType: "video/mp4"),
            FileField(name: "doc", fileURL: URL(fileURLWithPath: "/tmp/a.pdf"), filename: "report.pdf"),
        ])
        let upload = request("POST", "https://h.example/u", headers: ["Content-Type": form.contentType, "Content-Length": "999", "X-Trace": "1"])
        #expect(TransportRequest(urlRequest: upload, body: .multipart(form)).curlDescription == "curl -X POST 'https://h.example/u' "
            + "-H 'X-Trace: 1' --form-string 'title=@not a file' --form-string 'password=<redacted>' "
            + #"-F 'avatar=@"me;1.png";type=image/png' -F 'video=@"/tmp/clip.mp4";type=video/mp4' "#
            + #"-F 'doc=@"/tmp/a.pdf";filename="report.pdf";type=application/octet-stream'"#)
    }
}

/// `curlDescription()`: a request prepared by its client, as a cURL line, nothing sent.
@Suite struct CurlDescriptionTests {
    let client = ApiClient(transport: RecordingTransport(), baseUrl: URL(string: "https://api.example.com/v1")!)
        .userAgent("app/1")
        .authentication(.bearer("s3cret"))

    @Test func aPreparedRequestWithItsClientsModifiersAndAuthentication() async throws {
        let line = try await client.post("todos", body: ["title": "Buy milk"]).queryItem(name: "notify", "yes").curlDescription()
        #expect(line == "curl -X POST 'https://api.example.com/v1/todos?notify=yes' -H 'Authorization: <redacted>' "
            + #"-H 'Content-Type: application/json' -H 'User-Agent: app/1' --data-binary '{"title":"Buy milk"}'"#)
    }

    @Test func aFileBodyIsReadFromItsPath() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("CurlDescription-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("clip.mp4")
        try Data("movie".utf8).write(to: file)
        let line = try await client.put("clips/1", bypassAuth: true).uploadFile(file, contentType: "video/mp4").curlDescription()
        #expect(line == "curl -X PUT 'https://api.example.com/v1/clips/1' -H 'Content-Type: video/mp4' -H 'User-Agent: app/1' "
            + "--data-binary @'\(file.path)'")
    }
}

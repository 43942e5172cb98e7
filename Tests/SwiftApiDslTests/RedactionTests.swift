import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import SwiftApiDsl

/// Secret values never appear in any text form of an error, whatever the header is called.
@Suite struct RedactionTests {
    static let secrets = ["tok-123", "key-456", "sess-789", "cook-000", "sig-abc", "hunter2", "qtok-321"]

    /// Every text a user may print an error as.
    static func texts(of error: RequestError) -> [String] {
        var dumped = ""
        dump(error, to: &dumped)
        let mirror = Mirror(reflecting: error).children.map { "\($0.label ?? ""): \($0.value)" }.joined(separator: "\n")
        return [error.description, error.debugDescription, error.localizedDescription, String(reflecting: error),
                String(describing: error), "\(error)", dumped, mirror]
    }

    func failingRequest(validatorFails: Bool) async -> RequestError? {
        let base = URL(string: "https://me:hunter2@api.example.com/v1")!
        let transport = RecordingTransport { _ in (Data("nope".utf8), 401, ["Set-Cookie": "cook-000"]) }
        HeaderField.redact(["X-Streamkit-Signature"])
        let client = ApiClient(transport: transport, baseUrl: base)
            .bearer("tok-123")
            .header("X-Api-Key", "key-456")
            .header("X-Session-Id", "sess-789")
            .header("Set-Cookie", "cook-000")
            .header("X-Streamkit-Signature", "sig-abc")
            .header("X-Request-Id", "visible-1")
            .queryItem(name: "access_token", "qtok-321")
            .queryItem(name: "page", "2")
        let request = validatorFails ? client.get("me").httpStatusCodeRange() : client.get("me").modifier { _ in throw URLError(.badURL) }
        do {
            try await request.perform()
            return nil
        } catch {
            return error.asRequestError
        }
    }

    @Test func noSecretAppearsInAnyTextForm() async throws {
        for validatorFails in [true, false] {
            let error = try #require(await failingRequest(validatorFails: validatorFails))
            for text in Self.texts(of: error) {
                for secret in Self.secrets { #expect(!text.contains(secret), "\(secret) leaked in \(text)") }
            }
            // The request itself is untouched: only its text forms are redacted.
            #expect(error.request?.value(forHTTPHeaderField: "X-Api-Key") == "key-456")
        }
    }


    @Test func aDraftShowsNoSecretInAnyTextForm() async throws {
        let seen = Locked([String]())
        let transport = RecordingTransport { _ in (Data(), 200, [:]) }
        let client = ApiClient(transport: transport, baseUrl: URL(string: "https://me:hunter2@api.example.com/v1")!)
            .bearer("tok-123")
            .header("X-Api-Key", "key-456")
            .queryItem(name: "access_token", "qtok-321")
        try await client.get("me").modifier(RequestModifier(editingDraft: { draft in
            var dumped = ""
            dump(draft, to: &dumped)
            let texts = ["\(draft)", String(reflecting: draft), dumped]
            seen.withLock { $0 = texts }
        })).perform()
        let texts = seen.withLock { $0 }
        #expect(texts.count == 3)
        for text in texts {
            for secret in ["tok-123", "key-456", "qtok-321", "hunter2"] { #expect(!text.contains(secret), "\(secret) leaked in \(text)") }
        }
    }

    @Test func mirrorShowsRedactedSecretsAndOtherValues() async throws {
        let error = try #require(await failingRequest(validatorFails: true))
        let headers = Mirror(reflecting: error).children.first { $0.label == "headers" }?.value as? [String]
        #expect(headers == [
            "Authorization: <redacted>",
            "Set-Cookie: <redacted>",
            "X-Api-Key: <redacted>",
            "X-Request-Id: visible-1",
            "X-Session-Id: <redacted>",
            "X-Streamkit-Signature: <redacted>",
        ])
        #expect(error.description == "RequestError.validate: GET https://me:%3Credacted%3E@api.example.com/v1/me"
            + "?access_token=%3Credacted%3E&page=2 got status 401 (4 bytes) rejected by a validator: "
            + "status code 401 is outside 200..<300")
    }

    @Test func everyWordMakesANameSecretIgnoringCase() {
        let secret: [HeaderField] = ["Authorization", "proxy-authorization", "X-Auth-Token", "X-API-KEY", "apikey",
                                     "Client-Secret", "Cookie", "Set-Cookie", "X-Session-Id", "X-Password"]
        for field in secret { #expect(field.isRedacted, "\(field)") }
        let plain: [HeaderField] = ["Accept", "Content-Type", "X-Request-Id", "User-Agent", "X-Streamkit-Unlisted"]
        for field in plain { #expect(!field.isRedacted, "\(field)") }
    }

    @Test func addedNamesMatchWholeIgnoringCaseForEveryClient() {
        HeaderField.redact(["X-Streamkit-Added"])
        #expect(HeaderField("x-streamkit-added").isRedacted)
        #expect(!HeaderField("X-Streamkit-Added-Not").isRedacted)
    }

    @Test func urlsKeepEverythingButSecrets() {
        let url = URL(string: "https://bob:pw@h.example/p?api_key=a%20b&q=c%20d&token&author=x#frag")!
        #expect(Redaction.url(url) == "https://bob:%3Credacted%3E@h.example/p?api_key=%3Credacted%3E&q=c%20d&token&author=%3Credacted%3E#frag")
        let plain = URL(string: "https://h.example/p?q=c%20d")!
        #expect(Redaction.url(plain) == "https://h.example/p?q=c%20d")
        #expect(Redaction.headers(["Location": "/p?token=x&a=b", "Referer": "https://u:p@h.example/", "Accept": "a?token=x"])
            == ["Location": "/p?token=%3Credacted%3E&a=b", "Referer": "https://u:%3Credacted%3E@h.example/", "Accept": "a?token=x"])
    }

    /// `RequestDraft` is public: a draft made outside a call hides its cookie and keeps the rest readable.
    @Test func aDraftMadeDirectlyHidesCookiesAndKeepsWhatIsNoSecret() throws {
        let url = try #require(URL(string: "https://me:hunter2@example.com/a?api_key=k3y&page=2"))
        let request = TransportRequest(url: url, headerFields: ["Authorization": "Bearer s3cret", "Cookie": "id=c00kie", "Accept": "text/plain"])
        let draft = RequestDraft(request: request, jsonEncoder: JSONEncoder())
        var dumped = ""
        dump(draft, to: &dumped)
        for text in [String(describing: draft), String(reflecting: draft), dumped] {
            for secret in ["hunter2", "k3y", "s3cret", "c00kie"] {
                #expect(!text.contains(secret), "\(secret) in \(text)")
            }
        }
        #expect(dumped.contains("Accept: text/plain"))
        #expect(dumped.contains("page=2"))
    }
}

import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

// The documented usage (shared/seeds/002, "Create an API Client" to "Extend"), compiled and run.
// Snippets are as documented, except where the document itself does not compile: a `try await`
// before `perform()`, and a stray closing brace. Clients that the document builds on URLSession
// are switched to a local transport with `.transport(_:)` before they perform, so nothing leaves
// the machine.

private struct Profile: Codable, Equatable, Sendable { var name: String }
private struct News: Codable, Equatable, Sendable { var headline: String }
private struct MyError: Error {}
private struct MyCustomError: Error {}

/// A transport that answers like the imaginary API of the documentation.
private func makeSeedApi() -> RecordingTransport { RecordingTransport { request in
    switch request.urlRequest.url?.path {
    case "/user/profile": (Data(#"{"name":"Ada"}"#.utf8), 200, ["Content-Type": "application/json", "Custom-Header": "1"])
    case "/news": (Data(#"{"headline":"Swift 6"}"#.utf8), 200, ["Custom-Header": "1"])
    default: (Data("file".utf8), 200, ["Custom-Header": "1"])
    }
} }

private func getToken() async throws -> String { "t0k3n" }

extension RequestModifier {
    static func customModifier() -> RequestModifier {
        .init {
            $0.cachePolicy = .reloadIgnoringLocalCacheData
        }
    }
}

extension RequestModifiable {
    func customModifier() -> Self {
        modifier(.customModifier())
    }
}

extension ResponseValidator {
    static func customValidator() -> ResponseValidator {
        .init {
            if $0.body.isEmpty, $0.httpResponse.statusCode == 202 {
                throw MyCustomError()
            }
        }
    }
}

extension ResponseValidatable {
    func customValidator() -> Self {
        validator(.customValidator())
    }
}

@Suite struct SeedUsageTests {
    @Test func createAndUse() async throws {
        let seedApi = makeSeedApi()
        let baseUrl = URL(string: "https://my-domain.com")!
        let client = ApiClient(baseUrl: baseUrl)
            .httpStatusCodeRange() // Validator ensuring status code is in 200..<300
            .transport(seedApi)
        let newProfile = Profile(name: "Grace")
        let fileData = Data("%PDF".utf8)
        let localDestinationUrl = FileManager.default.temporaryDirectory.appendingPathComponent("bill-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: localDestinationUrl) }

        // Simple fetch
        let profile: Profile = try await client.get("user/profile").perform() // `Profile` must conform to `Decodable`
        #expect(profile == Profile(name: "Ada"))

        // Post a JSON body
        try await client.post("user/profile", body: newProfile).perform() // `newProfile`'s type must conform to `Encodable`

        // Fetch both parsed JSON body and `HTTPURLResponse`
        let response1: Response<Profile> = try await client.get("user/profile").perform()
        #expect(response1.httpResponse.statusCode == 200)

        // Fetch both `Data` body and `HTTPURLResponse`
        let response2: Response<Data> = try await client.get("user/profile").perform()
        #expect(response2.body == Data(#"{"name":"Ada"}"#.utf8))

        // Add query items
        let response3: Response<Profile> = try await client
            .get("user/profile")
            .queryItem(name: "context", "new-user") // One by one
            .queryItems([ // Or all at once
                "user": "48",
                "flow": "signUp"
            ])
            .perform()
        #expect(response3.body == Profile(name: "Ada"))

        // Add multipart form data
        let response4: Profile = try await client
            .post("user/profile")
            .multipartFormData {
                TextField(name: "type", value: "driver-license")
                DataField(name: "file",
                          filename: "file.pdf",
                          data: fileData,
                          mimeType: "application/pdf")
            }
            .perform()
        #expect(response4 == Profile(name: "Ada"))

        // Download a file
        try await client.get("user/bills/8").download(destination: localDestinationUrl)
        #expect(try Data(contentsOf: localDestinationUrl) == Data("file".utf8))

        let sent = seedApi.requests.suffix(7).map { $0.urlRequest }
        #expect(sent.map { $0.url?.absoluteString } == [
            "https://my-domain.com/user/profile", "https://my-domain.com/user/profile", "https://my-domain.com/user/profile",
            "https://my-domain.com/user/profile", "https://my-domain.com/user/profile?context=new-user&flow=signUp&user=48",
            "https://my-domain.com/user/profile", "https://my-domain.com/user/bills/8",
        ])
        #expect(sent[1].httpBody == Data(#"{"name":"Grace"}"#.utf8))
    }

    @Test func authentication() async throws {
        let seedApi = makeSeedApi()
        let baseUrl = URL(string: "https://my-domain.com")!
        // Using a built-in modifier asynchronously
        let client1 = ApiClient(baseUrl: baseUrl)
            .authentication {
                let token = try await getToken()
                return .bearer(token)
            }
        // Or a custom one
        let client2 = ApiClient(baseUrl: baseUrl)
            .authentication {
                let token = try await getToken()
                $0.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
            }
        for client in [client1.transport(seedApi), client2.transport(seedApi)] {
            // Authenticated
            let profile: Profile = try await client.get("user/profile").perform()
            // Unauthenticated
            let news: News = try await client.get("news", bypassAuth: true).perform()
            #expect(profile == Profile(name: "Ada"))
            #expect(news == News(headline: "Swift 6"))
            let sent = seedApi.requests.suffix(2).map { $0.urlRequest.value(forHTTPHeaderField: "Authorization") }
            #expect(sent == ["Bearer t0k3n", nil])
        }
    }

    @Test func advancedUsage() async throws {
        let seedApi = makeSeedApi()
        let baseUrl = URL(string: "https://my-domain.com")!
        let customSession = URLSession(configuration: .ephemeral)
        let customEncoder = JSONEncoder()
        let customDecoder = JSONDecoder()
        let someEncodable = ["a": 1]
        // Pass custom attributes
        let client = ApiClient(urlSession: customSession,
                               baseUrl: baseUrl,
                               jsonEncoder: customEncoder,
                               jsonDecoder: customDecoder)
            // Use built-in request modifiers
            .userAgent("my-app/5.0.1")
            .allowsCellularAccess(false)
            .timeoutInterval(8)
            // Custom URLRequest modifier
            .modifier { // You can try and await in all modifiers
                $0.cachePolicy = .reloadIgnoringLocalCacheData
            }
            // Custom validator
            .validator {
                if $0.httpResponse.value(forHTTPHeaderField: "Custom-Header") == nil {
                    throw MyError()
                }
            }
            .transport(seedApi)

        let news: News = try await client
            .get("news", bypassAuth: true, body: someEncodable, jsonEncoder: customEncoder)
            .allowsCellularAccess(false) // Use built-in modifiers
            .modifier { // Or custom ones
                $0.cachePolicy = .reloadIgnoringLocalCacheData
            }
            .validator { // Add custom validation
                if $0.body.isEmpty, $0.httpResponse.statusCode == 202 {
                    throw MyCustomError()
                }
            }
            .perform(jsonDecoder: customDecoder)
        #expect(news == News(headline: "Swift 6"))
        let sent = try #require(seedApi.requests.last?.urlRequest)
        #expect(sent.value(forHTTPHeaderField: "User-Agent") == "my-app/5.0.1")
        #expect(sent.timeoutInterval == 8)
        #expect(sent.cachePolicy == .reloadIgnoringLocalCacheData)
        #expect(sent.httpBody == Data(#"{"a":1}"#.utf8))
    }

    @Test func errors() async throws {
        let client = ApiClient(baseUrl: URL(string: "https://my-domain.com")!)
            .transport(RecordingTransport { _ in (Data(), 500, [:]) })
            .validator { _ in throw MyError() }
        var printed: [String] = []
        do {
            let profile: Profile = try await client.get("user/profile").perform()
            Issue.record("unexpected \(profile)")
        } catch {
            let requestError = error.asRequestError

            switch requestError {
                case .transport(_, let sourceError):
                    printed.append("transport error: \(sourceError.localizedDescription)")
                default:
                    printed.append("other error")
            }

            // Priviledged access to validation error
            if requestError.validationError is MyError {
                printed.append("MyError was thrown during validation")
            }

            // Rich description of the error, including request URL for traceability
            printed.append(requestError.localizedDescription)
        }
        #expect(printed == [
            "other error",
            "MyError was thrown during validation",
            "RequestError.validate: GET https://my-domain.com/user/profile got status 500 (0 bytes) rejected by a validator: MyError()",
        ])
    }

    @Test func extend() async throws {
        let transport = RecordingTransport { _ in (Data(), 202, [:]) }
        let client = ApiClient(transport: transport, baseUrl: URL(string: "https://my-domain.com")!).customModifier()
        let error = await #expect(throws: RequestError.self) { try await client.get().customValidator().perform() }
        #expect(error?.validationError is MyCustomError)
        #expect(transport.requests.first?.urlRequest.cachePolicy == .reloadIgnoringLocalCacheData)
    }
}

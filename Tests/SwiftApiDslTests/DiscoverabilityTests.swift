import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

// The calls made easier to find: typed perform, headers through `HeaderField`,
// verbs declared on the client, authentication read per request, and `RequestError`'s shortcuts.

private struct Profile: Codable, Equatable, Sendable { var name: String }
private struct Due: Encodable { var dueDate: String }

@Suite struct DiscoverabilityTests {
    let transport = RecordingTransport { _ in (Data(#"{"name":"Ada"}"#.utf8), 201, ["Content-Type": "application/json"]) }
    var client: ApiClient { .recording(transport) }

    @Test func typedPerformDecodesWithoutAnnotation() async throws {
        let profile = try await client.get("me").perform(as: Profile.self)
        #expect(profile == Profile(name: "Ada"))

        let response = try await client.get("me").perform(as: Response<Profile>.self)
        #expect(response.body == Profile(name: "Ada"))
        #expect(response.statusCode == 201)

        let raw = try await client.get("me").perform(as: Data.self)
        #expect(String(decoding: raw, as: UTF8.self) == #"{"name":"Ada"}"#)
        let rawResponse = try await client.get("me").perform(as: Response<Data>.self)
        #expect(rawResponse.body == raw)
    }

    @Test func typedPerformUsesTheGivenDecoder() async throws {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .custom { _ in AnyKey("name") }
        let transport = RecordingTransport { _ in (Data(#"{"full_name":"Grace"}"#.utf8), 200, [:]) }
        let profile = try await ApiClient.recording(transport).get("me").perform(as: Profile.self, jsonDecoder: decoder)
        #expect(profile == Profile(name: "Grace"))
    }

    @Test func typedPerformNamesTheTypeWhenDecodingFails() async throws {
        let error = await #expect(throws: RequestError.self) { try await client.get("me").perform(as: [Profile].self) }
        guard case .fatal(.decoding(let type, _, _, _)) = error else {
            Issue.record("expected a decoding failure, got \(String(describing: error))")
            return
        }
        #expect(type == "Array<Profile>")
        #expect(error?.statusCode == 201)
        #expect(error?.responseBody == Data(#"{"name":"Ada"}"#.utf8))
    }

    @Test func annotatedPerformStillPicksTheRequestedShape() async throws {
        let profile: Profile = try await client.get("me").perform()
        let response: Response<Profile> = try await client.get("me").perform()
        let raw: Response<Data> = try await client.get("me").perform()
        #expect(profile == Profile(name: "Ada"))
        #expect(response.body == profile)
        #expect(raw.body == Data(#"{"name":"Ada"}"#.utf8))
    }

    @Test func headerTakesConstantsLiteralsAndStrings() async throws {
        let name = "X-From-Variable"
        try await client.get()
            .header(.acceptLanguage, "fr-FR")
            .header("X-Trace", "t1")
            .header(HeaderField(name), "v")
            .perform()
        let sent = try #require(transport.requests.last?.urlRequest)
        #expect(sent.value(forHTTPHeaderField: "Accept-Language") == "fr-FR")
        #expect(sent.value(forHTTPHeaderField: "X-Trace") == "t1")
        #expect(sent.value(forHTTPHeaderField: "X-From-Variable") == "v")
    }

    @Test func verbsOnTheClientSendTheirMethod() async throws {
        try await client.get("a").perform()
        try await client.post("a").perform()
        try await client.put("a").perform()
        try await client.patch("a").perform()
        try await client.delete("a").perform()
        try await client.head("a").perform()
        try await client.options("a").perform()
        try await client.request("PURGE", "a").perform()
        #expect(transport.requests.map { $0.urlRequest.httpMethod } == ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "PURGE"])
    }

    @Test func verbsThroughRequestStartingMatchTheClients() async throws {
        func start(_ starter: some RequestStarting) -> RequestBuilder { starter.patch("b", bypassAuth: true) }
        let builder = start(client)
        #expect(builder.endpoint.method == .patch)
        #expect(builder.endpoint.path == "b")
        #expect(builder.endpoint.url == nil)
        #expect(builder.endpoint.bypassAuth)
    }

    @Test func aVerbKeptAsAValueStartsRequestsWithItsMethodOnTheClientItCameFrom() async throws {
        let post = client.header("X-From", "verb").post
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        try await post("todos", bypassAuth: true, body: Due(dueDate: "today"), jsonEncoder: encoder).perform()
        try await post().perform()
        let sent = transport.requests.map(\.urlRequest)
        #expect(sent.map(\.httpMethod) == ["POST", "POST"])
        #expect(sent.map { $0.url?.absoluteString } == ["https://api.example.com/v1/todos", "https://api.example.com/v1"])
        #expect(sent.map { $0.value(forHTTPHeaderField: "X-From") } == ["verb", "verb"])
        #expect(sent[0].httpBody == Data(#"{"due_date":"today"}"#.utf8))
        #expect(sent[0].value(forHTTPHeaderField: "Content-Type") == "application/json")
    }

    @Test func aRequestsEndpointSendsTheSameCallWithoutItsClient() async throws {
        let request = client.post("todos", body: Due(dueDate: "today")).header("X-A", "1").bearer("t")
        let raw: Data = try await client.perform(request.endpoint)
        try await request.perform()
        #expect(raw == Data(#"{"name":"Ada"}"#.utf8))
        for sent in transport.requests.map(\.urlRequest) {
            #expect(sent.httpMethod == "POST")
            #expect(sent.url?.absoluteString == "https://api.example.com/v1/todos")
            #expect(sent.value(forHTTPHeaderField: "X-A") == "1")
            #expect(sent.value(forHTTPHeaderField: "Authorization") == "Bearer t")
            #expect(sent.httpBody == Data(#"{"dueDate":"today"}"#.utf8))
        }
        #expect(transport.requests.count == 2)
    }

    @Test func perRequestAuthenticationReadsTheTokenForEachRequest() async throws {
        let tokens = TokenStore()
        let perRequest = client.authentication { .bearer(await tokens.next()) }
        try await perRequest.get().perform()
        try await perRequest.get().perform()
        let onceOnly = client.authentication(.bearer(await tokens.next()))
        try await onceOnly.get().perform()
        try await onceOnly.get().perform()
        #expect(transport.requests.map { $0.urlRequest.value(forHTTPHeaderField: "Authorization") }
            == ["Bearer 1", "Bearer 2", "Bearer 3", "Bearer 3"])
    }

    @Test func requestErrorGivesStatusAndBodyDirectly() async throws {
        let error = await #expect(throws: RequestError.self) { try await client.httpStatusCodeRange(200..<201).get().perform() }
        #expect(error?.statusCode == 201)
        #expect(error?.responseBody == Data(#"{"name":"Ada"}"#.utf8))
        #expect(error?.description.hasPrefix("RequestError.validate: GET https://api.example.com/v1 got status 201") == true)
        #expect(error?.localizedDescription == error?.description)
        #expect(error?.debugDescription == error?.description)
        let mirror = try #require(error.map { Mirror(reflecting: $0) })
        #expect(mirror.children.first?.label == "stage")
    }
}

private actor TokenStore {
    private var count = 0
    func next() -> String {
        count += 1
        return String(count)
    }
}

private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

#if MAIN_ACTOR_APP
import Foundation
import SwiftApiDsl
import SwiftApiDslMock
import Testing
@testable import MainActorApp

/// A model declared as an app target declares it by default: main-actor isolated, so its
/// `Codable` conformance is isolated to the main actor too (InferIsolatedConformances).
struct MainActorNote: Codable, Equatable {
    var text: String
}

/// Decoded as an optional, an empty body is `nil`: the library's check off the main actor looks
/// at `Optional` alone, never at this model's isolated conformance.
struct MainActorNotes: Codable, Equatable {
    var texts: [String] = []
}

struct MainActorNotePage: Codable {
    var results: [MainActorNote]
    var next: URL?
}

/// The library decodes off the main actor, with the model's conformance known statically (no
/// conformance cast, which would not find an isolated conformance there).
@MainActor @Suite(.timeLimit(.minutes(1)))
struct MainActorModelTests {
    @Test func aMainActorModelDecodesThroughAnEndpointAndARequest() async throws {
        let mock = ApiClientMock(baseUrl: URL(string: "https://example.com/api")!)
        try mock.stub(.get, "note", body: Data(#"{"text":"hi"}"#.utf8))
        let viaEndpoint = try await mock.client.perform(Endpoint<MainActorNote>(.get, "note"))
        let viaRequest = try await mock.client.get("note").perform(as: MainActorNote.self)
        let viaResponse: Response<MainActorNote> = try await mock.client.get("note").perform()
        #expect([viaEndpoint, viaRequest, viaResponse.body] == Array(repeating: MainActorNote(text: "hi"), count: 3))
    }

    @Test func anEmptyBodyDecodesIntoAnOptionalMainActorModel() async throws {
        let mock = ApiClientMock(baseUrl: URL(string: "https://example.com/api")!)
        mock.stub(.get, "notes", statusCode: 204)
        #expect(try await mock.client.perform(Endpoint<MainActorNotes?>(.get, "notes")) == nil)
        #expect(try await mock.client.get("notes").perform(as: MainActorNotes?.self) == nil)
    }

    @Test func aMainActorModelIsSentWithBodyAndJsonBody() async throws {
        let mock = ApiClientMock(baseUrl: URL(string: "https://example.com/api")!)
        mock.stub(.post, "notes")
        try await mock.client.post("notes", body: MainActorNote(text: "a")).perform()
        try await mock.client.post("notes").jsonBody(MainActorNote(text: "b")).perform()
        try await mock.client.perform(Endpoint<EmptyResponse>(.post, "notes", body: MainActorNote(text: "c")))
        #expect(mock.recordedRequests.map(\.bodyText) == [#"{"text":"a"}"#, #"{"text":"b"}"#, #"{"text":"c"}"#])
    }

    @Test func itemsOfMainActorPagesAreReadWithAKeyPath() async throws {
        let mock = ApiClientMock(baseUrl: URL(string: "https://example.com/api")!)
        try mock.stub(.get, "notes", body: Data(#"{"results":[{"text":"a"},{"text":"b"}]}"#.utf8))
        let pages = mock.client.pages(Endpoint<MainActorNotePage>(.get, "notes"), next: .url { $0.next })
        var texts: [String] = []
        for try await note in pages.items(\.results) { texts.append(note.text) }
        #expect(texts == ["a", "b"])
        #expect(try await pages.items(\.results).collect() == [MainActorNote(text: "a"), MainActorNote(text: "b")])
    }
}
#endif

#if WIRE_SUITES
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// The app's own errors, written once on the client (seed 001's Vitesse error enum), from every
/// way a call ends, against real servers.
@Suite struct ErrorMappingWireTests {
    enum VitesseError: Error, Equatable {
        case notFound, unauthorized, tooLarge, custom(reason: String), unknown(status: Int?)
    }

    /// The test server's snake_case error document (`/errors/<status>`).
    struct ApiError: Decodable, Error { let errorCode: String; let errorMessage: String }

    /// The one translation, on the client.
    static func vitesse(_ error: RequestError) -> any Error {
        if let document = error.validationError as? ApiError, document.errorCode == "status_409" {
            return VitesseError.custom(reason: document.errorMessage)
        }
        if (error.underlyingError as? ApiClientError)?.code == .responseTooLarge { return VitesseError.tooLarge }
        switch error.statusCode {
        case 404: return VitesseError.notFound
        case 401: return VitesseError.unauthorized
        default: return VitesseError.unknown(status: error.statusCode)
        }
    }

    static func client(_ base: URL) -> ApiClient {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return ApiClient(transport: WireTransport.shared, baseUrl: base, jsonDecoder: decoder)
            .httpStatusCodeRange()
            .decodingErrorBody(ApiError.self)
            .mapError(vitesse)
    }

    /// What `body` threw, as a `VitesseError`.
    func thrown(_ body: () async throws -> Void) async -> VitesseError? {
        do {
            try await body()
            Issue.record("expected an error")
            return nil
        } catch {
            guard let app = error as? VitesseError else { Issue.record("not mapped: \(error)"); return nil }
            return app
        }
    }

    @Test func performAndEndpointsThrowTheAppsErrors() async throws {
        let client = Self.client(try TestServer.url())
        #expect(await thrown { try await client.get("errors/404").perform() } == .notFound)
        #expect(await thrown { _ = try await client.get("errors/401").perform(as: [String: String].self) } == .unauthorized)
        #expect(await thrown { _ = try await client.perform(Endpoint<Data>(.get, "errors/409")) }
                == .custom(reason: "the server answered 409 on purpose"))
        #expect(await thrown { _ = try await client.response(for: Endpoint<Data>(.get, "errors/500")) } == .unknown(status: 500))
    }

    @Test func downloadsThrowTheAppsErrorsAndLeaveNothing() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("file.bin")
        let client = Self.client(try TestServer.url())
        #expect(await thrown { try await client.get("errors/404").download(destination: destination) } == .notFound)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
    }

    @Test func aStreamAndTheReadingOfItsBodyThrowTheAppsErrors() async throws {
        let client = Self.client(try HttpBin.url())
        #expect(await thrown { _ = try await client.get("status/404").stream() } == .notFound)
        // No Content-Length: the limit is passed while the body is read.
        let response = try await client.get("stream-bytes/4096").queryItem(name: "chunk_size", "256").maxResponseSize(1000).stream()
        #expect(await thrown { for try await _ in response.body {} } == .tooLarge)
    }

    @Test func pagesAndResourcesThrowTheAppsErrorsAndTheResourceStateKeepsTheRequestError() async throws {
        let client = Self.client(try TestServer.url())
        let pages = client.pages(Endpoint<Data>(.get, "errors/404"), next: .linkHeader)
        #expect(await thrown { for try await _ in pages {} } == .notFound)
        let resource = client.resource(Endpoint<Data>(.get, "errors/401"))
        #expect(await thrown { _ = try await resource.value() } == .unauthorized)
        guard case .failed(let error) = resource.state else { Issue.record("expected .failed, got \(resource.state)"); return }
        #expect(error.statusCode == 401)
    }

    @Test func observersStillSeeTheRequestError() async throws {
        let trail = Trail()
        let client = Self.client(try TestServer.url()).observer { event in
            if case .finished(let metrics) = event.kind { trail.add("\(metrics.error?.statusCode ?? 0)") }
        }
        #expect(await thrown { try await client.get("errors/404").perform() } == .notFound)
        #expect(trail.all == ["404"])
    }
}
#endif

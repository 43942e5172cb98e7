import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl
import SwiftApiDslMock

/// One decoding seam: a client made with another `ResponseDecoder` decodes bodies, endpoints
/// and error bodies with it, and a call can still choose its own.
@Suite struct ResponseDecoderTests {
    struct Bucket: Codable, Equatable { var name: String; var keys: [String] }
    struct NoSuchKey: Codable, Error, Equatable { var code: String }

    static func plist(_ value: some Encodable) -> Data {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .xml
        return try! encoder.encode(value)
    }

    func mock() -> ApiClientMock {
        let mock = ApiClient(baseUrl: Fixtures.baseUrl, jsonDecoder: PropertyListDecoder()).mocked()
        mock.appliesValidators = true
        mock.resultProvider = { request in
            if request.url?.path.hasSuffix("missing") == true {
                return .response(request, body: Self.plist(NoSuchKey(code: "NoSuchKey")), statusCode: 404)
            }
            if request.url?.path.hasSuffix("json") == true {
                return .response(request, body: Bucket(name: "j", keys: []))
            }
            return .response(request, body: Self.plist(Bucket(name: "photos", keys: ["a.jpg", "b.jpg"])))
        }
        return mock
    }

    @Test func bodiesEndpointsAndErrorBodiesUseTheClientsDecoder() async throws {
        let mock = mock()
        let bucket = try await mock.get("photos").perform(as: Bucket.self)
        #expect(bucket == Bucket(name: "photos", keys: ["a.jpg", "b.jpg"]))
        #expect(try await mock.perform(Endpoint<Bucket>(.get, "photos")) == bucket)

        let error = await #expect(throws: RequestError.self) {
            try await mock.client.httpStatusCodeRange().decodingErrorBody(NoSuchKey.self).get("missing").perform(as: Bucket.self)
        }
        #expect(error?.validationError as? NoSuchKey == NoSuchKey(code: "NoSuchKey"))
    }

    @Test func aCallsOwnDecoderWinsAndAFailureNamesTheType() async throws {
        let mock = mock()
        #expect(try await mock.get("json").perform(as: Bucket.self, jsonDecoder: JSONDecoder()) == Bucket(name: "j", keys: []))
        let error = await #expect(throws: RequestError.self) { try await mock.get("json").perform(as: Bucket.self) }
        guard case .fatal(.decoding(let type, _, _, _))? = error else {
            Issue.record("expected a decoding failure, got \(String(describing: error))")
            return
        }
        #expect(type == "Bucket")
    }
}

#if WIRE_SUITES
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// Bodies are encoded with the request's coders, else the client's; responses decode into
/// values, `Response<T>`, `Response<Data>` or an empty body type.
@Suite struct BodyAndDecodingWireTests {
    static func snakeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return encoder
    }

    @Test func bodyUsesTheClientEncoderAndSetsContentType() async throws {
        let client = ApiClient(transport: WireTransport.shared, baseUrl: try HttpBin.url("/anything"), jsonEncoder: Self.snakeEncoder())
        let echo: Echo = try await client.post("x", body: Profile(firstName: "Ada", age: 36)).perform()
        #expect(echo.header("Content-Type") == "application/json")
        #expect(echo.json == .object(["first_name": .string("Ada"), "age": .number(36)]))
    }

    @Test func bodyUsesTheRequestEncoderOverTheClients() async throws {
        let client = ApiClient(transport: WireTransport.shared, baseUrl: try HttpBin.url("/anything"), jsonEncoder: Self.snakeEncoder())
        let echo: Echo = try await client.put("x", body: Profile(firstName: "Ada", age: 36), jsonEncoder: JSONEncoder()).perform()
        #expect(echo.json == .object(["firstName": .string("Ada"), "age": .number(36)]))
    }

    @Test func responseDecodesWithClientDecoderUnlessTheRequestGivesOne() async throws {
        struct Slide: Decodable, Equatable { let slideshow: Show }
        struct Show: Decodable, Equatable { let author: String; let title: String }
        let client = try HttpBin.client()
        let show: Slide = try await client.get("json").perform()
        #expect(show.slideshow == Show(author: "Yours Truly", title: "Sample Slide Show"))

        struct UpperCased: Decodable { let SLIDESHOW: Show }
        let upper = JSONDecoder()
        upper.keyDecodingStrategy = .custom { keys in
            struct Key: CodingKey {
                var stringValue: String; var intValue: Int? { nil }
                init(stringValue: String) { self.stringValue = stringValue }
                init?(intValue: Int) { nil }
            }
            let last = keys[keys.count - 1].stringValue
            return Key(stringValue: keys.count == 1 ? last.uppercased() : last)
        }
        let custom: UpperCased = try await client.get("json").perform(jsonDecoder: upper)
        #expect(custom.SLIDESHOW.author == "Yours Truly")
    }

    @Test func responseOfTKeepsTheHTTPResponse() async throws {
        let response: Response<[String: String]> = try await HttpBin.client("/response-headers").get().queryItem(name: "X-Custom", "8").perform()
        #expect(response.httpResponse.statusCode == 200)
        #expect(response.httpResponse.value(forHTTPHeaderField: "X-Custom") == "8")
        #expect(response.body["X-Custom"] == "8")
    }

    @Test func responseOfDataAndDataAreTheRawBody() async throws {
        let response: Response<Data> = try await HttpBin.client().get("bytes/16").queryItem(name: "seed", "7").perform()
        #expect(response.body.count == 16)
        let data: Data = try await HttpBin.client().get("bytes/16").queryItem(name: "seed", "7").perform()
        #expect(data == response.body)
        let again: Response<Data> = try await HttpBin.client().get("bytes/16").queryItem(name: "seed", "7").perform(jsonDecoder: JSONDecoder())
        #expect(again.body == data)
    }

    @Test(arguments: [204, 200])
    func emptyResponseDecodesAnEmptyBody(status: Int) async throws {
        let empty: EmptyResponse = try await HttpBin.client().get("status/\(status)").perform()
        #expect(empty == EmptyResponse())
        let response: Response<EmptyResponse> = try await HttpBin.client().delete("status/\(status)").perform()
        #expect(response.httpResponse.statusCode == status)
    }

    @Test func emptyResponseAcceptsAnyJSON() async throws {
        let empty: EmptyResponse = try await HttpBin.client().get("json").perform()
        #expect(empty == EmptyResponse())
    }

    @Test func encodingFailureFailsAsModify() async throws {
        struct Unencodable: Encodable {
            func encode(to encoder: Encoder) throws { throw Boom(label: "encode") }
        }
        let error = await #expect(throws: RequestError.self) {
            try await HttpBin.client("/anything").post("x", body: Unencodable()).perform()
        }
        guard case .modify(_, let source) = error else {
            Issue.record("expected .modify, got \(String(describing: error))")
            return
        }
        #expect(source as? Boom == Boom(label: "encode"))
    }

    /// A decoder of another format, given to the client, decodes what the server sent.
    @Test func aClientsOwnResponseDecoderDecodesTheBody() async throws {
        struct PlainText: ResponseDecoder {
            func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
                guard let text = String(data: data, encoding: .utf8) as? T else { throw URLError(.cannotDecodeContentData) }
                return text
            }
        }
        let client = ApiClient(transport: WireTransport.shared, baseUrl: try HttpBin.url(), jsonDecoder: PlainText())
        let robots = try await client.get("robots.txt").perform(as: String.self)
        #expect(robots == "User-agent: *\nDisallow: /deny\n")
    }
}
#endif

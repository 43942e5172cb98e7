#if WIRE_SUITES
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// A 401 that challenges with `WWW-Authenticate` reaches the caller as it is, with its body, and
/// the server sees the request once. (The library answers no challenge with credentials; on
/// Linux, URLSession would otherwise hang such a 401 until the timeout: `URLSessionTransport`.)
@Suite struct ChallengedAnswerWireTests {
    /// The body the test server's challenge carries: its detail and which request of the key it answers.
    struct Challenge: Decodable, Equatable {
        let detail: String
        let request: Int
    }

    /// How many requests the test server saw for one key.
    struct ChallengeStats: Decodable, Equatable {
        let requests: Int
    }

    @Test(arguments: [HttpMethod.get, .post, .head])
    func aChallenged401ArrivesWithItsBodyAndIsSentOnce(method: HttpMethod) async throws {
        let key = UUID().uuidString
        let client = try TestServer.client()
        let body: [String: Int]? = method == .post ? ["a": 1] : nil
        let response: Response<Data> = try await client
            .request(method, "challenge/\(key)", bypassAuth: false, body: body, jsonEncoder: nil)
            .perform()
        #expect(response.statusCode == 401)
        #expect(response.headerFields["WWW-Authenticate"] == "Basic realm=\"challenge\"")
        if method == .head {
            #expect(response.body.isEmpty)
        } else {
            #expect(try JSONDecoder().decode(Challenge.self, from: response.body) == Challenge(detail: "sign in", request: 1))
        }
        #expect(try await client.get("challenge-stats/\(key)").perform(as: ChallengeStats.self) == ChallengeStats(requests: 1))
    }

    @Test func aChallenged401WithAnEmptyBodyIsSentOnce() async throws {
        let key = UUID().uuidString
        let client = try TestServer.client()
        let response: Response<Data> = try await client.get("challenge/\(key)")
            .queryItems(["empty": "1"]).perform()
        #expect(response.statusCode == 401)
        #expect(response.body.isEmpty)
        #expect(try await client.get("challenge-stats/\(key)").perform(as: ChallengeStats.self) == ChallengeStats(requests: 1))
    }

    @Test func aChallenged401ToACallWithCredentialsIsSentOnce() async throws {
        let key = UUID().uuidString
        let client = try TestServer.client()
        let error = await #expect(throws: RequestError.self) {
            try await client.httpStatusCodeRange().get("challenge/\(key)").basic(userId: "u", password: "p").perform()
        }
        #expect(error?.statusCode == 401)
        #expect(try await client.get("challenge-stats/\(key)").perform(as: ChallengeStats.self) == ChallengeStats(requests: 1))
    }
}
#endif

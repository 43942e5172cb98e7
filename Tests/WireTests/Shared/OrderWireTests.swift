#if WIRE_SUITES
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// Client modifiers, then authentication, then request modifiers; client validators, then the request's.
@Suite struct OrderWireTests {
    /// A modifier that appends `step` to the `X-Trail` header, so the header shows the order.
    static func append(_ step: String) -> RequestModifier {
        .init { request in
            let trail = request.value(forHTTPHeaderField: "X-Trail").map { $0 + "," } ?? ""
            request.setValue(trail + step, forHTTPHeaderField: "X-Trail")
        }
    }

    static func client() throws -> ApiClient {
        try HttpBin.client("/anything")
            .modifier(append("client1"))
            .authentication(append("auth"))
            .modifier(append("client2"))
    }

    @Test func modifiersRunClientThenAuthenticationThenRequest() async throws {
        let echo: Echo = try await Self.client().get("x").modifier(Self.append("request1")).modifier(Self.append("request2")).perform()
        #expect(echo.header("X-Trail") == "client1,client2,auth,request1,request2")
    }

    @Test func bypassAuthSkipsOnlyAuthentication() async throws {
        let echo: Echo = try await Self.client().get("x", bypassAuth: true).modifier(Self.append("request")).perform()
        #expect(echo.header("X-Trail") == "client1,client2,request")
    }

    @Test func requestOverridesClient() async throws {
        let echo: Echo = try await HttpBin.client("/anything")
            .userAgent("client-agent")
            .header("X-Removed", "client")
            .bearer("client-token")
            .get("x")
            .userAgent("request-agent")
            .header("X-Removed", nil)
            .bearer("request-token")
            .perform()
        #expect(echo.header("User-Agent") == "request-agent")
        #expect(echo.header("X-Removed") == nil)
        #expect(echo.header("Authorization") == "Bearer request-token")
    }

    @Test func laterAuthenticationReplacesEarlier() async throws {
        let echo: Echo = try await HttpBin.client("/anything")
            .authentication(.bearer("first"))
            .authentication { .bearer("second") }
            .get("x").perform()
        #expect(echo.header("Authorization") == "Bearer second")
    }

    @Test func asyncAuthenticationForms() async throws {
        let inout_: Echo = try await HttpBin.client("/anything")
            .authentication {
                try await Task.sleep(nanoseconds: 1_000_000)
                $0.setValue("Token abc", forHTTPHeaderField: "Authorization")
            }
            .get("x").perform()
        #expect(inout_.header("Authorization") == "Token abc")
        let builtIn: Echo = try await HttpBin.client("/anything")
            .authentication {
                try await Task.sleep(nanoseconds: 1_000_000)
                return .bearer("xyz")
            }
            .get("x").perform()
        #expect(builtIn.header("Authorization") == "Bearer xyz")
    }

    @Test func allValidatorsRunClientFirst() async throws {
        let trail = Trail()
        try await HttpBin.client("/anything")
            .validator { _ in trail.add("client1") }
            .validator(.init { _ in trail.add("client2") })
            .get("x")
            .validator { _ in trail.add("request1") }
            .validator { response in trail.add("request2 \(response.httpResponse.statusCode)") }
            .perform()
        #expect(trail.all == ["client1", "client2", "request1", "request2 200"])
    }

    @Test func firstThrowingValidatorStopsTheRest() async throws {
        let trail = Trail()
        let request = try HttpBin.client("/anything")
            .validator { _ in trail.add("client") }
            .get("x")
            .validator { _ in throw Boom(label: "request") }
            .validator { _ in trail.add("never") }
        let error = await #expect(throws: RequestError.self) { try await request.perform() }
        #expect(error?.validationError as? Boom == Boom(label: "request"))
        #expect(trail.all == ["client"])
    }

    @Test func configuringReturnsNewClientAndLeavesTheReceiverUnchanged() async throws {
        let base = try HttpBin.client("/anything")
        let withAgent = base.userAgent("special")
        let plain: Echo = try await base.get("x").perform()
        let special: Echo = try await withAgent.get("x").perform()
        #expect(plain.header("User-Agent") != "special")
        #expect(special.header("User-Agent") == "special")
    }
}
#endif

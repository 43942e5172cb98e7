import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

// Every closure spelling a user writes for `modifier`, `authentication` and `validator`,
// without type annotations, compiled and run: each must reach the request it was meant for.

private struct Refused: Error, Equatable { let by: String }
private func token() async throws -> String { "t0k3n" }

@Suite struct ClosureSpellingTests {
    let transport = RecordingTransport()
    var client: ApiClient { .recording(transport) }

    private func sent(_ builder: RequestBuilder) async throws -> URLRequest {
        try await builder.perform()
        return try #require(transport.requests.last?.urlRequest)
    }

    @Test func modifierClosuresCompileWithoutAnnotations() async throws {
        let assignment = try await sent(client.modifier { $0.cachePolicy = .reloadIgnoringLocalCacheData }.get())
        #expect(assignment.cachePolicy == .reloadIgnoringLocalCacheData)

        let ignored = try await sent(client.modifier { _ in }.get())
        #expect(ignored.url?.absoluteString == "https://api.example.com/v1")

        let statements = try await sent(client.modifier { request in
            request.setValue("1", forHTTPHeaderField: "X-A")
            request.timeoutInterval = 3
        }.get())
        #expect(statements.value(forHTTPHeaderField: "X-A") == "1")
        #expect(statements.timeoutInterval == 3)

        let computed = try await sent(client.modifier { .header("X-B", "2") }.get())
        #expect(computed.value(forHTTPHeaderField: "X-B") == "2")

        let computedAsync = try await sent(client.modifier {
            let value = try await token()
            return .bearer(value)
        }.get())
        #expect(computedAsync.value(forHTTPHeaderField: "Authorization") == "Bearer t0k3n")

        let onRequest = try await sent(client.get().modifier { $0.timeoutInterval = 2 })
        #expect(onRequest.timeoutInterval == 2)
    }

    @Test func throwingClosuresCompileWithoutAnnotations() async throws {
        let modifier = await #expect(throws: RequestError.self) { try await client.modifier { _ in throw Refused(by: "modifier") }.get().perform() }
        #expect(modifier?.underlyingError as? Refused == Refused(by: "modifier"))
        let computed = await #expect(throws: RequestError.self) { try await client.modifier { throw Refused(by: "computed") }.get().perform() }
        #expect(computed?.underlyingError as? Refused == Refused(by: "computed"))
        let authentication = await #expect(throws: RequestError.self) { try await client.authentication { throw Refused(by: "auth") }.get().perform() }
        #expect(authentication?.underlyingError as? Refused == Refused(by: "auth"))
        let validator = await #expect(throws: RequestError.self) { try await client.validator { _ in throw Refused(by: "validator") }.get().perform() }
        #expect(validator?.validationError as? Refused == Refused(by: "validator"))
    }

    @Test func authenticationClosuresCompileWithoutAnnotations() async throws {
        let perRequest = try await sent(client.authentication { .bearer(try await token()) }.get())
        #expect(perRequest.value(forHTTPHeaderField: "Authorization") == "Bearer t0k3n")

        let statements = try await sent(client.authentication {
            let value = try await token()
            return .bearer(value)
        }.get())
        #expect(statements.value(forHTTPHeaderField: "Authorization") == "Bearer t0k3n")

        let edit = try await sent(client.authentication { $0.setValue("Key k", forHTTPHeaderField: "Authorization") }.get())
        #expect(edit.value(forHTTPHeaderField: "Authorization") == "Key k")

        let editStatements = try await sent(client.authentication { request in
            let value = try await token()
            request.setValue("Token \(value)", forHTTPHeaderField: "Authorization")
        }.get())
        #expect(editStatements.value(forHTTPHeaderField: "Authorization") == "Token t0k3n")
    }

    @Test func validatorClosuresCompileWithoutAnnotations() async throws {
        try await client.validator { _ in }.get().perform()
        let single = await #expect(throws: RequestError.self) {
            try await client.validator { if $0.statusCode == 200 { throw Refused(by: "single") } }.get().perform()
        }
        #expect(single?.validationError as? Refused == Refused(by: "single"))
        let statements = await #expect(throws: RequestError.self) {
            try await client.validator { response in
                let status = response.statusCode
                if status == 200 { throw Refused(by: "statements") }
            }.get().perform()
        }
        #expect(statements?.validationError as? Refused == Refused(by: "statements"))
    }
}

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Observation)
import Observation
#endif
import SwiftApiDsl
import SwiftApiDslCache
import SwiftApiDslMock
import Testing

/// A resource asks the server whether its value changed: it sends the validators the value came
/// with, keeps the value on a 304 without decoding it, and shows observers no change.
@Suite struct ResourceRevalidationTests {
    let mock = ApiClientMock(baseUrl: Fixtures.baseUrl)
    static let lastModified = "Wed, 25 Nov 2026 10:00:00 GMT"

    /// Decodes `["v<n>"]`-style bodies and counts how many times it did.
    let decodes = Locked(0)
    var endpoint: Endpoint<[String]> {
        Endpoint(.get, "todos") { [decodes] response in
            decodes.withLock { $0 += 1 }
            return try JSONDecoder().decode([String].self, from: response.body)
        }
    }

    /// Answers as a server with validators would: the body `["<version>"]` with `ETag: "<version>"`
    /// and a fixed `Last-Modified`, or a 304 when the request's `If-None-Match` names the version.
    private func serve(_ version: Locked<String>, headers304: [String: String] = [:], contentType: String = "application/json") {
        mock.appliesValidators = true
        mock.resultProvider = { request in
            let current = version.withLock { $0 }
            if request.value(forHTTPHeaderField: "If-None-Match") == "\"\(current)\"" {
                return .response(request, statusCode: 304, headers: headers304)
            }
            return .response(request, body: [current], headers: [
                "ETag": "\"\(current)\"", "Last-Modified": Self.lastModified, "Content-Type": contentType,
            ])
        }
    }

    private func conditions(_ index: Int) -> [String?] {
        let request = mock.recordedRequests[index]
        return [request.header(.ifNoneMatch), request.header(HeaderField("If-Modified-Since"))]
    }

    /// An authenticated resource without a client cache still revalidates: its private store
    /// holds one caller's answer, so an `Authorization` header does not keep it from storing.
    @Test func anAuthenticatedResourceRevalidatesThroughItsPrivateStore() async throws {
        serve(Locked("a"))
        let resource = mock.client.bearer("t0ken").resource(endpoint)
        #expect(try await resource.value() == ["a"])
        #expect(try await resource.reload() == ["a"])
        #expect(conditions(1) == ["\"a\"", Self.lastModified])
        #expect(mock.recordedRequests[1].header(.authorization) == "Bearer t0ken")
        #expect(decodes.withLock { $0 } == 1)
    }

    @Test func aReloadSendsTheValidatorsOfTheCurrentValueAndA304KeepsItWithoutDecoding() async throws {
        serve(Locked("a"))
        let todos = mock.resource(endpoint.httpStatusCodeRange(200...299).acceptableContentTypes(["application/json"]))
        #expect(try await todos.value() == ["a"])
        #expect(try await todos.reload() == ["a"])
        #expect(try await todos.reload() == ["a"])
        #expect(conditions(0) == [nil, nil])
        #expect(conditions(1) == ["\"a\"", Self.lastModified])
        #expect(conditions(2) == ["\"a\"", Self.lastModified])
        #expect(decodes.withLock { $0 } == 1)
        #expect(todos.state.name == "loaded(a)")
        #expect(todos.latestValue == ["a"])
    }

    /// With the client's HTTP cache, the cache asks the server itself (or answers from its
    /// store): its stored copy of the same representation keeps the value, undecoded.
    @Test func behindTheClientsCacheTheStoredCopyOfTheSameValueIsNotDecodedAgain() async throws {
        mock.appliesValidators = true
        mock.resultProvider = { request in
            if request.value(forHTTPHeaderField: "If-None-Match") == "\"a\"" { return .response(request, statusCode: 304) }
            return .response(request, body: ["a"], headers: ["ETag": "\"a\"", "Cache-Control": "max-age=0"])
        }
        let todos = mock.client.cache(.memory()).resource(endpoint)
        #expect(try await todos.value() == ["a"])
        #expect(try await todos.reload() == ["a"])
        #expect(mock.recordedRequests.count == 2)
        #expect(mock.recordedRequests[1].header(.ifNoneMatch) == "\"a\"")
        #expect(decodes.withLock { $0 } == 1)
        #expect(todos.state.name == "loaded(a)")
    }

    /// Without a client cache, the resource's private cache sits before the client's middlewares:
    /// a signature a middleware adds to each request stays out of its key.
    @Test func aSignatureAMiddlewareAddsToEachRequestDoesNotStopTheRevalidation() async throws {
        serve(Locked("a"))
        let signatures = Locked(0)
        let signer = Middleware("signer") { request, next in
            var request = request
            request.headerFields.set("Sig \(signatures.withLock { $0 += 1; return $0 })", for: "Authorization")
            return try await next(request)
        }
        let todos = mock.client.middleware(signer).resource(endpoint)
        #expect(try await todos.value() == ["a"])
        #expect(try await todos.reload() == ["a"])
        #expect(conditions(1) == ["\"a\"", Self.lastModified])
        #expect(mock.recordedRequests[1].header(.authorization) == "Sig 2")
        #expect(decodes.withLock { $0 } == 1)
    }

    @Test func aChangedValueIsDecodedAndItsOwnValidatorsAreSentNext() async throws {
        let version = Locked("a")
        serve(version)
        let todos = mock.resource(endpoint)
        #expect(try await todos.value() == ["a"])
        version.withLock { $0 = "b" }
        #expect(try await todos.reload() == ["b"])
        #expect(try await todos.reload() == ["b"])
        #expect(conditions(1) == ["\"a\"", Self.lastModified])
        #expect(conditions(2) == ["\"b\"", Self.lastModified])
        #expect(decodes.withLock { $0 } == 2)
    }

    @Test func aReloadAfterInvalidateRevalidatesAndA304BringsTheValueBack() async throws {
        serve(Locked("a"))
        let todos = mock.resource(endpoint)
        #expect(try await todos.value() == ["a"])
        todos.invalidate()
        #expect(todos.latestValue == nil)
        #expect(try await todos.value() == ["a"])
        #expect(conditions(1) == ["\"a\"", Self.lastModified])
        #expect(decodes.withLock { $0 } == 1)
        #expect(todos.state.name == "loaded(a)")
        #expect(todos.latestValue == ["a"])
    }

    @Test func aReloadAfterAFailureRevalidatesTheValueItKept() async throws {
        let fails = Locked(false)
        serve(Locked("a"))
        let served = mock.resultProvider
        mock.resultProvider = { request in
            fails.withLock { $0 } ? .response(request, statusCode: 503) : try await served?(request)
        }
        let todos = mock.resource(endpoint.httpStatusCodeRange())
        #expect(try await todos.value() == ["a"])
        fails.withLock { $0 = true }
        let error = await #expect(throws: RequestError.self) { try await todos.reload() }
        #expect(error?.statusCode == 503)
        fails.withLock { $0 = false }
        #expect(try await todos.reload() == ["a"])
        #expect(conditions(2) == ["\"a\"", Self.lastModified])
        #expect(decodes.withLock { $0 } == 1)
    }

    @Test func aNewEntityTagIn304IsSentNextAndTheValidatorsSeeTheStoredHead() async throws {
        let seen = Locked<[String]>([])
        serve(Locked("a"), headers304: ["ETag": "\"a2\""])
        let todos = mock.resource(endpoint.validator(ResponseValidator { response in
            seen.withLock { $0.append("\(response.statusCode) \(response.headerFields["ETag"] ?? "") \(response.headerFields["Content-Type"] ?? "")") }
        }))
        _ = try await todos.value()
        _ = try await todos.reload()
        _ = try await todos.reload()   // "a2" is not the current version: a 200
        #expect(conditions(2) == ["\"a2\"", Self.lastModified])
        #expect(seen.withLock { $0 } == ["200 \"a\" application/json", "200 \"a2\" application/json", "200 \"a\" application/json"])
        #expect(decodes.withLock { $0 } == 2)
    }

    @Test func aConditionTheEndpointSetsItselfIsSentAsItIsAndItsAnswerJudgedAsUsual() async throws {
        serve(Locked("a"))
        let todos = mock.resource(endpoint.header(.ifNoneMatch, "\"a\""))
        let error = await #expect(throws: RequestError.self) { try await todos.value() }
        #expect(error?.statusCode == 304)
        #expect(conditions(0) == ["\"a\"", nil])
    }

    @Test func aValueWithoutValidatorsIsLoadedAgainUnconditionally() async throws {
        mock.resultProvider = { .response($0, body: ["a"]) }
        let todos = mock.resource(endpoint)
        _ = try await todos.value()
        _ = try await todos.reload()
        #expect(conditions(1) == [nil, nil])
        #expect(decodes.withLock { $0 } == 2)
    }

    @Test func onlyAGetOrHeadIsRevalidated() async throws {
        serve(Locked("a"))
        let todos = mock.resource(Endpoint<[String]>(.post, "todos/search"))
        _ = try await todos.value()
        _ = try await todos.reload()
        #expect(conditions(1) == [nil, nil])
    }

    @Test func aRevalidationEmitsLoadingThenTheSameValueAndALoadedValueIsNotReportedChanged() async throws {
        let version = Locked("a")
        serve(version)
        let todos = mock.resource(endpoint)
        let states = todos.states
        _ = try await todos.value()
        _ = try await todos.reload()          // 304
        version.withLock { $0 = "b" }
        _ = try await todos.reload()          // 200
        let expected = ["idle", "loading", "loaded(a)", "loading", "loaded(a)", "loading", "loaded(b)"]
        #expect(await states.prefix(expected.count).reduce(into: []) { $0.append($1.name) } == expected)
    }

    #if canImport(Observation)
    @Test func observationOfTheLatestValueIsToldOfARealChangeOnly() async throws {
        let version = Locked("a")
        serve(version)
        let todos = mock.resource(endpoint)
        _ = try await todos.value()
        let changes = Locked<[String]>([])
        func track(_ label: String) {
            withObservationTracking { _ = todos.latestValue } onChange: { changes.withLock { $0.append(label) } }
        }
        track("after a 304")
        _ = try await todos.reload()          // 304: no change, and `.loading` none either
        #expect(changes.withLock { $0 } == [])
        version.withLock { $0 = "b" }
        _ = try await todos.reload()          // 200: a change
        #expect(changes.withLock { $0 } == ["after a 304"])
        track("after an invalidate")
        todos.invalidate()
        #expect(changes.withLock { $0 } == ["after a 304", "after an invalidate"])
    }
    #endif
}

import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import SwiftApiDsl

/// The request in the library's own form: what built-in modifiers set reaches the transport as
/// fields, and a closure modifier's `URLRequest` is made from them and taken back whole.
@Suite struct TransportRequestTests {
    @Test func builtInModifiersFillTheFieldsInOrder() async throws {
        let transport = RecordingTransport()
        try await ApiClient.recording(transport)
            .userAgent("app/1")
            .accept("application/json")
            .post("users/7")
            .queryItem(name: "lang", "en")
            .header("X-Trace-Id", "abc")
            .accept("text/plain")
            .timeoutInterval(12)
            .body(Data("hi".utf8))
            .perform()
        let request = try #require(transport.requests.first)
        #expect(request.url?.absoluteString == "https://api.example.com/v1/users/7?lang=en")
        #expect(request.method == .post)
        #expect(request.headerFields.map(\.name) == ["User-Agent", "Accept", "X-Trace-Id", "Content-Type"])
        #expect(request.headerFields["accept"] == "text/plain")
        #expect(request.headerFields["Content-Type"] == "application/octet-stream")
        #expect(request.httpBody == Data("hi".utf8))
        #expect(request.timeoutInterval == 12)
    }

    @Test func theFoundationFormHoldsTheSameRequest() async throws {
        let transport = RecordingTransport()
        try await ApiClient.recording(transport).put("a").header("X-One", "1").jsonBody(["k": "v"]).timeoutInterval(7).perform()
        let urlRequest = try #require(transport.requests.first).urlRequest
        #expect(urlRequest.url?.absoluteString == "https://api.example.com/v1/a")
        #expect(urlRequest.httpMethod == "PUT")
        #expect(urlRequest.allHTTPHeaderFields == ["X-One": "1", "Content-Type": "application/json"])
        #expect(urlRequest.httpBody == Data(#"{"k":"v"}"#.utf8))
        #expect(urlRequest.timeoutInterval == 7)
    }

    @Test func aClosureModifierSeesTheFieldsAndWhatItSetsIsKept() async throws {
        let transport = RecordingTransport()
        let seen = Locked<[String: String]?>(nil)
        try await ApiClient.recording(transport)
            .header("X-Before", "1")
            .get("a")
            .modifier { request in
                seen.withLock { $0 = request.allHTTPHeaderFields }
                request.cachePolicy = .reloadIgnoringLocalAndRemoteCacheData
                request.setValue("2", forHTTPHeaderField: "X-Closure")
                request.setValue(nil, forHTTPHeaderField: "X-Before")
            }
            .header("X-After", "3")
            .perform()
        #expect(seen.withLock { $0 } == ["X-Before": "1"])
        let request = try #require(transport.requests.first)
        #expect(request.headerFields.map(\.name) == ["X-Closure", "X-After"])
        // What the fields do not hold survives the built-in modifier that ran after the closure.
        #expect(request.urlRequest.cachePolicy == .reloadIgnoringLocalAndRemoteCacheData)
        #expect(request.urlRequest.value(forHTTPHeaderField: "X-After") == "3")
    }

    @Test func aClosureThatRemovesTheURLStopsTheModifiersAsModify() async throws {
        // corelibs crashes on any change to a URLRequest without a URL: no later modifier may run.
        let laterModifierRan = Locked(false)
        let transport = RecordingTransport()
        let error = await #expect(throws: RequestError.self) {
            try await ApiClient.recording(transport).get("a")
                .modifier { $0.url = nil }
                .header("X-After", "1")
                .modifier { request in
                    laterModifierRan.withLock { $0 = true }
                    request.setValue("2", forHTTPHeaderField: "X-Later")
                }
                .perform()
        }
        #expect(error?.stage == "modify")
        #expect(error?.request?.url == nil)
        #expect(error.map { "\($0)" }?.contains("has no URL") == true)
        #expect(laterModifierRan.withLock { $0 } == false)
        #expect(transport.requests.isEmpty)
    }

    @Test func setReplacesEveryValueOfANameWhereItFirstStood() {
        var fields: HeaderFields = ["A": "1", "Set-Cookie": "x=1", "B": "2"]
        fields.append("y=2", for: "set-cookie")
        fields.set("z=3", for: "SET-COOKIE")
        #expect(fields.map(\.name) == ["A", "SET-COOKIE", "B"])
        #expect(fields["set-cookie"] == "z=3")
        fields.set(nil, for: "a")
        fields.set("4", for: "C")
        #expect(fields.map { "\($0.name)=\($0.value)" } == ["SET-COOKIE=z=3", "B=2", "C=4"])
    }

    @Test func aTransportRequestMadeFromAURLRequestKeepsItsFields() throws {
        var urlRequest = URLRequest(url: exampleBase, cachePolicy: .returnCacheDataDontLoad, timeoutInterval: 3)
        urlRequest.httpMethod = "DELETE"
        urlRequest.setValue("v", forHTTPHeaderField: "X-K")
        var request = TransportRequest(urlRequest: urlRequest)
        #expect(request.method == .delete)
        #expect(request.headerFields["x-k"] == "v")
        #expect(request.timeoutInterval == 3)
        request.headerFields.set("w", for: "X-K")
        #expect(request.urlRequest.value(forHTTPHeaderField: "X-K") == "w")
        #expect(request.urlRequest.cachePolicy == .returnCacheDataDontLoad)
    }

    @Test func theLastBodySetWinsHoweverItIsSet() throws {
        var urlRequest = URLRequest(url: exampleBase)
        urlRequest.httpBody = Data("in memory".utf8)
        let file = RequestBody.file(URL(fileURLWithPath: "/tmp/upload.bin"))
        var request = TransportRequest(urlRequest: urlRequest, body: file)
        #expect(request.body == file)
        #expect(request.httpBody == nil)
        // A URLRequest with a body, set afterwards (a closure modifier), replaces the streamed one.
        var edited = request.urlRequest
        edited.httpBody = Data("edited".utf8)
        request.urlRequest = edited
        #expect(request.body == nil)
        #expect(request.httpBody == Data("edited".utf8))
        // One without a body leaves a streamed body alone.
        request.setBody(file)
        request.urlRequest = request.urlRequest
        #expect(request.body == file)
        #expect(request.httpBody == nil)
    }
}

import Foundation
import Testing
@testable import SwiftApiDsl

/// The exact URLs and bodies the library builds (the wire tests show what servers understand).
@Suite struct EncodingTests {
    @Test(arguments: [
        ("https://h/api/v1", "users/7", "https://h/api/v1/users/7"),
        ("https://h/api/v1/", "users/7", "https://h/api/v1/users/7"),
        ("https://h/api/v1", "/users/7", "https://h/api/v1/users/7"),
        ("https://h/api/v1/", "/users/7", "https://h/api/v1/users/7"),
        ("https://h", "users", "https://h/users"),
        ("https://h/", "/users", "https://h/users"),
        ("https://h/api", "books/", "https://h/api/books/"),
        ("https://h/api?key=1&b=2", "books", "https://h/api/books?key=1&b=2"),
        ("https://h:8443/api", "a b+c&d=e#f?g%h", "https://h:8443/api/a%20b%2Bc%26d%3De%23f%3Fg%25h"),
        ("https://h/api", "été/ü", "https://h/api/%C3%A9t%C3%A9/%C3%BC"),
        ("https://h/api", "keep:@!$'()*,;-._~", "https://h/api/keep:@!$'()*,;-._~"),
    ])
    func pathResolution(base: String, path: String, expected: String) throws {
        let url = try URLResolution.url(base: try #require(URL(string: base)), path: path)
        #expect(url.absoluteString == expected)
    }

    @Test func noPathOrEmptyPathIsTheBaseItself() throws {
        let base = try #require(URL(string: "https://h/api?x=1"))
        #expect(try URLResolution.url(base: base, path: nil) == base)
        #expect(try URLResolution.url(base: base, path: "") == base)
    }

    @Test func queryComponentsEncodeEverythingButUnreserved() {
        #expect(PercentEncoding.queryComponent("a b+c&d=e#f?g/h%é~-._") == "a%20b%2Bc%26d%3De%23f%3Fg%2Fh%25%C3%A9~-._")
        #expect(PercentEncoding.query([URLQueryItem(name: "flag", value: nil), URLQueryItem(name: "k", value: "")]) == "flag&k=")
    }

    @Test func formEncodingUsesPlusForSpace() {
        let items = [URLQueryItem(name: "name", value: "Zoé Dupont"), URLQueryItem(name: "math", value: "1+1=2 & more")]
        #expect(PercentEncoding.form(items) == "name=Zo%C3%A9+Dupont&math=1%2B1%3D2+%26+more")
    }

    @Test func queryItemsAppendToTheBaseQuery() async throws {
        let transport = RecordingTransport()
        try await ApiClient(transport: transport, baseUrl: try #require(URL(string: "https://h/api?key=1")))
            .get("s")
            .queryItem(name: "q", "a b")
            .queryItems(["z": "1", "a": "2"])
            .perform()
        #expect(transport.requests.first?.urlRequest.url?.absoluteString == "https://h/api/s?key=1&q=a%20b&a=2&z=1")
    }

    @Test func formBodyIsSortedByNameFromADictionary() async throws {
        let transport = RecordingTransport()
        try await ApiClient.recording(transport).post("f").formUrlEncoded(["b": "2", "a": "1 1"]).perform()
        let request = try #require(transport.requests.first?.urlRequest)
        #expect(request.httpBody == Data("a=1+1&b=2".utf8))
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/x-www-form-urlencoded")
    }

    @Test func basicEncodesUserAndPasswordAsUTF8Base64() async throws {
        let transport = RecordingTransport()
        try await ApiClient.recording(transport).get().basic(userId: "zoé", password: "p:ss").perform()
        #expect(transport.requests.first?.urlRequest.value(forHTTPHeaderField: "Authorization") == "Basic em/DqTpwOnNz")
    }
}

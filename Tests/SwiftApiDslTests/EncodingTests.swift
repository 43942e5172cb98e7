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
        ("https://h/api", "a//b/./c/", "https://h/api/a//b/./c/"),
        ("https://h/api", "plain/then a space/x", "https://h/api/plain/then%20a%20space/x"),
        // A `/` before a combining mark still separates segments (found by Fuzz/Harnesses/PercentEncoding.swift).
        ("https://h/api", "a/\u{05C1}b", "https://h/api/a/%D7%81b"),
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

    @Test func anEndpointsURLIsResolvedAtOnceAsThePipelineResolvesIt() async throws {
        let base = try #require(URL(string: "https://h/api/v1/?key=1"))
        let search = Endpoint<[String]>(.get, "/books/été 1+2/", query: [
            URLQueryItem(name: "q", value: "milk & honey=1+1#?"), URLQueryItem(name: "flag", value: nil),
        ])
        let url = try search.url(relativeTo: base)
        #expect(url.absoluteString == "https://h/api/v1/books/%C3%A9t%C3%A9%201%2B2/?key=1&q=milk%20%26%20honey%3D1%2B1%23%3F&flag")
        #expect(try await ApiClient(baseUrl: base).urlRequest(for: search).url == url)

        let link = Endpoint<[String]>(url: try #require(URL(string: "https://other.example/page?a=1")), query: [URLQueryItem(name: "b", value: "2 3")])
        #expect(try link.url(relativeTo: base).absoluteString == "https://other.example/page?a=1&b=2%203")
        #expect(try Endpoint<[String]>().url(relativeTo: base) == base)
        #expect { try Endpoint<[String]>(.get, "a\u{7}b").url(relativeTo: base) } throws: { ($0 as? ApiClientError)?.code == .unresolvableURL }
        #expect { try search.url(relativeTo: try #require(URL(string: "books"))) } throws: { ($0 as? ApiClientError)?.code == .unresolvableURL }
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

    @Test func queryItemsGoBeforeTheFragmentAfterAnyQuery() throws {
        let items = [URLQueryItem(name: "q", value: "a b"), URLQueryItem(name: "flag", value: nil)]
        let cases = [
            "https://h/p": "https://h/p?q=a%20b&flag",
            "https://h/p?": "https://h/p?q=a%20b&flag",
            "https://h/p?a=1": "https://h/p?a=1&q=a%20b&flag",
            "https://h/p#top": "https://h/p?q=a%20b&flag#top",
            "https://h/p?a=1#top?x": "https://h/p?a=1&q=a%20b&flag#top?x",
            "https://h:8443/%C3%A9/?a=%20": "https://h:8443/%C3%A9/?a=%20&q=a%20b&flag",
        ]
        for (base, expected) in cases {
            #expect(try URLResolution.appending(items, to: #require(URL(string: base))).absoluteString == expected, "\(base)")
        }
        let url = try #require(URL(string: "https://h/p?a=1"))
        #expect(try URLResolution.appending([], to: url) == url)
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

import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import SwiftApiDsl

@Suite struct RedirectRuleTests {
    static func request(_ method: String, _ url: String, body: String? = nil) -> URLRequest {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        request.httpBody = body.map { Data($0.utf8) }
        request.setValue("Bearer t", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        return request
    }

    static func response(_ status: Int, location: String?, for url: String) -> HTTPURLResponse {
        HTTPURLResponse(url: URL(string: url)!, statusCode: status, httpVersion: nil,
                        headerFields: location.map { ["Location": $0] } ?? [:])!
    }

    static func next(_ method: String, _ status: Int, from url: String, to location: String?) -> URLRequest? {
        Redirect.proposedRequest(after: response(status, location: location, for: url), to: request(method, url, body: "{}"))
    }

    @Test(arguments: [
        ("/books/?ids=1", "https://h/books/?ids=1"),
        ("shelf/", "https://h/a/shelf/"),
        ("../up?x=1", "https://h/up?x=1"),
        ("?page=2", "https://h/a/b?page=2"),
        ("//other:8080/p/", "https://other:8080/p/"),
        ("http://plain/x", "http://plain/x"),
    ])
    func locationResolvesPerRFC3986(location: String, expected: String) {
        #expect(Self.next("GET", 301, from: "https://h/a/b", to: location)?.url?.absoluteString == expected)
    }

    @Test func methodRules() {
        for status in [301, 302] {
            #expect(Self.next("POST", status, from: "https://h/a", to: "/b")?.httpMethod == "GET")
            #expect(Self.next("PUT", status, from: "https://h/a", to: "/b")?.httpMethod == "PUT")
        }
        #expect(Self.next("PUT", 303, from: "https://h/a", to: "/b")?.httpMethod == "GET")
        #expect(Self.next("HEAD", 303, from: "https://h/a", to: "/b")?.httpMethod == "HEAD")
        for status in [307, 308] {
            let next = Self.next("POST", status, from: "https://h/a", to: "/b")
            #expect(next?.httpMethod == "POST")
            #expect(next?.httpBody == Data("{}".utf8))
        }
        let get = Self.next("POST", 303, from: "https://h/a", to: "/b")
        #expect(get?.httpBody == nil)
        #expect(get?.value(forHTTPHeaderField: "Content-Type") == nil)
    }

    @Test func secretsStayOnlyWithinTheOrigin() {
        #expect(Self.next("GET", 302, from: "https://h/a", to: "https://h:443/b")?.value(forHTTPHeaderField: "Authorization") == "Bearer t")
        #expect(Self.next("GET", 302, from: "https://h/a", to: "https://H/b")?.value(forHTTPHeaderField: "Authorization") == "Bearer t")
        #expect(Self.next("GET", 302, from: "https://h/a", to: "https://h:8443/b")?.value(forHTTPHeaderField: "Authorization") == nil)
        #expect(Self.next("GET", 302, from: "https://h/a", to: "http://h/b")?.value(forHTTPHeaderField: "Authorization") == nil)
        #expect(Self.next("GET", 302, from: "https://h/a", to: "https://evil/b")?.value(forHTTPHeaderField: "Authorization") == nil)
    }

    @Test func notFollowable() {
        #expect(Self.next("GET", 302, from: "https://h/a", to: nil) == nil)
        #expect(Self.next("GET", 300, from: "https://h/a", to: "/b") == nil)
        #expect(Self.next("GET", 304, from: "https://h/a", to: "/b") == nil)
        #expect(Self.next("GET", 302, from: "https://h/a", to: "ftp://h/b") == nil)
        #expect(Self.next("GET", 200, from: "https://h/a", to: "/b") == nil)
    }

    /// Found by Fuzz/Harnesses/URLResolution.swift: these resolved to `http://` and `http:`,
    /// URLs without a host that the next hop sent unchecked.
    @Test(arguments: [("http://h/a", "//"), ("https://h/a", "http:")])
    func locationThatResolvesWithoutAHostIsNotFollowed(from url: String, location: String) {
        #expect(Self.next("GET", 302, from: url, to: location) == nil)
    }
}

import AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOHTTP1
import SwiftApiDsl

extension HTTPClientRequest {
    /// Header fields that AsyncHTTPClient writes itself from the body it is given.
    private static let framingFields: Set<String> = ["content-length", "transfer-encoding"]

    /// The AsyncHTTPClient form of `request`: URL, method, header fields and body.
    ///
    /// An in-memory body is sent from `httpBody`; a file or multipart body is streamed from
    /// disk with its exact `Content-Length` (never chunked), each chunk reported to `watchdog`.
    init(_ request: TransportRequest, watchdog: IdleWatchdog?) throws {
        let urlRequest = request.urlRequest
        guard let url = urlRequest.url else { throw URLError(.badURL) }
        self.init(url: url.absoluteString)
        method = HTTPMethod(rawValue: urlRequest.httpMethod ?? "GET")
        for (name, value) in urlRequest.allHTTPHeaderFields ?? [:]
        where !Self.framingFields.contains(name.lowercased()) {
            headers.add(name: name, value: value)
        }
        if let streamed = request.body {
            let body = try StreamedBody(streamed, watchdog: watchdog)
            self.body = .stream(body, length: .known(body.length))
        } else if let data = urlRequest.httpBody {
            body = .bytes(data)
        }
    }
}

import AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension HTTPURLResponse {
    /// The Foundation form of an AsyncHTTPClient response head, for the request sent to `request.url`.
    ///
    /// A field that came several times (`Set-Cookie`, `Vary`…) becomes one, its values joined
    /// with `", "` in the order received, as URLSession does.
    static func make(from response: HTTPClientResponse, for request: URLRequest) throws -> HTTPURLResponse {
        var fields: [String: String] = [:]
        fields.reserveCapacity(response.headers.count)
        for (name, value) in response.headers {
            if let existing = fields[name] {
                fields[name] = existing + ", " + value
            } else {
                fields[name] = value
            }
        }
        guard let url = request.url,
              let http = HTTPURLResponse(
                  url: url,
                  statusCode: Int(response.status.code),
                  httpVersion: "HTTP/\(response.version.major).\(response.version.minor)",
                  headerFields: fields
              )
        else { throw URLError(.badServerResponse) }
        return http
    }
}

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

// Mocked answers for `ApiClientMock.resultProvider` and stubs. They never throw: a body that
// cannot be encoded gives a failure, so a mistake in a test's data shows as a failed request.

extension Result where Success == Response<Data>, Failure == RequestError {
    /// A response to `request` with `body` encoded as JSON and `Content-Type: application/json`
    /// (unless `headers` sets one). A `Data` body is sent as is, without a content type.
    ///
    /// ```swift
    /// mock.resultProvider = { urlRequest in .response(urlRequest, body: profile) }
    /// mock.resultProvider = { urlRequest in .response(urlRequest, body: error, statusCode: 422) }
    /// ```
    /// If `body` does not encode, the result is `RequestError/transport(_:_:)`
    /// with the `EncodingError`. Give the `jsonEncoder` that matches the client's decoder
    /// (snake_case keys, ISO 8601 dates…); the default is a plain `JSONEncoder()`.
    public static func response(
        _ request: URLRequest, body: some Encodable, statusCode: Int = 200,
        headers: [String: String] = [:], jsonEncoder: JSONEncoder = JSONEncoder()
    ) -> Self {
        do {
            let (data, headers) = try MockBody.encode(body, headers: headers, jsonEncoder: jsonEncoder)
            return response(request, data: data, statusCode: statusCode, headers: headers)
        } catch {
            return .failure(.transport(request, error))
        }
    }

    /// A response to `request` with an empty body: the default answer is `.response(request)`.
    ///
    /// ```swift
    /// mock.resultProvider = { urlRequest in .response(urlRequest, statusCode: 204) }
    /// ```
    public static func response(_ request: URLRequest, statusCode: Int = 200, headers: [String: String] = [:]) -> Self {
        response(request, data: Data(), statusCode: statusCode, headers: headers)
    }

    /// A response to `request` with `data` as its body, or
    /// `FatalError/notHTTPResponse(_:_:)` if no `HTTPURLResponse` can be made.
    static func response(_ request: URLRequest, data: Data, statusCode: Int, headers: [String: String]) -> Self {
        guard let url = request.url,
              let httpResponse = HTTPURLResponse(url: url, statusCode: statusCode, httpVersion: "HTTP/1.1", headerFields: headers)
        else { return .failure(.fatal(.notHTTPResponse(request, nil))) }
        return .success(Response(body: data, httpResponse: httpResponse))
    }
}

/// How a mocked body becomes bytes and headers.
enum MockBody {
    /// `body` as JSON with a JSON content type added to `headers`; a `Data` body as is.
    static func encode(_ body: some Encodable, headers: [String: String], jsonEncoder: JSONEncoder) throws -> (Data, [String: String]) {
        if let data = body as? Data { return (data, headers) }
        let data = try jsonEncoder.encode(body)
        guard !headers.keys.contains(where: { $0.caseInsensitiveCompare(HeaderField.contentType.rawValue) == .orderedSame }) else {
            return (data, headers)
        }
        return (data, headers.merging([HeaderField.contentType.rawValue: "application/json"]) { given, _ in given })
    }
}

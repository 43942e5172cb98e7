import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension RequestBuilder {
    /// Sends the request and returns the raw body with its `HTTPURLResponse`.
    ///
    /// ```swift
    /// try await client.post("user/profile", body: newProfile).perform()
    /// let response: Response<Data> = try await client.get("user/avatar").perform()
    /// ```
    @discardableResult
    public func perform() async throws -> Response<Data> {
        try await execute().0
    }

    /// Sends the request and decodes the body as JSON with `jsonDecoder`, else the client's decoder.
    ///
    /// ```swift
    /// let profile: Profile = try await client.get("user/profile").perform()
    /// ```
    /// `T == Data` returns the raw body. An ``EmptyDecodable`` type such as ``EmptyResponse``
    /// decodes from an empty body. A body that does not decode fails as
    /// ``FatalError/decoding(expectedType:request:response:error:)``, keeping the response.
    public func perform<T: Decodable>(jsonDecoder: JSONDecoder? = nil) async throws -> T {
        let response: Response<T> = try await perform(jsonDecoder: jsonDecoder)
        return response.body
    }

    /// Sends the request and returns the decoded body with its `HTTPURLResponse`.
    ///
    /// ```swift
    /// let response: Response<Profile> = try await client.get("user/profile").perform()
    /// ```
    public func perform<T: Decodable>(jsonDecoder: JSONDecoder? = nil) async throws -> Response<T> {
        let (response, request) = try await execute()
        return response.withBody(try Self.decode(T.self, from: response, of: request, with: jsonDecoder ?? client.jsonDecoder))
    }

    /// Sends the request and streams the body to `destination`, returning the `HTTPURLResponse`.
    ///
    /// ```swift
    /// try await client.get("user/bills/8").download(destination: localUrl)
    /// ```
    /// The body is written to a hidden temporary file in the destination's folder and moved to
    /// `destination` only after every validator passed, replacing an existing file there in one
    /// atomic rename. On any failure, `destination` is left as it was and the temporary file is
    /// removed. A directory at `destination` is never replaced: the download fails as
    /// ``FatalError/download(_:destination:error:)``, as it does when the folder does not exist.
    ///
    /// Validators of a download see an empty body for a 2xx response (the body is on disk), and
    /// the server's body for any other status, up to 1 MiB, so an error document is kept.
    @discardableResult
    public func download(destination: URL) async throws -> HTTPURLResponse {
        let folder = destination.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".\(destination.lastPathComponent).\(UUID().uuidString).download")
        defer { try? FileManager.default.removeItem(at: temporary) }
        let (response, request) = try await execute(download: DownloadTarget(destination: destination, temporaryFile: temporary))
        // rename(2) replaces a file atomically and refuses to replace a directory.
        guard rename(temporary.path, destination.path) == 0 else {
            let error = POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            throw RequestError.fatal(.download(request, destination: destination, error: error))
        }
        return response.httpResponse
    }

    /// Step 7: the body as `T`.
    static func decode<T: Decodable>(_ type: T.Type, from response: Response<Data>, of request: URLRequest, with decoder: JSONDecoder) throws -> T {
        if let data = response.body as? T { return data }
        if response.body.isEmpty, let empty = (T.self as? any EmptyDecodable.Type)?.emptyValue as? T { return empty }
        do {
            return try decoder.decode(T.self, from: response.body)
        } catch {
            throw RequestError.fatal(.decoding(expectedType: String(describing: T.self), request: request, response: response, error: error))
        }
    }
}

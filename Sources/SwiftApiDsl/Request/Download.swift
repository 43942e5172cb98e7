import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The whole life of a download, in order: a hidden temporary name next to the destination, the
// file created before anything is sent, the body written as it arrives, an atomic rename once
// every validator passed, and the temporary file removed whatever happened.

extension RequestBuilder {
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
        let target = DownloadTarget(destination: destination)
        defer { try? FileManager.default.removeItem(at: target.temporaryFile) }
        return try await observed { trace in
            let (response, request) = try await execute(download: target, trace: trace)
            try target.moveIntoPlace(for: request)
            return response.httpResponse
        }
    }
}

/// Where a download's body goes while the request runs, and where it ends.
struct DownloadTarget {
    let destination: URL
    /// Hidden, in the destination's folder, so that the final move is a rename.
    let temporaryFile: URL

    init(destination: URL) {
        self.destination = destination
        let folder = destination.deletingLastPathComponent()
        temporaryFile = folder.appendingPathComponent(".\(destination.lastPathComponent).\(UUID().uuidString).download")
    }

    /// Creates the temporary file, before anything is sent: a folder that does not exist fails
    /// the download without a request.
    func create(for request: TransportRequest) throws {
        guard FileManager.default.createFile(atPath: temporaryFile.path, contents: nil) else {
            let error = CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporaryFile.path])
            throw RequestError.fatal(.download(request.urlRequest, destination: destination, error: error))
        }
    }

    /// Writes `body` to the temporary file; returns what its validators see: nothing for a
    /// success, the error document otherwise (up to ``BodyDestination/errorDocumentLimit``).
    func write(_ body: ResponseBody, isSuccess: Bool, of request: TransportRequest, progress: ProgressReporter?) async throws -> Data {
        let file: FileHandle
        do {
            file = try FileHandle(forWritingTo: temporaryFile)
        } catch {
            throw RequestError.fatal(.download(request.urlRequest, destination: destination, error: error))
        }
        defer { try? file.close() }
        var errorBody: Data? = isSuccess ? nil : Data()
        for try await chunk in body {
            do {
                try file.write(contentsOf: chunk)
            } catch {
                throw RequestError.fatal(.download(request.urlRequest, destination: destination, error: error))
            }
            if let kept = errorBody?.count {
                if kept + chunk.count <= BodyDestination.errorDocumentLimit { errorBody?.append(chunk) } else { errorBody = nil }
            }
            progress?.advance(by: chunk.count)
        }
        progress?.finish()
        return errorBody ?? Data()
    }

    /// Moves the finished file to the destination; rename(2) replaces a file atomically and
    /// refuses to replace a directory.
    func moveIntoPlace(for request: TransportRequest) throws {
        guard rename(temporaryFile.path, destination.path) == 0 else {
            let error = POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            throw RequestError.fatal(.download(request.urlRequest, destination: destination, error: error))
        }
    }
}

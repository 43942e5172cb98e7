import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Modifiers that report how far a transfer has got.

extension RequestModifier {
    /// Reports the progress of the request body as it is sent (an in-memory body, a file, a
    /// multipart form), on every transport.
    ///
    /// ```swift
    /// client.post("videos").uploadFile(movie).uploadProgress { progress.value = $0.fractionCompleted ?? 0 }
    /// ```
    /// Updates are monotonic, at most 20 a second, and the last one, sent when the server has
    /// answered, has `completedBytes == totalBytes`. A redirect that sends the body again does
    /// not move it backwards. The handler is called from any thread. A later call replaces it.
    public static func uploadProgress(_ handler: @escaping ProgressHandler) -> RequestModifier {
        .init(editingDraft: { $0.uploadProgress = handler })
    }

    /// Reports the progress of the response body as it is received, for `perform()`,
    /// `download(destination:)` and `stream()` (the bytes the caller has read), on every transport.
    ///
    /// The total is the `Content-Length` (unknown for a chunked or compressed body). Updates are
    /// monotonic, at most 20 a second, and the last one, sent once the whole body is there, has
    /// `completedBytes == totalBytes`. Redirect responses are not counted. The handler is called
    /// from any thread. A later call replaces it.
    public static func downloadProgress(_ handler: @escaping ProgressHandler) -> RequestModifier {
        .init(editingDraft: { $0.downloadProgress = handler })
    }
}

extension RequestModifiable {
    /// Reports the progress of the request body as it is sent.
    public func uploadProgress(_ handler: @escaping ProgressHandler) -> Self { modifier(.uploadProgress(handler)) }
    /// Reports the progress of the response body as it is received.
    public func downloadProgress(_ handler: @escaping ProgressHandler) -> Self { modifier(.downloadProgress(handler)) }
}

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSessionTransport {
    /// A ``StreamedBody`` as URLSession is given it.
    enum GatheredBody {
        /// Up to ``largestBodyInMemory`` bytes, sent from memory.
        case memory(Data)
        /// A larger body, written to this temporary file, removed when the exchange ends.
        case file(URL)
    }

    /// Reads `streamed` whole before the exchange starts: in memory up to
    /// ``largestBodyInMemory``, in a temporary file beyond it; either is then sent with its
    /// `Content-Length`, through the paths a file or a form takes.
    ///
    /// URLSession takes chunks that arrive asynchronously only as an `InputStream`. On Linux
    /// swift-corelibs-foundation sends one chunked, adding `Transfer-Encoding: chunked` even to a
    /// set `Content-Length` (nginx answers 400), and reads it on the thread that serves every
    /// task of the session: a probe with `uploadTask(withStreamedRequest:)` and a blocking
    /// `InputStream` subclass streamed the body, but a GET on the same session waited 0.81 s for
    /// a producer pausing 1 s (Docs/LinuxNotes.md). So this engine gathers the body first; the
    /// AsyncHTTPClient transport streams the chunks as they come.
    ///
    /// The exchange's control watches the gathering: each chunk counts as activity for the idle
    /// timeout, and an abort (the idle timeout, the pipeline's cancellation) or the cancellation
    /// of the calling task ends it at once, even for a producer that never yields again
    /// (``StreamedBody/makeChunks(endingWith:)``); what it wrote is removed.
    static func gather(_ streamed: StreamedBody, control: ExchangeControl) async throws -> GatheredBody {
        let chunks = try streamed.makeChunks(endingWith: control)
        var data = Data()
        var spool: (url: URL, handle: FileHandle)?
        do {
            for try await chunk in chunks {
                control.noteActivity()
                if let spool {
                    try spool.handle.write(contentsOf: chunk)
                    continue
                }
                data.append(chunk)
                if Int64(data.count) > largestBodyInMemory {
                    let url = FileManager.default.temporaryDirectory.appendingPathComponent("SwiftApiDsl-upload-\(UUID().uuidString)")
                    guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
                        throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
                    }
                    spool = (url, try FileHandle(forWritingTo: url))
                    try spool?.handle.write(contentsOf: data)
                    data = Data()
                }
            }
            try spool?.handle.close()
        } catch {
            if let spool {
                try? spool.handle.close()
                try? FileManager.default.removeItem(at: spool.url)
            }
            throw error
        }
        return spool.map { .file($0.url) } ?? .memory(data)
    }
}

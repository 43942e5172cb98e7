import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The least memory a download over URLSession can take on this machine: a session delegate that
/// writes each chunk to the file inside its callback, on the thread URLSession raises it, with
/// nothing queued. libcurl reads the next bytes only after the callback returns, so the disk sets
/// the pace and no consumer of URLSession can hold less; what its process holds above its start
/// is URLSession's own (`transfer download "URLSession floor"` in the transfers table).
enum DownloadFloor {
    /// Downloads `url` into `destination` and returns the bytes written.
    static func download(_ url: URL, to destination: URL) throws -> Int {
        _ = FileManager.default.createFile(atPath: destination.path, contents: nil)
        let file = try FileHandle(forWritingTo: destination)
        defer { try? file.close() }
        let writer = Writer(file: file)
        let configuration = URLSession.shared.configuration.copy() as? URLSessionConfiguration ?? .default
        configuration.urlCache = nil
        #if canImport(FoundationNetworking)
        let queue: OperationQueue = EngineFloor.InlineQueue()
        #else
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        #endif
        let session = URLSession(configuration: configuration, delegate: writer, delegateQueue: queue)
        defer { session.finishTasksAndInvalidate() }
        session.dataTask(with: url).resume()
        writer.finished.wait()
        return try writer.outcome.get()
    }

    final class Writer: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        let file: FileHandle
        let finished = DispatchSemaphore(value: 0)
        private(set) var outcome: Result<Int, any Error> = .success(0)
        private var written = 0
        private var failure: (any Error)?

        init(file: FileHandle) { self.file = file }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            guard failure == nil else { return }
            do {
                try file.write(contentsOf: data)
                written += data.count
            } catch {
                failure = error
                dataTask.cancel()
            }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            if let error = failure ?? error {
                outcome = .failure(error)
            } else if let status = (task.response as? HTTPURLResponse)?.statusCode, status != 200 {
                outcome = .failure(Transfers.Mismatch(description: "status \(status)"))
            } else {
                outcome = .success(written)
            }
            finished.signal()
        }
    }
}

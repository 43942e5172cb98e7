import BenchmarkClock
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl
import SwiftApiDslAsyncHTTPClient

/// 1 GiB moved through the DSL on each transport, and through curl on the same files, each in a
/// process of its own so that its peak memory is its own.
enum Transfers {
    enum Kind: String, CaseIterable {
        case download
        case multipart
        case upload

        var title: String {
            switch self {
            case .download: "download 1 GiB to a file"
            case .multipart: "upload 1 GiB file as a multipart FileField"
            case .upload: "upload 1 GiB file as the raw body"
            }
        }
    }

    /// The engines a transfer runs on; `curl` is the baseline. A download also runs through
    /// URLSession without the library (``DownloadFloor``): the least memory URLSession can take.
    static func engines(for kind: Kind) -> [String] {
        kind == .download ? ["curl", floor, "URLSession", "AsyncHTTPClient"] : ["curl", "URLSession", "AsyncHTTPClient"]
    }

    /// The name of the ``DownloadFloor`` side.
    static let floor = "URLSession floor"

    struct Result {
        var kind: Kind
        var engine: String
        var bytes: Int
        var seconds: Double
        var peakRSS: Int
        /// The child's resident memory just before the transfer began (none for curl).
        var startRSS: Int?

        var megabytesPerSecond: Double { Double(bytes) / seconds / 1e6 }
    }

    struct Mismatch: Error, CustomStringConvertible {
        let description: String
    }

    /// Where the transfers read and write: the server's big file, the upload sink, and a
    /// local copy of the big file plus a scratch folder.
    struct Setup {
        var server: URL
        var sink: URL
        var bigFile: URL
        var scratch: URL
        var executable: String
    }

    /// Runs one transfer in a child process and returns what it measured.
    static func measure(_ kind: Kind, engine: String, setup: Setup) throws -> Result {
        let outcome: ChildProcess.Outcome
        if engine == "curl" {
            outcome = try ChildProcess.run(curlArguments(kind, setup: setup))
        } else {
            outcome = try ChildProcess.run([
                setup.executable, "transfer", kind.rawValue, engine,
                setup.server.absoluteString, setup.sink.absoluteString, setup.bigFile.path, setup.scratch.path,
            ])
        }
        // Both print "<bytes> <seconds>" as their last line; the child first prints "start <KiB>".
        let startKiB = outcome.output.split(separator: "\n").first { $0.hasPrefix("start ") }.flatMap { Int($0.dropFirst(6)) }
        let fields = outcome.output.split(whereSeparator: \.isWhitespace).suffix(2)
        guard fields.count == 2, let bytes = Double(fields.first ?? ""), let seconds = Double(fields.last ?? "") else {
            throw Mismatch(description: "\(engine) \(kind.rawValue) printed: \(outcome.output)")
        }
        try? FileManager.default.removeItem(at: setup.scratch.appendingPathComponent("download.bin"))
        return Result(kind: kind, engine: engine, bytes: Int(bytes), seconds: seconds, peakRSS: outcome.peakRSS,
                      startRSS: startKiB.map { $0 * 1024 })
    }

    private static func curlArguments(_ kind: Kind, setup: Setup) -> [String] {
        let common = ["curl", "--silent", "--show-error", "--fail"]
        switch kind {
        case .download:
            return common + ["--output", setup.scratch.appendingPathComponent("download.bin").path,
                             "--write-out", "%{size_download} %{time_total}", setup.server.appendingPathComponent("big.bin").absoluteString]
        case .multipart:
            return common + ["--output", "/dev/null", "--form", "file=@\(setup.bigFile.path)",
                             "--write-out", "%{size_upload} %{time_total}", setup.sink.appendingPathComponent("upload").absoluteString]
        case .upload:
            // --upload-file streams the file with its Content-Length (--data-binary would load it whole).
            return common + ["--output", "/dev/null", "--request", "POST", "--upload-file", setup.bigFile.path,
                             "--header", "Content-Type: application/octet-stream", "--header", "Expect:",
                             "--write-out", "%{size_upload} %{time_total}", setup.sink.appendingPathComponent("upload").absoluteString]
        }
    }

    /// The child side: runs one transfer through the DSL, checks that every byte arrived, and
    /// prints "<bytes> <seconds>".
    static func runChild(_ arguments: [String]) async throws {
        guard arguments.count == 6, let kind = Kind(rawValue: arguments[0]),
              let server = URL(string: arguments[2]), let sink = URL(string: arguments[3])
        else { throw Mismatch(description: "usage: transfer <kind> <engine> <server> <sink> <file> <scratch>") }
        let bigFile = URL(fileURLWithPath: arguments[4])
        let scratch = URL(fileURLWithPath: arguments[5])
        let engine = arguments[1]
        let bigSize = try bigFile.resourceValues(forKeys: [.fileSizeKey]).fileSize ?? 0
        print("start \(ChildProcess.statusKiB("VmRSS", of: "self"))")
        // Made after the start is measured, and only for the library's sides.
        var transport: any HTTPTransport {
            engine == "AsyncHTTPClient" ? AsyncHTTPClientTransport.shared : URLSessionTransport()
        }

        let start = Clock.now()
        let bytes: Int
        switch kind {
        case .download where engine == floor:
            bytes = try DownloadFloor.download(server.appendingPathComponent("big.bin"), to: scratch.appendingPathComponent("download.bin"))
            guard bytes == bigSize else { throw Mismatch(description: "downloaded \(bytes) of \(bigSize) bytes") }
        case .download:
            let destination = scratch.appendingPathComponent("download.bin")
            try await ApiClient(transport: transport, baseUrl: server).get("big.bin").httpStatusCodeRange()
                .download(destination: destination)
            bytes = try destination.resourceValues(forKeys: [.fileSizeKey]).fileSize ?? 0
            guard bytes == bigSize else { throw Mismatch(description: "downloaded \(bytes) of \(bigSize) bytes") }
        case .multipart:
            let form = MultipartFormData(parts: [FileField(name: "file", fileURL: bigFile)])
            let expected = try RequestBody.multipart(form).contentLength()
            let answer: SinkAnswer = try await ApiClient(transport: transport, baseUrl: sink).post("upload")
                .multipartFormData(boundary: form.boundary) { FileField(name: "file", fileURL: bigFile) }
                .httpStatusCodeRange()
                .perform()
            bytes = answer.received
            guard Int64(bytes) == expected else { throw Mismatch(description: "the sink received \(bytes) of \(expected) bytes") }
        case .upload:
            let answer: SinkAnswer = try await ApiClient(transport: transport, baseUrl: sink).post("upload")
                .uploadFile(bigFile)
                .httpStatusCodeRange()
                .perform()
            bytes = answer.received
            guard bytes == bigSize else { throw Mismatch(description: "the sink received \(bytes) of \(bigSize) bytes") }
        }
        print("\(bytes) \(Clock.now() - start)")
    }

    /// What the upload sink answers: how many body bytes it read.
    struct SinkAnswer: Decodable {
        var received: Int
    }
}

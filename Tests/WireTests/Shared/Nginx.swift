#if WIRE_SUITES
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// nginx on loopback (`Scripts/lib/nginx.sh`, started by `Scripts/test`): a real static-file
/// server with its own `ETag`, `Last-Modified`, `304` and `Range` behaviour.
enum Nginx {
    /// The server's root URL joined with `path`; throws (failing the test) when nginx was not started.
    static func url(_ path: String = "") throws -> URL {
        try loopbackServerURL(variable: "NGINX_URL", name: "nginx", path: path)
    }

    /// A client on the package's wire transport, based at the server's root.
    static func client() throws -> ApiClient {
        ApiClient(transport: WireTransport.shared, baseUrl: try url())
    }

    /// The folder nginx serves: a test may write files of its own here (`write(_:as:)`).
    static func root() throws -> URL {
        guard let path = ProcessInfo.processInfo.environment["NGINX_ROOT"] else {
            _ = try url()  // throws the "not started" error
            throw CocoaError(.fileNoSuchFile)
        }
        return URL(fileURLWithPath: path, isDirectory: true)
    }

    /// Writes `data` as a file nginx serves under `name` (a fresh name per test keeps tests apart).
    static func write(_ data: Data, as name: String) throws {
        let file = try root().appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file, options: .atomic)
        // nginx's workers run as nobody.
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
    }

    /// The bytes of `blob.bin`: byte `i` is `i % 251`, 1 MiB in all.
    static func blob(_ range: Range<Int> = 0..<(1 << 20)) -> Data {
        Data(range.map { UInt8($0 % 251) })
    }
}

@Suite struct NginxWireTests {
    @Test func nginxAnswersWithAnEntityTagAndHonoursIfNoneMatch() async throws {
        let first = try await Nginx.client().get("doc.json").perform()
        #expect(first.statusCode == 200)
        #expect(String(decoding: first.body, as: UTF8.self) == "{\"id\": 1, \"title\": \"served by nginx\"}\n")
        let etag = try #require(first.headerFields["ETag"])
        #expect(first.headerFields["Last-Modified"] != nil)

        let second = try await Nginx.client().get("doc.json")
            .header("If-None-Match", etag)
            .httpStatusCodeRange(200...304)
            .perform()
        #expect(second.statusCode == 304)
        #expect(second.body.isEmpty)
    }

    @Test func nginxServesARangeOfTheBlob() async throws {
        let response = try await Nginx.client().get("blob.bin").header("Range", "bytes=1000-1999").perform()
        #expect(response.statusCode == 206)
        #expect(response.headerFields["Content-Range"] == "bytes 1000-1999/1048576")
        #expect(response.body == Nginx.blob(1000..<2000))
    }
}
#endif

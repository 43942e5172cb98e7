#if WIRE_SUITES
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// The httpbin server that `Scripts/test` starts on loopback and announces in `HTTPBIN_URL`.
enum HttpBin {
    /// The server's root URL joined with `path`; throws (failing the test) when the server was not started.
    static func url(_ path: String = "") throws -> URL {
        try loopbackServerURL(variable: "HTTPBIN_URL", name: "httpbin", path: path)
    }

    /// A client on the package's wire transport, based at `path` on the server.
    static func client(_ path: String = "") throws -> ApiClient {
        ApiClient(transport: WireTransport.shared, baseUrl: try url(path))
    }

    /// The same server under another host name, for cross-host redirects.
    static func otherHostURL(_ path: String) throws -> URL {
        var components = try #require(URLComponents(url: try url(path), resolvingAgainstBaseURL: false))
        components.host = "localhost"
        return try #require(components.url)
    }

    /// A loopback port that nothing listens on.
    static func closedPortURL() throws -> URL {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return try #require(URL(string: "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))"))
    }
}

/// A loopback server's URL, announced by `Scripts/test` in the environment `variable`, joined with `path`.
func loopbackServerURL(variable: String, name: String, path: String) throws -> URL {
    struct NotRunning: Error, CustomStringConvertible {
        let variable: String, name: String
        var description: String { "\(variable) is not set: run the tests through Scripts/test, which starts \(name)" }
    }
    guard let root = ProcessInfo.processInfo.environment[variable], let url = URL(string: root + path) else {
        throw NotRunning(variable: variable, name: name)
    }
    return url
}

/// What httpbin's `/anything`, `/get`, `/post`… echo back.
struct Echo: Decodable, Sendable {
    let method: String?
    let url: String
    let args: [String: OneOrMany]
    let headers: [String: String]
    let data: String?
    let form: [String: OneOrMany]?
    let files: [String: OneOrMany]?
    let json: JSONValue?

    /// A header as httpbin shows it, looked up without regard to case.
    func header(_ name: String) -> String? {
        headers.first { $0.key.lowercased() == name.lowercased() }?.value
    }
}

/// httpbin shows a repeated argument as a list and a single one as a string.
enum OneOrMany: Decodable, Equatable, Sendable, ExpressibleByStringLiteral {
    case one(String)
    case many([String])

    init(stringLiteral value: String) { self = .one(value) }

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(String.self) {
            self = .one(value)
        } else {
            self = .many(try container.decode([String].self))
        }
    }
}

/// Any JSON value, for comparing what httpbin parsed.
enum JSONValue: Decodable, Equatable, Sendable {
    case null, bool(Bool), number(Double), string(String), array([JSONValue]), object([String: JSONValue])

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([JSONValue].self) { self = .array(value) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
    }
}

/// A small model to send and receive.
struct Profile: Codable, Equatable, Sendable {
    var firstName: String
    var age: Int
}

/// An error thrown on purpose by test modifiers and validators.
struct Boom: Error, Equatable, CustomStringConvertible {
    var label = "boom"
    var description: String { "Boom(\(label))" }
}

/// Records strings from concurrent closures, in order.
final class Trail: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func add(_ item: String) { lock.lock(); items.append(item); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return items }
}

/// A fresh empty folder for files a test writes; removed by the caller.
func temporaryFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("SwiftApiDslTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

/// Seconds elapsed while `body` ran.
func measure<T>(_ body: () async throws -> T) async rethrows -> (T, TimeInterval) {
    let start = Date()
    let value = try await body()
    return (value, Date().timeIntervalSince(start))
}

/// Starts `operation`, cancels it after `delay` seconds, and returns the error it ended with
/// (`nil` if it succeeded) and how long it took to end once cancelled.
func cancelled<T: Sendable>(
    after delay: TimeInterval, _ operation: @escaping @Sendable () async throws -> T
) async throws -> (error: Error?, elapsed: TimeInterval) {
    let task = Task { try await operation() }
    try await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000))
    let (result, elapsed) = await measure {
        task.cancel()
        return await task.result
    }
    guard case .failure(let error) = result else { return (nil, elapsed) }
    return (error, elapsed)
}

/// The outcome of an async call as a `Result`.
extension Result where Failure == Error {
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
#endif

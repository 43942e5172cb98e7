#if WIRE_SUITES
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// nginx with TLS on loopback (`Scripts/lib/tls.sh`, started by `Scripts/test`), with certificates
/// made for the run by a throwaway CA.
enum TLSServer {
    /// The URL in `variable` (`TLS_URL`, `TLS_EXPIRED_URL`, `TLS_WRONG_HOST_URL`, `TLS_MUTUAL_URL`)
    /// joined with `path`; throws (failing the test) when the servers were not started.
    static func url(_ variable: String = "TLS_URL", _ path: String = "") throws -> URL {
        try loopbackServerURL(variable: variable, name: "nginx with TLS", path: path)
    }

    /// The value of an environment variable `Scripts/lib/tls.sh` exports.
    static func value(_ variable: String) throws -> String {
        _ = try url()  // throws the "not started" error
        return try #require(ProcessInfo.processInfo.environment[variable])
    }

    /// A pin of its own for `index`, which no key has: 32 bytes that spell the index.
    static func pin(_ index: Int) -> String {
        "sha256/" + Data(withUnsafeBytes(of: UInt64(index).bigEndian, Array.init) + [UInt8](repeating: 0, count: 24)).base64EncodedString()
    }

    /// The throwaway CA's certificate, as PEM.
    static func authority() throws -> Data { try Data(contentsOf: URL(fileURLWithPath: value("TLS_CA"))) }

    /// The client identity the mutual-TLS server accepts (a PKCS #12 archive) and its password.
    static func clientIdentity() throws -> (pkcs12: Data, password: String) {
        (try Data(contentsOf: URL(fileURLWithPath: value("TLS_CLIENT_P12"))), try value("TLS_CLIENT_P12_PASSWORD"))
    }

    /// The requests that reached `TLS_URL` since the server started, one access-log line each.
    static func accessLog() throws -> [String] {
        let text = try String(contentsOfFile: value("TLS_ACCESS_LOG"), encoding: .utf8)
        return text.split(separator: "\n").map(String.init)
    }

    /// A value of its own for one test's `test` query item, so that the access log tells its
    /// requests apart.
    static func uniqueMark() -> String { UUID().uuidString }

    /// Whether a request marked with `mark` reached `TLS_URL`.
    static func reached(_ mark: String) throws -> Bool {
        try accessLog().contains { $0.contains(mark) }
    }
}
#endif

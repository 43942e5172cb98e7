#if ServerObservability && AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import SwiftApiDsl
import SwiftApiDslMock
import SwiftApiDslServerObservability
import Testing

/// Keeps every line logged through it, with its level and metadata.
final class CapturingLogHandler: LogHandler, @unchecked Sendable {
    struct Line {
        let level: Logger.Level
        let message: String
        let metadata: Logger.Metadata
        /// The line and its metadata as one text, for looking for what must not be there.
        var text: String { "\(message) \(metadata)" }
    }

    private let lock = NSLock()
    private var captured: [Line] = []
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    var lines: [Line] { lock.withLock { captured } }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let line = Line(level: event.level, message: "\(event.message)", metadata: metadata.merging(event.metadata ?? [:]) { $1 })
        lock.withLock { captured.append(line) }
    }
}

@Suite struct LoggingTests {
    let handler = CapturingLogHandler()
    var logger: Logger { Logger(label: "api") { [handler] _ in handler } }
    let mock = ApiClientMock(baseUrl: URL(string: "https://bob:hunter2@api.example.com/v1")!)

    @Test func oneStructuredLinePerCallWithoutSecrets() async throws {
        mock.stub(.get, "me", statusCode: 200, headers: ["Set-Cookie": "session=cookie-secret"])
        let client = mock.client.logging(logger).bearer("token-secret").header("Cookie", "sid=cookie-secret")
        _ = try await client.get("me").queryItem(name: "access_token", "query-secret").queryItem(name: "page", "2").perform()
        let lines = handler.lines
        #expect(lines.count == 1)
        let line = try #require(lines.first)
        #expect(line.level == .info)
        #expect(line.metadata["http.request.method"] == "GET")
        #expect(line.metadata["http.response.status_code"] == "200")
        #expect(line.metadata["url.full"] == "https://REDACTED:REDACTED@api.example.com/v1/me?access_token=REDACTED&page=2")
        #expect(line.metadata["attempt"] == "1")
        #expect(line.metadata["cache.outcome"] == "network")
        #expect(line.metadata["duration"] != nil)
        for secret in ["hunter2", "token-secret", "cookie-secret", "query-secret"] {
            #expect(!line.text.contains(secret), "\(secret) in \(line.text)")
        }
    }

    @Test func aFailureIsLoggedHigherWithItsStage() async throws {
        mock.appliesValidators = true
        mock.stub(.get, "missing", statusCode: 404)
        let client = mock.client.validator(.httpStatusCodeRange()).logging(logger, level: .debug, failureLevel: .warning)
            .authorization("Basic", "YmFzaWMtc2VjcmV0")
        _ = try? await client.get("missing").queryItem(name: "secret", "query-secret").perform()
        let line = try #require(handler.lines.first)
        #expect(line.level == .warning)
        #expect(line.metadata["error.stage"] == "validate")
        #expect(line.metadata["error.type"] == "404")
        #expect(line.metadata["error"] != nil)
        for secret in ["hunter2", "YmFzaWMtc2VjcmV0", "query-secret"] {
            #expect(!line.text.contains(secret), "\(secret) in \(line.text)")
        }
    }

    @Test func aRetriedCallLogsItsLastAttempt() async throws {
        mock.stubFailingOnce("flaky")
        _ = try await mock.client.logging(logger).get("flaky").retryPolicy(.immediate).perform()
        #expect(handler.lines.map { $0.metadata["attempt"] } == ["2"])
    }

    @Test func aLevelTheLoggerDropsWritesNothing() async throws {
        mock.stub(.get, "me", statusCode: 200)
        var quiet = logger
        quiet.logLevel = .error
        _ = try await mock.client.logging(quiet, level: .info).get("me").perform()
        #expect(handler.lines.isEmpty)
    }
}
#endif

#if WIRE_SUITES
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// Retries over a real socket: the test server's `/flaky/<key>` fails the first N requests with
/// a key, then answers 200; `/flaky-stats/<key>` tells what it received.
@Suite struct RetryWireTests {
    struct Attempt: Decodable, Equatable, Sendable { let attempt: Int }
    struct Stats: Decodable, Equatable, Sendable { let requests: Int; let bodyBytes: [Int] }

    static let quick = RetryPolicy(maxAttempts: 3, initialDelay: 0.05, jitter: 0)

    /// Collects the delays of the retries observers hear of.
    final class Delays: @unchecked Sendable {
        private let lock = NSLock()
        private var seen: [TimeInterval] = []
        var all: [TimeInterval] { lock.lock(); defer { lock.unlock() }; return seen }
        func observe(_ event: RequestEvent) {
            guard case .retrying(_, _, let delay) = event.kind else { return }
            lock.lock(); seen.append(delay); lock.unlock()
        }
    }

    func stats(_ key: String) async throws -> Stats {
        try await TestServer.client().get("flaky-stats/\(key)").perform(as: Stats.self)
    }

    @Test func aRouteThatFailsTwiceThenSucceedsIsReachedOnTheThirdAttempt() async throws {
        let key = UUID().uuidString
        let client = try TestServer.client().httpStatusCodeRange().retryPolicy(Self.quick)
        let answer = try await client.get("flaky/\(key)").queryItems(["failures": "2", "status": "503"]).perform(as: Attempt.self)
        #expect(answer == Attempt(attempt: 3))
        #expect(try await stats(key).requests == 3)
    }

    @Test func failingMoreThanTheAttemptsAllowFailsWithTheCount() async throws {
        let key = UUID().uuidString
        let client = try TestServer.client().httpStatusCodeRange().retryPolicy(Self.quick)
        let error = await #expect(throws: RequestError.self) {
            try await client.get("flaky/\(key)").queryItems(["failures": "5", "status": "502"]).perform()
        }
        #expect(error?.attempts == 3)
        #expect(error?.statusCode == 502)
        #expect(try await stats(key).requests == 3)
    }

    @Test func aResetConnectionIsRetried() async throws {
        let key = UUID().uuidString
        let client = try TestServer.client().retryPolicy(Self.quick)
        let answer = try await client.get("flaky/\(key)").queryItems(["failures": "1", "status": "reset"]).perform(as: Attempt.self)
        #expect(answer == Attempt(attempt: 2))
        #expect(try await stats(key).requests == 2)
    }

    @Test func retryAfterInSecondsIsHonoured() async throws {
        let key = UUID().uuidString
        let delays = Delays()
        let client = try TestServer.client().retryPolicy(Self.quick).observer(delays.observe)
        let answer = try await client.get("flaky/\(key)").queryItems(["failures": "1", "status": "429", "retry-after": "1"]).perform(as: Attempt.self)
        #expect(answer == Attempt(attempt: 2))
        #expect(delays.all == [1])
    }

    /// A wait the server gives in its body (Matrix's `retry_after_ms`) is read by `serverDelay`,
    /// in place of the header.
    @Test func aWaitGivenInTheBodyIsHonoured() async throws {
        struct Limited: Decodable { let retry_after_ms: Int }
        let key = UUID().uuidString
        let delays = Delays()
        var policy = Self.quick
        policy.serverDelay = { response in
            (try? JSONDecoder().decode(Limited.self, from: response.body)).map { Double($0.retry_after_ms) / 1000 }
        }
        let client = try TestServer.client().retryPolicy(policy).observer(delays.observe)
        let answer = try await client.get("flaky/\(key)")
            .queryItems(["failures": "1", "status": "429", "retry-after": "9", "retry-after-ms": "250"]).perform(as: Attempt.self)
        #expect(answer == Attempt(attempt: 2))
        #expect(delays.all == [0.25])
    }

    @Test func retryAfterAsAnHttpDateIsHonoured() async throws {
        let key = UUID().uuidString
        let delays = Delays()
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let inOneSecond = formatter.string(from: Date().addingTimeInterval(1))
        let client = try TestServer.client().retryPolicy(Self.quick).observer(delays.observe)
        let answer = try await client.get("flaky/\(key)").queryItems(["failures": "1", "status": "503", "retry-after": inOneSecond]).perform(as: Attempt.self)
        #expect(answer == Attempt(attempt: 2))
        #expect(delays.all.count == 1)
        #expect(delays.all.allSatisfy { (0...1).contains($0) })
    }

    @Test func aFileBodyIsSentAgainFromDiskOnEachAttempt() async throws {
        let key = UUID().uuidString
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("upload.bin")
        try Data(repeating: 7, count: 300_000).write(to: file)
        let client = try TestServer.client().retryPolicy(Self.quick.retryingPost())
        let answer = try await client.post("flaky/\(key)").queryItems(["failures": "2", "status": "503"])
            .uploadFile(file).perform(as: Attempt.self)
        #expect(answer == Attempt(attempt: 3))
        #expect(try await stats(key) == Stats(requests: 3, bodyBytes: [300_000, 300_000, 300_000]))
    }

    @Test func aPostIsNotRetriedByDefault() async throws {
        let key = UUID().uuidString
        let client = try TestServer.client().retryPolicy(Self.quick)
        let response = try await client.post("flaky/\(key)").queryItems(["failures": "1", "status": "503"]).perform()
        #expect(response.statusCode == 503)
        #expect(try await stats(key).requests == 1)
    }

    @Test func aBodyCutAfterItBeganIsNotRetried() async throws {
        // Retries act on the head: once a body has begun to arrive, part of it may be read already.
        let key = UUID().uuidString
        let client = try TestServer.client().retryPolicy(Self.quick)
        let error = await #expect(throws: RequestError.self) {
            try await client.get("flaky/\(key)").queryItems(["failures": "1", "status": "cut"]).perform()
        }
        guard case .transport? = error else { Issue.record("expected .transport, got \(String(describing: error))"); return }
        #expect(error?.attempts == 1)
        #expect(try await stats(key).requests == 1)
    }
}
#endif

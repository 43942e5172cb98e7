#if AsyncHTTPClient
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import SwiftApiDsl
import SwiftApiDslAsyncHTTPClient
import Testing

/// How exchanges are spread over the event loops of the transport's group. AsyncHTTPClient puts
/// a new connection on the loop its request was given, and a group outside its own threads hands
/// out its loops in turn: an exchange that took two loops from a group of two got the same one
/// every time, and every connection ended up on it (Benchmarks/NOTES.md, "every exchange on one
/// event loop"). An exchange alone runs where the last one ended, by its idle connection: taken in
/// turn, every other one ran on the loop without it, and its callbacks crossed threads.
@Suite struct EventLoopPickTests {
    @Test func callsOneAtATimeRunWhereTheLastEndedAndCallsInFlightTakeTheNextLoop() async throws {
        let loops = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        let group = PickCountingGroup(loops)
        let transport = AsyncHTTPClientTransport(eventLoopGroup: group)
        let client = ApiClient(asyncHTTPClient: transport, baseUrl: try TestServer.url())
        #expect(try await client.get("health").perform().httpResponse.statusCode == 200)
        #expect(group.picks == 1)
        for _ in 0..<10 {
            #expect(try await client.get("health").perform().httpResponse.statusCode == 200)
        }
        #expect(group.picks == 1)
        // A body held at the server until its gate opens keeps this exchange in flight…
        let key = UUID().uuidString
        let held = try await client.get("sized").queryItems(["bytes": "200000", "gate": key]).stream()
        // …so each call meanwhile is not alone, and takes one loop.
        for _ in 0..<3 {
            #expect(try await client.get("health").perform().httpResponse.statusCode == 200)
        }
        #expect(group.picks == 4)
        _ = try await client.post("gate/\(key)").perform()
        var read = 0
        for try await chunk in held.body { read += chunk.count }
        #expect(read == 200_000)
        try await transport.shutdown()
        try await loops.shutdownGracefully()
    }
}

/// A group that counts the loops picked from it with `next()` or `any()`.
private final class PickCountingGroup: EventLoopGroup {
    private let base: MultiThreadedEventLoopGroup
    private let count = NIOLockedValueBox(0)

    init(_ base: MultiThreadedEventLoopGroup) { self.base = base }

    var picks: Int { count.withLockedValue { $0 } }

    func next() -> any EventLoop {
        count.withLockedValue { $0 += 1 }
        return base.next()
    }

    func any() -> any EventLoop {
        count.withLockedValue { $0 += 1 }
        return base.any()
    }

    func makeIterator() -> EventLoopIterator { base.makeIterator() }

    func shutdownGracefully(queue: DispatchQueue, _ callback: @escaping @Sendable ((any Error)?) -> Void) {
        base.shutdownGracefully(queue: queue, callback)
    }
}
#endif

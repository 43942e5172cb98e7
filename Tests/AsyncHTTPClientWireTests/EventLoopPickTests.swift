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
/// every time, and every connection ended up on it (Benchmarks/NOTES.md, "every exchange on one event loop").
@Suite struct EventLoopPickTests {
    @Test func eachExchangeTakesOneEventLoopFromTheGroup() async throws {
        let loops = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        let group = PickCountingGroup(loops)
        let transport = AsyncHTTPClientTransport(eventLoopGroup: group)
        let client = ApiClient(asyncHTTPClient: transport, baseUrl: try HttpBin.url())
        #expect(try await client.get("get").perform().httpResponse.statusCode == 200)
        let before = group.picks
        for _ in 0..<10 {
            #expect(try await client.get("get").perform().httpResponse.statusCode == 200)
        }
        #expect(group.picks - before == 10)
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

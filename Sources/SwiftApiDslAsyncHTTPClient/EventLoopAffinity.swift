#if AsyncHTTPClient
import NIOConcurrencyHelpers
import NIOCore

/// Picks each exchange's event loop: with no other exchange in flight, the loop where the last
/// one ended; otherwise the group's next loop in turn.
///
/// AsyncHTTPClient runs a delegate's callbacks on the loop the exchange names, and gives the
/// request an idle connection wherever it lives, preferring one on that loop. Picked in turn, one
/// request at a time landed every other time on the loop without the connection, and then the
/// head, each body part and the end each crossed to the other thread (an eventfd write and a
/// wake-up each). The connection a lone exchange used is idle on the loop where it ended, so the
/// next one finds it there. With many in flight, the turns spread them over the loops as before.
final class EventLoopAffinity: Sendable {
    private struct State {
        var inFlight = 0
        var lastEnded: (any EventLoop)?
    }

    private let group: any EventLoopGroup
    private let state = NIOLockedValueBox(State())

    init(group: any EventLoopGroup) {
        self.group = group
    }

    /// The loop for a new exchange; ``ended(on:)`` must follow once, however it ends.
    func next() -> any EventLoop {
        let alone: (any EventLoop)? = state.withLockedValue { state in
            state.inFlight += 1
            return state.inFlight == 1 ? state.lastEnded : nil
        }
        return alone ?? group.any()
    }

    /// Records that an exchange on `loop` ended.
    func ended(on loop: any EventLoop) {
        state.withLockedValue { state in
            state.inFlight -= 1
            state.lastEnded = loop
        }
    }
}
#endif

import Testing
@testable import SwiftApiDsl

/// The bounded table behind what transports keep per TLS settings: the least recently used
/// value goes first, and a leased one is retired only when its last lease ends.
@Suite struct BoundedTableTests {
    /// A table of `capacity` strings whose retired values are recorded.
    func table(_ capacity: Int) -> (BoundedTable<Int, String>, Locked<[String]>) {
        let retired = Locked<[String]>([])
        return (BoundedTable(capacity: capacity) { value in retired.withLock { $0.append(value) } }, retired)
    }

    @Test func aValueIsMadeOnceAndTheLeastRecentlyUsedIsRetiredPastTheCapacity() {
        let (table, retired) = table(2)
        let made = Locked(0)
        func value(_ key: Int) -> String { table.value(for: key) { made.withLock { $0 += 1 }; return "v\(key)" } }
        #expect(value(1) == "v1")
        #expect(value(2) == "v2")
        #expect(value(1) == "v1")
        #expect(made.withLock { $0 } == 2)
        #expect(value(3) == "v3")  // 2 was used longest ago
        #expect(retired.withLock { $0 } == ["v2"])
        #expect(table.count == (kept: 2, retiring: 0))
        #expect(value(2) == "v2")  // made again; 1 goes now
        #expect(retired.withLock { $0 } == ["v2", "v1"])
        #expect(made.withLock { $0 } == 4)
    }

    @Test func aLeasedValueEvictedIsRetiredOnlyWhenItsLastLeaseEnds() {
        let (table, retired) = table(1)
        let first = table.lease(1) { "v1" }
        let second = table.lease(1) { "unused" }
        #expect(first.value == "v1" && second.value == "v1")
        _ = table.value(for: 2) { "v2" }
        #expect(table.count == (kept: 1, retiring: 1))
        #expect(retired.withLock { $0 }.isEmpty)
        first.release()
        #expect(retired.withLock { $0 }.isEmpty)
        second.release()
        #expect(retired.withLock { $0 } == ["v1"])
        #expect(table.count == (kept: 1, retiring: 0))
    }

    @Test func aReleaseAfterTheKeyWasMadeAgainLeavesTheNewValueAlone() {
        let (table, retired) = table(1)
        let old = table.lease(1) { "old" }
        _ = table.value(for: 2) { "v2" }
        let new = table.lease(1) { "new" }  // evicts 2, which no lease holds
        #expect(retired.withLock { $0 } == ["v2"])
        old.release()
        #expect(retired.withLock { $0 } == ["v2", "old"])
        _ = table.value(for: 3) { "v3" }
        #expect(table.count == (kept: 1, retiring: 1))  // "new" is still leased
        new.release()
        #expect(retired.withLock { $0 } == ["v2", "old", "new"])
    }

    @Test func removeAllTakesEveryValueOutWithoutRetiringAny() {
        let (table, retired) = table(1)
        let leased = table.lease(1) { "v1" }
        _ = table.value(for: 2) { "v2" }
        #expect(Set(table.removeAll()) == ["v1", "v2"])
        #expect(table.count == (kept: 0, retiring: 0))
        leased.release()
        #expect(retired.withLock { $0 }.isEmpty)
    }
}

/// At most `capacity` values by key, the least recently used evicted first: what a transport
/// makes per TLS settings and host (a session, a client, a TLS configuration), which would
/// otherwise grow with every host and settings a process meets.
///
/// An evicted value is handed to `retire` (close it, shut it down) once no lease of it is out,
/// so a client with requests in flight is shut down only after they end. ``removeAll()`` takes
/// every value out, leased or not, for the owner's own shutdown.
package final class BoundedTable<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Entry {
        let id: UInt64
        let value: Value
        var leases = 0
        var lastUse: UInt64
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        /// Evicted while leased, by id: retired when their last lease is released.
        var retiring: [UInt64: Entry] = [:]
        var clock: UInt64 = 0
    }

    /// How many values the table keeps at most.
    package let capacity: Int
    private let retire: @Sendable (Value) -> Void
    private let state = Locked(State())

    package init(capacity: Int, retire: @escaping @Sendable (Value) -> Void = { _ in }) {
        precondition(capacity > 0, "a bounded table keeps at least one value")
        self.capacity = capacity
        self.retire = retire
    }

    /// The value for `key`, made by `make` when the table has none.
    package func value(for key: Key, make: () throws -> Value) rethrows -> Value {
        try lease(key, counted: false, make: make).value
    }

    /// The value for `key` (made by `make` when the table has none), held until `release` is
    /// called: evicted meanwhile, it is retired only then. Call `release` exactly once.
    package func lease(_ key: Key, make: () throws -> Value) rethrows -> (value: Value, release: @Sendable () -> Void) {
        try lease(key, counted: true, make: make)
    }

    private func lease(_ key: Key, counted: Bool, make: () throws -> Value) rethrows -> (value: Value, release: @Sendable () -> Void) {
        var evicted: Value?
        let entry: Entry = try state.withLock { state in
            state.clock += 1
            if var entry = state.entries[key] {
                entry.lastUse = state.clock
                if counted { entry.leases += 1 }
                state.entries[key] = entry
                return entry
            }
            let entry = Entry(id: state.clock, value: try make(), leases: counted ? 1 : 0, lastUse: state.clock)
            if state.entries.count >= capacity, let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                state.entries[oldest.key] = nil
                if oldest.value.leases == 0 { evicted = oldest.value.value } else { state.retiring[oldest.value.id] = oldest.value }
            }
            state.entries[key] = entry
            return entry
        }
        if let evicted { retire(evicted) }
        guard counted else { return (entry.value, {}) }
        return (entry.value, { [self] in release(entry.id, key: key) })
    }

    private func release(_ id: UInt64, key: Key) {
        let done: Value? = state.withLock { state in
            if state.entries[key]?.id == id {
                state.entries[key]?.leases -= 1
                return nil
            }
            state.retiring[id]?.leases -= 1
            guard let leases = state.retiring[id]?.leases, leases <= 0 else { return nil }
            return state.retiring.removeValue(forKey: id)?.value
        }
        if let done { retire(done) }
    }

    /// How many values the table keeps, and how many evicted ones still wait for their leases.
    package var count: (kept: Int, retiring: Int) {
        state.withLock { ($0.entries.count, $0.retiring.count) }
    }

    /// Takes every value out, the leased and the retiring ones too, without retiring any.
    package func removeAll() -> [Value] {
        state.withLock { state in
            defer { state = State() }
            return state.entries.values.map(\.value) + state.retiring.values.map(\.value)
        }
    }
}

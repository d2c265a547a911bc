//  The web remote's connections before they have asked for anything (issue 35): one that sends no complete
//  request within `patience` is closed, and connections are capped per address and in total; at a cap, the
//  oldest connection still waiting for its request makes room (so idle sockets can never keep a real
//  page out), and only when none is waiting is the newcomer itself turned away. Pure: the server
//  (DuoWebRemote) reports what soup sees and closes what this says; tested on a manual clock.

/// The connections of one server and their deadlines.
///
/// Thread: value type; kept on the network loop's thread by the server. Time is a parameter (nanoseconds).
public struct IdleConnections<ID: Hashable & Sendable>: Sendable {
    /// Clients at once in total and from one address (`ListenLimits.clients`, `.perAddress`).
    public let limits: ListenLimits
    /// How long a connection may take to send a complete request (nanoseconds).
    public let patience: Int64

    private struct Entry: Sendable {
        let address: String
        let opened: Int64
        /// When its request must be complete (nil: it sent one and is served, or is a WebSocket).
        var deadline: Int64?
    }
    private var entries: [ID: Entry] = [:]
    private var byAddress: [String: Int] = [:]

    public init(_ limits: ListenLimits, patience: Int64 = 5_000_000_000) {
        self.limits = limits
        self.patience = patience
    }

    public var count: Int { entries.count }

    /// A request is awaited on `id` (a new connection, or a kept-alive one between requests). Returns the
    /// connections to close now: the oldest waiting ones over a cap, or `id` itself when none waits.
    public mutating func awaiting(_ id: ID, from address: String, at now: Int64) -> [ID] {
        if var entry = entries[id] {
            entry.deadline = now + patience
            entries[id] = entry
            return []
        }
        entries[id] = Entry(address: address, opened: now, deadline: now + patience)
        byAddress[address, default: 0] += 1
        var closing: [ID] = []
        while let cap = overCap(address) {
            // The oldest connection still waiting for its request (within the address over its cap, or any).
            let waiting = entries.filter { $0.value.deadline != nil && !closing.contains($0.key) && (cap == .address ? $0.value.address == address : true) }
            guard let oldest = waiting.min(by: { $0.value.opened < $1.value.opened })?.key else {
                closing.append(id)
                break
            }
            closing.append(oldest)
            if oldest == id { break }
            remove(oldest)
        }
        if closing.contains(id) { remove(id) }
        return closing
    }

    private enum Cap { case total, address }
    private func overCap(_ address: String) -> Cap? {
        if let most = limits.perAddress, byAddress[address, default: 0] > most { return .address }
        if let most = limits.clients, entries.count > most { return .total }
        return nil
    }

    /// `id` sent a complete request (or became a WebSocket): no deadline until it awaits another.
    public mutating func served(_ id: ID) {
        entries[id]?.deadline = nil
    }

    /// `id` closed.
    public mutating func closed(_ id: ID) { remove(id) }

    /// The connections whose request is overdue at `now` (forgotten here: close them).
    public mutating func overdue(at now: Int64) -> [ID] {
        let late = entries.filter { $0.value.deadline.map { $0 <= now } ?? false }.map(\.key)
        for id in late { remove(id) }
        return late
    }

    public func isTracked(_ id: ID) -> Bool { entries[id] != nil }

    private mutating func remove(_ id: ID) {
        guard let entry = entries.removeValue(forKey: id) else { return }
        let left = byAddress[entry.address, default: 1] - 1
        byAddress[entry.address] = left > 0 ? left : nil
    }
}

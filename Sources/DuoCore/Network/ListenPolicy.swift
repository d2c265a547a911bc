//  The one admission and rate policy of every network listener (the control socket, the remote display's
//  handshake, the web remote's page and WebSocket, OSC): how many clients at once, how many from one
//  address, the longest line or datagram, and how many messages a second one address may send. Pure: the
//  network loop (DuoPlatform's `NetworkLoop`) carries the bytes and asks; tested with a manual clock.

/// What one listener allows.
///
/// Thread: value type, Sendable.
public struct ListenLimits: Sendable, Equatable {
    /// Clients connected at once (nil: no limit).
    public var clients: Int?
    /// Clients connected at once from one address (nil: no limit).
    public var perAddress: Int?
    /// The longest line, message or datagram, in bytes.
    public var longest: Int
    /// Messages a second one address may send on average (nil: no limit), and at once.
    public var rate: Double?
    public var burst: Double

    public init(clients: Int? = nil, perAddress: Int? = nil, longest: Int, rate: Double? = nil, burst: Double = 0) {
        self.clients = clients
        self.perAddress = perAddress
        self.longest = longest
        self.rate = rate
        self.burst = burst
    }

    /// `--control`: local clients of the same user; lines up to 64 KiB, no other limit.
    public static let control = ListenLimits(longest: 65_536)
    /// The remote display's handshake: 16 senders at once, 4 from one address, lines up to 4 KiB.
    public static let displayHandshake = ListenLimits(clients: 16, perAddress: 4, longest: 4_096)
    /// The web remote (page and WebSocket): 128 connections at once, 32 from one address (a phone's browser
    /// opens a few); messages up to 16 KiB, 100 a second (50 at once) from one address.
    public static let webRemote = ListenLimits(clients: 128, perAddress: 32, longest: 16_384, rate: 100, burst: 50)
    /// OSC: one datagram is one packet (UDP's largest), 100 a second (50 at once) from one address.
    /// obs-websocket (`--obs-websocket`): controllers that ask many things at connect, a few at a time.
    public static let obsWebSocket = ListenLimits(clients: 32, perAddress: 8, longest: 65_536, rate: 100, burst: 50)
    /// HyperDeck (`--hyperdeck`): an ATEM, Companion, a script; short lines.
    public static let hyperDeck = ListenLimits(clients: 16, perAddress: 8, longest: 1_024, rate: 100, burst: 50)
    public static let osc = ListenLimits(longest: OSCMessage.maximumSize, rate: 100, burst: 50)
}

/// One listener's clients and their rates, judged against its `ListenLimits`.
///
/// Thread: value type; the network loop keeps it on its thread (or its owner behind a lock). Time is a
/// parameter (nanoseconds).
public struct Admission: Sendable {
    /// Why a message is not taken.
    public enum Verdict: Sendable, Equatable {
        case accept
        /// Longer than `ListenLimits.longest`.
        case tooLong
        /// Beyond the address's rate: dropped.
        case tooFast
        /// More messages at once (an OSC bundle's) than the address may ever send at once: refused whole.
        case tooMany
    }

    public let limits: ListenLimits
    /// Addresses whose rate is remembered at most (a flood from many addresses cannot grow it).
    public let capacity: Int
    public private(set) var connected = 0
    private var byAddress: [String: Int] = [:]
    private var gates: [String: CommandGate] = [:]

    public init(_ limits: ListenLimits, capacity: Int = 1_024) {
        self.limits = limits
        self.capacity = max(1, capacity)
    }

    /// Whether a client from `address` may connect now (then it counts until `leave`).
    public mutating func connect(_ address: String) -> Bool {
        if let clients = limits.clients, connected >= clients { return false }
        if let most = limits.perAddress, byAddress[address, default: 0] >= most { return false }
        connected += 1
        byAddress[address, default: 0] += 1
        return true
    }

    /// A client admitted by `connect` went.
    public mutating func leave(_ address: String) {
        guard let count = byAddress[address] else { return }
        connected -= 1
        byAddress[address] = count > 1 ? count - 1 : nil
    }

    /// Whether a datagram or line of `size` bytes from `address`, holding `count` messages (an OSC
    /// bundle's: each counts against the rate), is taken at `now`: all of them or none.
    public mutating func message(from address: String, size: Int, count: Int = 1, at now: Int64) -> Verdict {
        guard size <= limits.longest else { return .tooLong }
        guard let rate = limits.rate else { return .accept }
        guard Double(count) <= limits.burst else { return .tooMany }
        if gates[address] == nil, gates.count >= capacity {
            // Forget the addresses whose gate has filled up again (they start afresh just the same).
            gates = gates.filter { !$0.value.isFull(at: now) }
            // All busy: the newcomers share one gate, so the total stays bounded.
            if gates.count >= capacity {
                return gates["", default: CommandGate(rate: rate, burst: limits.burst)].admitting(count, at: now, into: &gates, "")
            }
        }
        return gates[address, default: CommandGate(rate: rate, burst: limits.burst)].admitting(count, at: now, into: &gates, address)
    }
}

private extension CommandGate {
    /// `admit`, keeping the gate's new state under `key`.
    func admitting(_ count: Int, at now: Int64, into gates: inout [String: CommandGate], _ key: String) -> Admission.Verdict {
        var gate = self
        let ok = gate.admit(count, at: now)
        gates[key] = gate
        return ok ? .accept : .tooFast
    }
}

/// Cuts a byte stream into lines (without their newline, trimmed of spaces and tabs, empty ones skipped),
/// none longer than `longest` bytes: a longer one is reported once (`tooLong`) and dropped up to its end,
/// however long it goes on, and the next line is taken as usual.
///
/// Thread: value type; owned by one connection on the network loop.
public struct LineFramer: Sendable {
    public enum Piece: Sendable, Equatable {
        case line(String)
        case tooLong
    }

    public let longest: Int
    /// Empty lines are handed on too (HyperDeck's blocks end with one); skipped by default.
    public let keepsEmptyLines: Bool
    private var pending: [UInt8] = []
    /// Inside a line already reported as too long: dropped up to its end.
    private var discarding = false

    public init(longest: Int, keepsEmptyLines: Bool = false) {
        self.longest = longest
        self.keepsEmptyLines = keepsEmptyLines
    }

    /// The lines `bytes` complete, in order.
    public mutating func feed(_ bytes: some Collection<UInt8>) -> [Piece] {
        var pieces: [Piece] = []
        for byte in bytes {
            if byte == 10 {
                if discarding {
                    discarding = false
                } else {
                    let line = String(decoding: pending, as: UTF8.self).trimmingSpaces
                    if !line.isEmpty || keepsEmptyLines { pieces.append(.line(line)) }
                }
                pending.removeAll(keepingCapacity: true)
            } else if !discarding {
                pending.append(byte)
                if pending.count > longest {
                    pieces.append(.tooLong)
                    pending.removeAll()
                    discarding = true
                }
            }
        }
        return pieces
    }
}

private extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" || f == "\r" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\r" { s = s.dropLast() }
        return String(s)
    }
}

import Foundation

/// An SRT address as the user gives it: `srt://HOST:PORT` calls a listener there; `srt://:PORT` listens.
///
/// Thread: value type, Sendable.
public struct SRTAddress: Sendable, Equatable, CustomStringConvertible {
    /// nil: this end listens on `port`.
    public let host: String?
    public let port: Int

    public init(host: String?, port: Int) {
        self.host = host
        self.port = port
    }

    public var isListener: Bool { host == nil }
    public var description: String { "srt://\(host ?? ""):\(port)" }

    /// `srt://HOST:PORT` or `srt://:PORT` (a query such as `?latency=` is not taken: options say it).
    public static func parse(_ text: String, option: String) throws(DuoError) -> SRTAddress {
        let example = Said.text("such as srt://192.168.1.20:7001 (call a display there) or srt://:7001 (listen)")
        guard text.hasPrefix("srt://") else { throw .usage(.text("%s %s: expected an SRT address, %s", option, text, example)) }
        let rest = text.dropFirst("srt://".count)
        guard !rest.contains("?"), !rest.contains("/") else {
            throw .usage(.text("%s %s: give only host and port, %s; the latency is --srt-latency", option, text, example))
        }
        guard let colon = rest.lastIndex(of: ":"), let port = Int(rest[rest.index(after: colon)...]), (1...65535).contains(port) else {
            throw .usage(.text("%s %s: needs a port from 1 to 65535, %s", option, text, example))
        }
        var host = String(rest[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return SRTAddress(host: host.isEmpty ? nil : host, port: port)
    }
}

/// How the two ends agree before any picture flows, over a TCP connection to the display's SRT port
/// number: the display says its monitor's size and refresh and whether it encrypts, with a random
/// challenge; the sender proves it holds the same passphrase (an HMAC of the challenge, so the passphrase
/// itself never crosses the wire); the display accepts or says why not. So a wrong passphrase is a clear
/// one-line message on both ends, instead of SRT's "Connection does not exist" on one and silence on the
/// other, and the sender renders the subject view for the display that shows it.
///
/// Thread: pure values and functions; the sockets live in DuoMedia.
public enum RemoteDisplayHandshake {
    /// The display's first line.
    public struct Hello: Codable, Sendable, Equatable {
        public var display: Int = 1
        public var width: Int
        public var height: Int
        public var refresh: Int
        public var encrypted: Bool
        /// A fresh random challenge, hex.
        public var challenge: String
        public init(width: Int, height: Int, refresh: Int, encrypted: Bool, challenge: String) {
            self.width = width
            self.height = height
            self.refresh = refresh
            self.encrypted = encrypted
            self.challenge = challenge
        }
    }

    /// The sender's answer: its proof (nil: it sends unencrypted), and a challenge of its own, so the
    /// display proves in turn that it holds the passphrase before the sender believes its hello.
    public struct Answer: Codable, Sendable, Equatable {
        public var proof: String?
        public var challenge: String?
        public init(proof: String?, challenge: String? = nil) {
            self.proof = proof
            self.challenge = challenge
        }
    }

    /// The display's verdict; when it accepts an encrypted sender, its `proof` of the passphrase over the
    /// sender's challenge and its own hello (`displayProofText`).
    public struct Verdict: Codable, Sendable, Equatable {
        public var ok: Bool
        public var reason: String?
        public var proof: String?
        public init(ok: Bool, reason: String? = nil, proof: String? = nil) {
            self.ok = ok
            self.reason = reason
            self.proof = proof
        }
    }

    /// What the display's proof is an HMAC of: the sender's challenge and everything the hello said, so
    /// a man in the middle without the passphrase can neither pass as the display nor change its size.
    public static func displayProofText(_ hello: Hello, senderChallenge: String) -> String {
        "duo-capture display|\(senderChallenge)|\(hello.width)x\(hello.height)@\(hello.refresh)|\(hello.encrypted)|\(hello.challenge)"
    }

    /// The largest and smallest picture the sender renders for a display (x264's and the network's sense).
    public static let largest = (width: 7680, height: 4320)
    public static let smallest = 16

    /// The size the sender renders for a display that reported `width`×`height`: scaled down (keeping
    /// its shape) to fit 7680x4320, rounded down to even (x264 takes only even sizes, and fractional
    /// scaling gives monitors such as 1281x721), at least 16x16. nil when no monitor has that size
    /// (zero, negative, or beyond 65536 on a side): such a display is refused with a reason.
    public static func renderSize(width: Int, height: Int) -> (width: Int, height: Int)? {
        guard (1...65536).contains(width), (1...65536).contains(height) else { return nil }
        let scale = min(1.0, Double(largest.width) / Double(width), Double(largest.height) / Double(height))
        func even(_ side: Int) -> Int { max(smallest, Int((Double(side) * scale).rounded(.down)) & ~1) }
        return (min(largest.width, even(width)), min(largest.height, even(height)))
    }

    /// A reported refresh rate kept to what a monitor can have (60 when it is not).
    public static func refresh(_ reported: Int) -> Int { (1...1000).contains(reported) ? reported : 60 }

    /// The display's decision on an answer. `expected`: the proof the display computes for its own
    /// passphrase (nil when it runs without encryption).
    public static func judge(_ answer: Answer, expected: String?) -> Verdict {
        switch (expected, answer.proof) {
        case (nil, nil): return Verdict(ok: true)
        case (nil, _?): return Verdict(ok: false, reason: "the display runs with --no-encryption and the sender encrypts; give both ends the same setting")
        case (_?, nil): return Verdict(ok: false, reason: "the display encrypts and the sender runs with --no-encryption; give both ends the same passphrase")
        case (let e?, let p?): return e == p ? Verdict(ok: true) : Verdict(ok: false, reason: "wrong passphrase; give both ends the same --passphrase-file (or DUO_SRT_PASSPHRASE)")
        }
    }
}

/// The SRT passphrase: from `--passphrase-file` or the `DUO_SRT_PASSPHRASE` environment variable, never
/// from the command line (where `ps` shows it). SRT takes 10 to 79 characters.
///
/// Thread: pure functions.
public enum SRTPassphrase {
    public static let environmentVariable = "DUO_SRT_PASSPHRASE"

    /// The passphrase, or nil with `--no-encryption`; a one-line error when none is given (encryption is
    /// on by default, so a missing passphrase is never a silent unencrypted stream) or it is unusable.
    ///
    /// A passphrase file others can read (any group or world bit, as ssh judges a private key) is
    /// refused unless `allowReadable` (`--allow-readable-passphrase`).
    public static func resolve(file: String?, noEncryption: Bool, environment: [String: String],
                               allowReadable: Bool = false) throws(DuoError) -> String? {
        if noEncryption {
            guard file == nil else { throw .usage(.text("--no-encryption and --passphrase-file contradict each other; give one")) }
            return nil
        }
        var text: String
        var source: String
        if let file {
            try InputFile.requireRegular(file, .text("passphrase file"), hint: .text("write the passphrase (10 to 79 characters) into it, readable only by you"))
            if !allowReadable, let mode = (try? FileManager.default.attributesOfItem(atPath: file))?[.posixPermissions] as? Int,
               mode & 0o077 != 0 {
                throw .input(.text("passphrase file %s can be read by others (mode %s); run chmod 600 %s (or give --allow-readable-passphrase)", file, String(mode & 0o777, radix: 8), file))
            }
            guard let contents = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw .input(.text("passphrase file %s cannot be read as text; check its permissions", file))
            }
            text = contents
            source = "passphrase file \(file)"
        } else if let value = environment[environmentVariable], !value.isEmpty {
            text = value
            source = environmentVariable
        } else {
            throw .usage(.text("SRT is encrypted by default: give --passphrase-file FILE (or set %s), the same on both ends; --no-encryption only on a closed network", environmentVariable))
        }
        text = text.trimmingCharacters(in: .newlines)
        guard (10...79).contains(text.count) else {
            throw .input(.text("%s: the passphrase must be 10 to 79 characters (SRT's rule); it has %s", source, text.count))
        }
        return text
    }
}

/// The display's record of refused senders, by address: the first few refusals in a minute are said
/// one by one, later ones are answered ever later (0.5 s, doubling up to 8 s: guessing the passphrase
/// gets slow) and counted into one summary line per address and minute, so a flood of wrong
/// passphrases neither floods the log nor gets an answer at once. The counting is the one `Throttle`'s.
///
/// Thread: value type; the handshake server keeps it on the network loop. Times are seconds on any
/// monotonic clock.
public struct HandshakeRefusals: Sendable {
    public let window: Double
    /// Refusals said one by one (and answered at once) per address and window.
    public let said: Int
    public let longestDelay: Double
    private var throttle: Throttle

    public init(window: Double = 60, said: Int = 3, longestDelay: Double = 8) {
        self.window = window
        self.said = said
        self.longestDelay = longestDelay
        throttle = Throttle(window: Self.ticks(window), burst: said, capacity: 4_096, summarize: true)
    }

    private static func ticks(_ seconds: Double) -> Int64 { Int64((seconds * 1000).rounded()) }

    /// Records a refusal of `address` at `now`: whether to say it (else it is counted for the summary),
    /// and how long to hold the answer.
    public mutating func refuse(_ address: String, at now: Double) -> (say: Bool, delay: Double) {
        let verdict = throttle.record(address, at: Self.ticks(now))
        guard !verdict.show else { return (true, 0) }
        // The first held back waits 0.5 s, each next one twice as long; uncounted (a full table): the longest.
        let beyond = verdict.attempt == 0 ? 16 : verdict.attempt - said - 1
        return (false, min(longestDelay, 0.5 * Double(1 << min(max(0, beyond), 16))))
    }

    /// The summaries due at `now` (each address's window over; every one when `flush`), addresses
    /// forgotten once their window passed.
    public mutating func due(at now: Double, flush: Bool = false) -> [(address: String, count: Int)] {
        throttle.due(at: Self.ticks(now), flush: flush).map { ($0.key, $0.count) }
    }

    /// The summary's line.
    public static func summary(address: String, count: Int) -> String {
        "refused \(count) more wrong passphrase\(count == 1 ? "" : "s") from \(address) in the last minute (each answered later than the last)"
    }
}

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
        let example = "such as srt://192.168.1.20:7001 (call a display there) or srt://:7001 (listen)"
        guard text.hasPrefix("srt://") else { throw .usage("\(option) \(text): expected an SRT address, \(example)") }
        let rest = text.dropFirst("srt://".count)
        guard !rest.contains("?"), !rest.contains("/") else {
            throw .usage("\(option) \(text): give only host and port, \(example); the latency is --srt-latency")
        }
        guard let colon = rest.lastIndex(of: ":"), let port = Int(rest[rest.index(after: colon)...]), (1...65535).contains(port) else {
            throw .usage("\(option) \(text): needs a port from 1 to 65535, \(example)")
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
public enum RemoteHandshake {
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

    /// The sender's answer: its proof (nil: it sends unencrypted).
    public struct Answer: Codable, Sendable, Equatable {
        public var proof: String?
        public init(proof: String?) { self.proof = proof }
    }

    /// The display's verdict.
    public struct Verdict: Codable, Sendable, Equatable {
        public var ok: Bool
        public var reason: String?
        public init(ok: Bool, reason: String? = nil) {
            self.ok = ok
            self.reason = reason
        }
    }

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
    public static func resolve(file: String?, noEncryption: Bool, environment: [String: String]) throws(DuoError) -> String? {
        if noEncryption {
            guard file == nil else { throw .usage("--no-encryption and --passphrase-file contradict each other; give one") }
            return nil
        }
        var text: String
        var source: String
        if let file {
            try InputFile.requireRegular(file, "passphrase file", hint: "write the passphrase (10 to 79 characters) into it, readable only by you")
            guard let contents = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw .input("passphrase file \(file) cannot be read as text; check its permissions")
            }
            text = contents
            source = "passphrase file \(file)"
        } else if let value = environment[environmentVariable], !value.isEmpty {
            text = value
            source = environmentVariable
        } else {
            throw .usage("SRT is encrypted by default: give --passphrase-file FILE (or set \(environmentVariable)), the same on both ends; --no-encryption only on a closed network")
        }
        text = text.trimmingCharacters(in: .newlines)
        guard (10...79).contains(text.count) else {
            throw .input("\(source): the passphrase must be 10 to 79 characters (SRT's rule); it has \(text.count)")
        }
        return text
    }
}

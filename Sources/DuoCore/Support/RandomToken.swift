/// Random text that must not be guessed: the web remote's pairing token, the display handshake's
/// challenges, a scratch file's or a portal request's unique part. The system's cryptographic generator
/// (getrandom on Linux), written as lowercase hex.
///
/// Thread: pure functions; any thread.
public enum RandomToken {
    /// `bytes` random bytes as `2 × bytes` lowercase hex digits.
    public static func hex(bytes: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes * 2)
        for _ in 0..<max(0, bytes) {
            let byte = UInt8.random(in: 0...255, using: &generator)
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}

import DuoCore
import DuoWebRemote
import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The OSC port on the network loop: by default on this machine only, over IPv4 and IPv6 alike (a real
/// datagram to ::1 arrives and its feedback goes back over IPv6), an IPv6 address given alone, and a bad
/// address or a port in use refused with what to do.
final class OSCSocketTests: XCTestCase {
    /// A UDP client of one family.
    private final class Client {
        let fd: Int32
        private let address: [UInt8]
        init(_ host: String, _ port: Int) throws {
            var hints = addrinfo()
            hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
            hints.ai_flags = AI_NUMERICHOST
            var list: UnsafeMutablePointer<addrinfo>?
            guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else { throw DuoError.runtime("bad host \(host)") }
            defer { freeaddrinfo(list) }
            fd = socket(first.pointee.ai_family, Int32(SOCK_DGRAM.rawValue), 0)
            address = Array(UnsafeRawBufferPointer(start: first.pointee.ai_addr, count: Int(first.pointee.ai_addrlen)))
            var timeout = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }
        deinit { close(fd) }
        func send(_ message: OSCMessage) {
            let bytes = message.encoded()
            _ = bytes.withUnsafeBytes { data in
                address.withUnsafeBytes {
                    sendto(fd, data.baseAddress, data.count, 0, $0.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t($0.count))
                }
            }
        }
        func receive() -> OSCMessage? {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { return nil }
            return try? OSCMessage.parse(Array(buffer[0..<n])).first
        }
    }

    /// What the socket received, from the loop's thread.
    private final class Received: Sendable {
        let messages = Locked<[(OSCMessage, String)]>([])
        let socket = Locked<OSCSocket?>(nil)
    }

    private func open(_ host: String?, port: Int = 0) throws -> (OSCSocket, Received) {
        let received = Received()
        let osc = try OSCSocket(host: host, port: port) { bytes, peer in
            guard let message = try? OSCMessage.parse(bytes).first else { return }
            received.messages.update { $0.append((message, peer.address)) }
            // Feedback to whoever asked, as the run does for /duo/state.
            received.socket.value?.reply(OSCMessage("/duo/state", [.string("idle"), .string(peer.description)]).encoded(), to: peer)
        }
        received.socket.set(osc)
        addTeardownBlock { osc.close() }
        return (osc, received)
    }

    func testByDefaultBothLoopbacksAnswerOverTheirOwnFamily() throws {
        let (osc, received) = try open(nil)
        let port = Int(osc.listening.split(separator: ":").last!)!
        XCTAssertEqual(osc.addresses, ["127.0.0.1:\(port)", "[::1]:\(port)"])
        XCTAssertEqual(osc.listening, "127.0.0.1:\(port)")
        let v6 = try Client("::1", port)
        v6.send(OSCMessage("/duo/record"))
        let feedback = try XCTUnwrap(v6.receive(), "no feedback over IPv6")
        XCTAssertEqual(feedback.address, "/duo/state")
        guard case .string(let to) = feedback.arguments[1] else { return XCTFail("\(feedback)") }
        XCTAssertTrue(to.hasPrefix("[::1]:"), to)
        let v4 = try Client("127.0.0.1", port)
        v4.send(OSCMessage("/duo/stop"))
        XCTAssertNotNil(v4.receive(), "no feedback over IPv4")
        XCTAssertEqual(received.messages.value.map { "\($0.0.address) \($0.1)" }, ["/duo/record ::1", "/duo/stop 127.0.0.1"])
    }

    func testAnIPv6AddressAloneAndBadAddressesAreSaidPlainly() throws {
        let (osc, received) = try open("::1")
        XCTAssertEqual(osc.addresses.count, 1)
        XCTAssertTrue(osc.listening.hasPrefix("[::1]:"), osc.listening)
        let port = Int(osc.listening.split(separator: ":").last!)!
        try Client("::1", port).send(OSCMessage("/duo/mirror"))
        let deadline = Date().addingTimeInterval(10)
        while received.messages.value.isEmpty && Date() < deadline { usleep(10_000) }
        XCTAssertEqual(received.messages.value.first?.0.address, "/duo/mirror")

        XCTAssertThrowsError(try OSCSocket(host: "studio-pc", port: 9000) { _, _ in }) { error in
            XCTAssertEqual((error as? DuoError)?.message,
                           "--osc studio-pc:9000: studio-pc is no IP address; give one such as 0.0.0.0 (every interface), :: or 192.168.1.20")
        }
        XCTAssertThrowsError(try OSCSocket(host: "::1", port: port) { _, _ in }) { error in
            let message = (error as? DuoError)?.message ?? ""
            XCTAssertTrue(message.hasPrefix("--osc [::1]:\(port): cannot listen ("), message)
            XCTAssertTrue(message.hasSuffix("); give another port"), message)
        }
    }
}

import DuoCore
import DuoWebRemote
import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The web remote's libsoup server on the shared network loop: the page over IPv4 and IPv6 with the
/// token, 401 without it; closed, its port is free and another server starts on the same loop.
final class WebRemoteServerTests: XCTestCase {
    /// One HTTP GET over a plain socket; the status code.
    private func get(_ host: String, _ port: Int, _ target: String) throws -> Int {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICHOST
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else { throw DuoError.runtime("bad host") }
        defer { freeaddrinfo(list) }
        let fd = socket(first.pointee.ai_family, first.pointee.ai_socktype, 0)
        defer { close(fd) }
        guard connect(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else { throw DuoError.runtime("cannot connect to \(host) \(port)") }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let request = Array("GET \(target) HTTP/1.1\r\nHost: \(host.contains(":") ? "[\(host)]" : host):\(port)\r\nConnection: close\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var buffer = [UInt8](repeating: 0, count: 4_096)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { throw DuoError.runtime("no answer") }
        return Int(String(decoding: buffer[0..<n], as: UTF8.self).split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    private func server(_ refused: Locked<[String]>) throws -> WebRemoteServer {
        try WebRemoteServer(host: nil, port: 0, page: { _ in Array("<html>remote</html>".utf8) }, handlers: .init(
            authorize: { token, address in
                if token == "right-token-123456" { return true }
                refused.update { $0.append(address) }
                return false
            },
            message: { _, _ in nil }, opened: { [] }, problem: { _, _ in }))
    }

    func testThePageOverBothFamiliesWithItsTokenOnly() throws {
        let refused = Locked<[String]>([])
        let web = try server(refused)
        let port = Int(try XCTUnwrap(web.listening.first).split(separator: ":").last!.trimmingCharacters(in: CharacterSet(charactersIn: "/")))!
        XCTAssertEqual(try get("127.0.0.1", port, "/?token=right-token-123456"), 200)
        XCTAssertEqual(try get("::1", port, "/?token=right-token-123456"), 200)
        XCTAssertEqual(try get("::1", port, "/?token=wrong"), 401)
        XCTAssertEqual(try get("127.0.0.1", port, "/"), 401)
        XCTAssertEqual(refused.value, ["::1", "127.0.0.1"])
        web.close()
        XCTAssertThrowsError(try get("127.0.0.1", port, "/"), "closed: nothing listens on the port")
        let again = try server(refused)
        defer { again.close() }
        let second = Int(try XCTUnwrap(again.listening.first).split(separator: ":").last!.trimmingCharacters(in: CharacterSet(charactersIn: "/")))!
        XCTAssertEqual(try get("127.0.0.1", second, "/?token=right-token-123456"), 200, "another server on the same loop")
    }
}

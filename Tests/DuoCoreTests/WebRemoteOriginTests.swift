import DuoCore
import XCTest

/// The web remote's Host and Origin rules (issue 35): only this machine's addresses on the server's port,
/// and a WebSocket only from its own page.
final class WebRemoteOriginTests: XCTestCase {
    func testOnlyItsOwnAddressAndPageAreAnswered() {
        for host in ["127.0.0.1:8080", "127.0.0.1", "192.168.1.20:8080", "[::1]:8080", "localhost:8080", "LOCALHOST:8080"] {
            XCTAssertNil(WebRemoteOrigin.refusal(host: host, origin: nil, port: 8080, webSocket: false), host)
        }
        XCTAssertNil(WebRemoteOrigin.refusal(host: "192.168.1.20:8080", origin: "http://192.168.1.20:8080", port: 8080, webSocket: true))
        XCTAssertNil(WebRemoteOrigin.refusal(host: "[::1]:8080", origin: "http://[::1]:8080", port: 8080, webSocket: true))
        XCTAssertNil(WebRemoteOrigin.refusal(host: "192.168.1.20:8080", origin: nil, port: 8080, webSocket: true), "no Origin: not a browser page")
        let refused: [(String?, String?, Bool)] = [
            ("evil.example:8080", nil, false), ("evil.example", nil, true), (nil, nil, false), ("127.0.0.1:9999", nil, false),
            ("127.0.0.1:8080", "http://evil.example", true), ("127.0.0.1:8080", "null", true),
            ("127.0.0.1:8080", "http://127.0.0.1:9999", true), ("127.0.0.1:8080", "https://127.0.0.1:8080", true),
            ("[::1", nil, false), ("1.2.3.4:x", nil, false),
        ]
        for (host, origin, ws) in refused {
            XCTAssertNotNil(WebRemoteOrigin.refusal(host: host, origin: origin, port: 8080, webSocket: ws), "\(host ?? "nil") \(origin ?? "nil")")
        }
    }
}

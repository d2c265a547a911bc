/// Which requests the web remote's page and WebSocket answer by their `Host` and `Origin` (issue 35): the
/// `Host` must name an address the server serves (an IP address or `localhost`, on its own port), so a
/// DNS name pointed at this machine (DNS rebinding, `Host: evil.example`) is refused; a WebSocket's
/// `Origin`, when the client sends one (every browser does), must be the page's own
/// (`http://` + that Host), so another site's page (`Origin: http://evil.example`, `Origin: null`) cannot
/// drive the run with a token it learned. Pure; the server asks before anything else.
///
/// Thread: stateless; any thread.
public enum WebRemoteOrigin {
    /// Why the request is refused (nil: it may go on), in `language` (the browser's, for the page it is
    /// shown; English unless given). `port` is the port the request came in on.
    public static func refusal(host: String?, origin: String?, port: Int, webSocket: Bool, in language: Translator = .english) -> String? {
        guard let host, let (name, given) = split(host) else { return language.text("no Host header naming this machine's address") }
        guard name == "localhost" || AddressRange.parse(name) != nil else {
            return language.text("Host %s is not an address this remote serves (open the address printed at start)", [TerminalText.escaped(host, limit: 80)])
        }
        if let given, given != port { return language.text("Host %s names another port", [TerminalText.escaped(host, limit: 80)]) }
        if webSocket, let origin {
            guard origin.lowercased() == "http://\(host.lowercased())" || given == nil && origin.lowercased() == "http://\(host.lowercased()):\(port)" else {
                return language.text("a WebSocket from another page (Origin %s)", [TerminalText.escaped(origin, limit: 80)])
            }
        }
        return nil
    }

    /// `name[:port]` or `[v6][:port]`.
    private static func split(_ host: String) -> (String, Int?)? {
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return nil }
            let name = String(host[host.index(after: host.startIndex)..<close])
            let rest = host[host.index(after: close)...]
            if rest.isEmpty { return (name, nil) }
            guard rest.hasPrefix(":"), let port = Int(rest.dropFirst()) else { return nil }
            return (name, port)
        }
        let parts = host.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2, !parts[0].isEmpty else { return nil }
        if parts.count == 1 { return (String(parts[0]).lowercased(), nil) }
        guard let port = Int(parts[1]) else { return nil }
        return (String(parts[0]).lowercased(), port)
    }
}

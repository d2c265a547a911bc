/// A QR code's modules, as an encoder made them: `size` × `size`, row by row, `true` for a dark module.
/// The quiet zone (4 light modules on every side) is not in it; whoever draws it adds it. Made by
/// DuoRender's `QRCodeEncoder` (libqrencode), so nothing that draws or tests it sees C.
///
/// Thread: value type, Sendable; pure.
public struct QRMatrix: Sendable, Equatable {
    /// Modules on a side: 21 for version 1, 4 more for each version after it (177 for version 40).
    public let size: Int
    /// Row-major, `size * size` of them; `true` is dark.
    public let modules: [Bool]

    /// The light margin a reader needs around the symbol, in modules (ISO/IEC 18004).
    public static let quietZone = 4

    /// nil unless `modules` holds `size * size` values of a QR size (21 to 177, in steps of 4).
    public init?(size: Int, modules: [Bool]) {
        guard size >= 21, size <= 177, (size - 17) % 4 == 0, modules.count == size * size else { return nil }
        self.size = size
        self.modules = modules
    }

    /// The symbol's version (1 to 40), from its size.
    public var version: Int { (size - 17) / 4 }

    /// Whether the module at column `x`, row `y` is dark; outside the symbol (the quiet zone) it is light.
    public subscript(x: Int, y: Int) -> Bool {
        guard x >= 0, y >= 0, x < size, y < size else { return false }
        return modules[y * size + x]
    }
}

/// What the operator window shows on request (the L key, the control bar's link button,
/// `{"cmd":"remote-link"}`): the web remote's pairing address and its QR code, for a phone to scan.
///
/// The address carries the pairing token, so the card is only ever drawn on the operator's own window;
/// it is never written to the events file, the control socket or the debug log.
///
/// Thread: value type, Sendable; pure.
public struct WebRemoteLinkCard: Sendable, Equatable {
    /// The pairing address (with `?token=…`), as printed at start.
    public let url: String
    /// The same address, encoded.
    public let matrix: QRMatrix

    public init(url: String, matrix: QRMatrix) {
        self.url = url
        self.matrix = matrix
    }

    /// The line over the address on the card; a loopback address (`--remote-control PORT` alone) is
    /// no use to a phone, and the line says what is.
    public var caption: String {
        WebRemoteLink.isLoopback(url) ? tr("This machine only: a phone needs --remote-control 0.0.0.0:PORT (L hides this)")
            : tr("Scan with the phone to open the remote (L hides this)")
    }

    /// Where the card and its QR code go in an area of `width` × `height` device pixels, all in whole
    /// device pixels so every module is a crisp square: the symbol with its quiet zone is about a third
    /// of the area's height (at least 3 pixels a module, as large as fits if the area is small), the text
    /// band under it `textHeight` high, the card centred.
    public func layout(width: Int, height: Int, textHeight: Int, textWidth: Int) -> Layout {
        let modules = matrix.size + 2 * QRMatrix.quietZone
        let margin = max(8, height / 40)
        let room = max(modules, min(width - 2 * margin, height - 2 * margin - textHeight))
        let third = Int((Double(height) / 3 / Double(modules)).rounded())
        let module = max(1, min(max(3, third), room / modules))
        let side = module * modules
        let cardWidth = max(side, min(width - 2 * margin, textWidth + 2 * margin))
        let cardHeight = side + textHeight + margin
        let x = max(0, (width - cardWidth) / 2), y = max(0, (height - cardHeight) / 2)
        return Layout(module: module, card: (x, y, cardWidth, cardHeight),
                      symbol: (x + (cardWidth - side) / 2, y, side), text: (x + margin, y + side, cardWidth - 2 * margin, textHeight))
    }

    /// The card's geometry, device pixels.
    public struct Layout: Sendable {
        /// A module's side.
        public let module: Int
        /// The white card (symbol, quiet zone and text).
        public let card: (x: Int, y: Int, width: Int, height: Int)
        /// The symbol's square with its quiet zone (the modules start `quietZone` modules in).
        public let symbol: (x: Int, y: Int, side: Int)
        /// The text band under the symbol.
        public let text: (x: Int, y: Int, width: Int, height: Int)
    }
}

/// The web remote's address the operator window shows, and what it says when there is none.
///
/// Thread: stateless; any thread.
public enum WebRemoteLink {
    /// One line, when the remote control is off: how to turn it on.
    public static let offHint = "phone remote off: start duo-capture with --remote-control PORT (0.0.0.0:PORT for the LAN)"

    /// Of the pairing addresses (as printed at start, with their token), the one a phone can open: the
    /// first not on this machine's loopback (127.x, ::1, localhost); only loopback ones: the first.
    public static func preferred(_ urls: [String]) -> String? {
        urls.first { !isLoopback($0) } ?? urls.first
    }

    public static func isLoopback(_ url: String) -> Bool {
        var rest = Substring(url)
        if let scheme = rest.range(of: "://") { rest = rest[scheme.upperBound...] }
        let host: Substring
        if rest.hasPrefix("[") {
            host = rest.dropFirst().prefix { $0 != "]" }
        } else {
            host = rest.prefix { $0 != ":" && $0 != "/" && $0 != "?" }
        }
        return host.hasPrefix("127.") || host == "::1" || host.lowercased() == "localhost"
    }
}

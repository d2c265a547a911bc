import CQREncode
import DuoCore

/// The adapter to libqrencode: a text in, a pure `QRMatrix` out (every QRcode_* call of the program is
/// here). Byte mode, error correction level M (15 % of the symbol may be lost: a glare on the screen),
/// the smallest version that holds the text.
///
/// Thread: stateless; any thread (libqrencode keeps no shared state for a plain encode).
public enum QRCodeEncoder {
    public static func encode(_ text: String) throws(DuoError) -> QRMatrix {
        guard !text.isEmpty, !text.utf8.contains(0) else {
            throw .usage(tr("a QR code needs a non-empty text without NUL characters"))
        }
        guard let code = QRcode_encodeString8bit(text, 0, QR_ECLEVEL_M) else {
            throw .runtime(tr("libqrencode could not encode %s bytes (at most 2331 fit a QR code at level M)", text.utf8.count))
        }
        defer { QRcode_free(code) }
        let size = Int(code.pointee.width)
        // Bit 0 of each byte is the module's colour (1: dark); the other bits say what the module is for.
        let modules = (0..<size * size).map { code.pointee.data[$0] & 1 == 1 }
        guard let matrix = QRMatrix(size: size, modules: modules) else {
            throw .runtime(tr("libqrencode gave a symbol of %s modules, no QR code size; reinstall libqrencode4", size))
        }
        return matrix
    }
}

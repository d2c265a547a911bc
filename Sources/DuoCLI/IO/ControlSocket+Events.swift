import DuoCore
import Foundation

//  What the control socket's clients are told: every event of the run, encoded here from the typed value
//  (the same line the events file gets), and the error line a bad command is answered with.
//
//  Thread: any (as `ControlSocket.broadcast`).

extension ControlSocket {
    /// Sends one event of the run to every connected client, as its event-log line.
    func broadcast(_ event: RunEvent.Timed) {
        broadcast(String(decoding: event.json, as: UTF8.self))
    }

    /// `{"event":"error","message":…,"v":1}`: the answer to a bad line, on that connection only (and to a
    /// page of the web remote for a bad message).
    static func errorLine(_ message: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = (try? encoder.encode(ErrorAnswer(message: message))) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    private struct ErrorAnswer: Encodable {
        let event = "error"
        let message: String
        let v = RunEvent.version
    }
}

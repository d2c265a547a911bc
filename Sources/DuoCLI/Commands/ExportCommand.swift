import DuoCore
import Foundation

/// `duo-capture export DIR --format otio|edl|csv [--out FILE]`: the takes of a folder (their sidecars, and
/// the session's notes) for an editor; see TakeExport. Without --out the file is DIR/session.otio (.edl,
/// .csv). Reads no video: a take without a sidecar is left out, with a warning.
///
/// Thread: main task; synchronous.
enum ExportCommand {
    static let usage = "usage: duo-capture export DIR --format otio|edl|csv [--out FILE] (DIR: a folder of takes, such as ~/Videos/duo-capture)"

    static func run(_ arguments: [String]) throws(DuoError) -> String {
        var reader = OptionReader(arguments)
        var format: TakeExport.Format?, out: String?, folder: String?
        while let arg = reader.next() {
            switch arg {
            case "--format":
                let v = try reader.value(arg)
                guard let f = TakeExport.Format(rawValue: v.lowercased()) else {
                    throw .usage("export: --format \(TerminalText.escaped(v, limit: 20)): expected otio, edl or csv")
                }
                format = f
            case "--out": out = try reader.value(arg)
            default:
                guard !arg.hasPrefix("-"), folder == nil else { throw .usage("export: \(TerminalText.escaped(arg, limit: 40)) is not taken; \(usage)") }
                folder = arg
            }
        }
        guard let folder, let format else { throw .usage(usage) }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .input("\(folder) is not a folder; give the folder the takes were recorded into (--record-dir)")
        }
        let absolute = URL(fileURLWithPath: folder).standardizedFileURL.path
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.hasSuffix(".mkv") || $0.hasSuffix(".mp4") }.sorted()
        var takes: [TakeExport.Take] = []
        for name in names {
            let path = (absolute as NSString).appendingPathComponent(name)
            let sidecarPath = TakeSidecar.path(forTake: path)
            guard FileManager.default.fileExists(atPath: sidecarPath) else {
                warn("\(name) has no sidecar (\((sidecarPath as NSString).lastPathComponent)); it is left out of the export")
                continue
            }
            do throws(DuoError) {
                let sidecar = try TakeSidecar.read(sidecarPath)
                if let why = SessionReport.sidecarDamage(sidecar) {
                    warn("\(name)'s sidecar cannot be believed (\(why)); it is left out of the export")
                    continue
                }
                takes.append(.init(path: path, sidecar: sidecar))
            } catch { warn("\(error.message); \(name) is left out of the export") }
        }
        takes.sort { ($0.sidecar.started, $0.sidecar.take) < ($1.sidecar.started, $1.sidecar.take) }
        let sessionPath = (absolute as NSString).appendingPathComponent(TakeNote.sessionFile)
        let session = FileManager.default.contents(atPath: sessionPath).map(TakeNote.readSession) ?? (notes: [], unreadable: 0)
        if session.unreadable > 0 { warn("\(session.unreadable) line(s) of \(sessionPath) do not read; they are left out") }
        guard !takes.isEmpty || !session.notes.isEmpty else {
            throw .input("\(folder) holds no takes with sidecars and no session notes; give the folder the takes were recorded into")
        }
        let title = "duo-capture " + (absolute as NSString).lastPathComponent
        let text: String
        switch format {
        case .otio: text = TakeExport.otio(takes, name: title)
        case .edl: text = TakeExport.edl(takes, title: title)
        case .csv: text = TakeExport.csv(takes, session: session.notes)
        }
        let target = out ?? (absolute as NSString).appendingPathComponent("session.\(format.rawValue)")
        do { try Data(text.utf8).write(to: URL(fileURLWithPath: target), options: .atomic) } catch {
            throw .runtime("cannot write \(target): \(WriteProblem.describe(error, folder: "the export's folder"))")
        }
        let notes = takes.reduce(0) { $0 + ($1.sidecar.notes?.count ?? 0) } + (format == .csv ? session.notes.count : 0)
        return "\(target): \(takes.count) take\(takes.count == 1 ? "" : "s"), \(notes) note\(notes == 1 ? "" : "s") and flag\(notes == 1 ? "" : "s")"
    }

    private static func warn(_ line: String) {
        FileHandle.standardError.write(Data("duo-capture: warning: \(line)\n".utf8))
    }
}

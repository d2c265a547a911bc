import DuoCore
import Foundation

/// `duo-capture export DIR --format otio|edl|csv [--out FILE]`: the takes of a folder (their sidecars, and
/// the session's notes) for an editor; see TakeExport. Without --out the file is DIR/session.otio (.edl,
/// .csv). Reads no video: a take without a sidecar is left out, with a warning.
///
/// Thread: main task; synchronous.
enum ExportCommand {
    static var usage: String { tr("usage: duo-capture export DIR --format otio|edl|csv [--out FILE] (DIR: a folder of takes, such as ~/Videos/duo-capture)") }

    static func run(_ arguments: [String]) throws(DuoError) -> String {
        var reader = OptionReader(arguments)
        var format: TakeExport.Format?, out: String?, folder: String?
        while let arg = reader.next() {
            switch arg {
            case "--format":
                let v = try reader.value(arg)
                guard let f = TakeExport.Format(rawValue: v.lowercased()) else {
                    throw .usage(tr("export: --format %s: expected otio, edl or csv", TerminalText.escaped(v, limit: 20)))
                }
                format = f
            case "--out": out = try reader.value(arg)
            default:
                guard !arg.hasPrefix("-"), folder == nil else { throw .usage(tr("export: %s is not taken; %s", TerminalText.escaped(arg, limit: 40), usage)) }
                folder = arg
            }
        }
        guard let folder, let format else { throw .usage(usage) }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .input(tr("%s is not a folder; give the folder the takes were recorded into (--record-dir)", folder))
        }
        let absolute = URL(fileURLWithPath: folder).standardizedFileURL.path
        let names = TakeNaming.takeFiles(among: (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
        var takes: [TakeExport.Take] = []
        for name in names {
            let path = (absolute as NSString).appendingPathComponent(name)
            let sidecarPath = TakeSidecar.path(forTake: path)
            guard FileManager.default.fileExists(atPath: sidecarPath) else {
                warn(tr("%s has no sidecar (%s); it is left out of the export", name, (sidecarPath as NSString).lastPathComponent))
                continue
            }
            do throws(DuoError) {
                let sidecar = try TakeSidecar.read(sidecarPath)
                if let why = SessionReport.sidecarDamage(sidecar) {
                    warn(tr("%s's sidecar cannot be believed (%s); it is left out of the export", name, why))
                    continue
                }
                takes.append(.init(path: path, sidecar: sidecar))
            } catch { warn(tr("%s; %s is left out of the export", error.message, name)) }
        }
        takes.sort { ($0.sidecar.started, $0.sidecar.take) < ($1.sidecar.started, $1.sidecar.take) }
        let sessionPath = (absolute as NSString).appendingPathComponent(TakeNote.sessionFile)
        let session = FileManager.default.contents(atPath: sessionPath).map(TakeNote.readSession) ?? (notes: [], unreadable: 0)
        if session.unreadable > 0 { warn(trn("%s line of %s does not read; it is left out", "%s lines of %s do not read; they are left out", session.unreadable, session.unreadable, sessionPath)) }
        guard !takes.isEmpty || !session.notes.isEmpty else {
            throw .input(tr("%s holds no takes with sidecars and no session notes; give the folder the takes were recorded into", folder))
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
            throw .runtime(tr("cannot write %s: %s", target, WriteProblem.describe(error, folder: tr("the export's folder"))))
        }
        let notes = takes.reduce(0) { $0 + ($1.sidecar.notes?.count ?? 0) } + (format == .csv ? session.notes.count : 0)
        return trn("%s: %d take", "%s: %d takes", takes.count, target, takes.count) + trn(", %d note and flag", ", %d notes and flags", notes, notes)
    }

    private static func warn(_ line: String) {
        FileHandle.standardError.write(Data(tr("duo-capture: warning: %s", line).appending("\n").utf8))
    }
}

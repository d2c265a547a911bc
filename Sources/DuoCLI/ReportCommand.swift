import DuoCore
import DuoMedia
import Foundation

/// `duo-capture report DIR`: writes DIR/report.html for the takes in DIR (every .mkv and .mp4, with their
/// sidecars when present). A take that does not decode is in the report as damaged, never left out.
///
/// Thread: main task; synchronous (decodes each take).
enum ReportCommand {
    static func run(_ arguments: [String]) throws(DuoError) -> String {
        guard arguments.count == 1, let folder = arguments.first, !folder.hasPrefix("-") else {
            throw .usage("usage: duo-capture report DIR (a folder of takes, such as ~/Videos/duo-capture)")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .input("\(folder) is not a folder; give the folder the takes were recorded into (--record-dir)")
        }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.hasSuffix(".mkv") || $0.hasSuffix(".mp4") }.sorted()
        guard !names.isEmpty else { throw .input("\(folder) holds no takes (.mkv or .mp4)") }
        let takes = names.map { name -> SessionReport.Take in
            let file = (folder as NSString).appendingPathComponent(name)
            let sidecar = try? TakeSidecar.read(TakeSidecar.path(forTake: file))
            let a = TakeAnalysis.analyse(file)
            return SessionReport.Take(file: file, sidecar: sidecar, thumbnails: a.thumbnails, levels: a.levels, seconds: a.seconds,
                                      frames: a.frames, width: a.width, height: a.height, damage: a.damage)
        }
        let out = (folder as NSString).appendingPathComponent("report.html")
        do {
            try Data(SessionReport.html(folder: folder, takes: takes).utf8).write(to: URL(fileURLWithPath: out), options: .atomic)
        } catch {
            throw .runtime("cannot write \(out); check that the folder is writable")
        }
        let damaged = takes.filter { $0.damage != nil }.count
        return "\(out): \(takes.count) take\(takes.count == 1 ? "" : "s")" + (damaged > 0 ? ", \(damaged) damaged" : "")
    }
}
